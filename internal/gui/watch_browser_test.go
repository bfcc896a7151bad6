package gui

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nechecb/nechecb/engine"
)

// TestBrowserWatch loads the match watch page in a headless Chromium: first
// a fleet match's, which must carry the note that its games show only in
// the table, then a local match's, which must not, and whose server it
// feeds as the match runner would: a game starts, two moves are played,
// the table and the SPRT line come, the game ends. The page must show each
// step without a reload. docs/gui/watch.png is the local match's page.
func TestBrowserWatch(t *testing.T) {
	exe := findChromium(t)
	b := newBrowser(t, exe)
	// A match on a fleet: the page says why it shows no boards.
	_, furl := startWatch(t, fleetNote, nil)
	b.do("load a fleet match's watch page", chromedp.Navigate(furl))
	b.wait("the event stream", `document.getElementById('status').textContent === 'Live'`)
	b.wait("the fleet's note", `document.getElementById('note').textContent.startsWith('The games are played on a fleet')`)

	// A match on this machine: the boards of the games in progress.
	w, url := startWatch(t, "", nil)
	b.do("load the watch page", chromedp.Navigate(url))
	b.wait("the event stream", `document.getElementById('status').textContent === 'Live'`)
	if note := eval[string](b, `document.getElementById('note').textContent`); note != "" {
		t.Errorf("a local match's page has the note %q", note)
	}
	g := engine.NewGame(engine.StartPosition())
	w.GameStarted(7, "alpha", "beta", "ballot 1", g.Start())
	b.wait("the game's card", `(document.querySelector('li[data-game="7"] h3') || {}).textContent === 'Game 7: alpha (black) – beta (white)'`)
	if n := eval[int](b, `document.querySelectorAll('li[data-game="7"] [data-piece]').length`); n != 24 {
		t.Errorf("the start shows %d pieces, want 24", n)
	}
	for ply := 1; ply <= 2; ply++ {
		before := g.Current()
		m := before.LegalMoves()[0]
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		w.MovePlayed(7, ply, before, m, g.Current())
		text := before.Notation(m)
		b.wait("move "+text, `document.querySelector('li[data-game="7"] p').textContent.includes('last `+text+`;')`)
	}
	if got := eval[string](b, `document.querySelector('li[data-game="7"] p').textContent`); got != "ballot 1; move 1 (2 plies), last "+g.Positions()[1].Notation(g.Moves()[1])+"; black to move" {
		t.Errorf("the game's line reads %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll('li[data-game="7"] rect.last').length`); n != 2 {
		t.Errorf("%d squares marked as the last move's, want 2", n)
	}
	w.Standings([]string{"pairing (A vs B) ...", "alpha vs beta 1 0 0", "1 of 2 games played"}, "SPRT elo0=0 elo1=10: LLR 0.1")
	b.wait("the table", `document.getElementById('table').textContent.endsWith('1 of 2 games played')`)
	b.wait("the SPRT line", `document.getElementById('sprt').textContent === 'SPRT elo0=0 elo1=10: LLR 0.1'`)
	b.shot("watch.png")
	w.GameEnded(7, engine.Result{Outcome: engine.BlackWins, Reason: "no legal move"})
	b.wait("the result", `document.querySelector('li[data-game="7"] p').textContent.endsWith('ended 1-0 (no legal move)')`)
	w.GameStarted(8, "beta", "alpha", "ballot 1", engine.StartPosition())
	b.wait("the ended game to go", `!document.querySelector('li[data-game="7"]') && !!document.querySelector('li[data-game="8"]')`)
}

// TestBrowserWatchLateSnapshot has the page's snapshot taken before a game
// starts and delivered after the game's event: the page must still show
// the game, so the events that come before the snapshot wait for it.
func TestBrowserWatchLateSnapshot(t *testing.T) {
	exe := findChromium(t)
	b := newBrowser(t, exe)
	hold := &snapshotHold{taken: make(chan struct{}, 1), release: make(chan struct{})}
	w, url := startWatch(t, "", hold)
	b.do("load the watch page", chromedp.Navigate(url))
	b.wait("the event stream", `document.getElementById('status').textContent === 'Live'`)
	select {
	case <-hold.taken:
	case <-time.After(20 * time.Second):
		t.Fatal("the page asked for no snapshot")
	}
	w.GameStarted(7, "alpha", "beta", "ballot 1", engine.StartPosition())
	time.Sleep(500 * time.Millisecond) // the event reaches the page first
	close(hold.release)
	b.wait("the game's card", `(document.querySelector('li[data-game="7"] h3') || {}).textContent === 'Game 7: alpha (black) – beta (white)'`)
	if n := eval[int](b, `document.querySelectorAll('li[data-game="7"] [data-piece]').length`); n != 24 {
		t.Errorf("the start shows %d pieces, want 24", n)
	}
}

// snapshotHold makes a watch server take the page's snapshot at once, say
// so on taken, and send it only when release is closed.
type snapshotHold struct {
	taken   chan struct{}
	release chan struct{}
}

// startWatch serves a watch page with the given note and returns its
// server and the page's address with the token; hold (may be nil) holds
// the snapshot back.
func startWatch(t *testing.T, note string, hold *snapshotHold) (*Watch, string) {
	ts := httptest.NewUnstartedServer(nil)
	w, err := NewWatch(ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	w.note = note
	h := w.Handler()
	ts.Config.Handler = h
	if hold != nil {
		ts.Config.Handler = http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/api/watch" {
				h.ServeHTTP(rw, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			hold.taken <- struct{}{}
			<-hold.release
			for k, v := range rec.Header() {
				rw.Header()[k] = v
			}
			rw.WriteHeader(rec.Code)
			rw.Write(rec.Body.Bytes())
		})
	}
	ts.Start()
	t.Cleanup(func() {
		w.Close()
		ts.Close()
	})
	return w, ts.URL + "/?token=" + w.Token()
}
