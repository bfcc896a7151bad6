package gui

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

// The browser-against-native match of TestSiteMatch: its game pairs and
// the time a move of both sides.
var (
	matchPairs = flag.Int("site-match-pairs", 10, "TestSiteMatch: openings (3-move ballots), each played with both colours")
	matchMs    = flag.Int("site-match-ms", 200, "TestSiteMatch: milliseconds a move, for both engines")
)

// TestSiteMatch plays the engine of the exported site, in headless
// Chromium's worker, against the same engine native in this process, at
// the same time a move, the pattern evaluator and the same hash size,
// with each 3-move ballot played twice, colours reversed. The page's
// back end keeps the game and plays the browser's side; the native side
// plays its moves through the page's API. A measurement:
//
//	go test ./internal/gui -run TestSiteMatch -v -site-measure -site-match-pairs 10 -site-match-ms 200
func TestSiteMatch(t *testing.T) {
	if !*measure {
		t.Skip("a measurement: run with -site-measure")
	}
	b := openSite(t, 4*time.Hour).browser
	sess, err := session.New(session.Config{Defaults: browserDefaults("pattern")})
	if err != nil {
		t.Fatal(err)
	}
	sess.Ready()
	var tally elo.Tally
	ballots := books.ThreeMove()
	for i := range min(*matchPairs, len(ballots)) {
		pair := 0
		for _, browserBlack := range []bool{true, false} {
			half := siteGame(t, b, sess.Engine(), ballots[i].Name, browserBlack)
			tally.Add(half)
			pair += half
		}
		tally.AddPair(pair)
		e, lo, hi := tally.Elo()
		t.Logf("after %s: browser %s, Elo %s %s", ballots[i].Name, tally, elo.FormatElo(e), elo.FormatInterval(lo, hi))
	}
}

// siteState is the part of the page's state the match reads.
type siteState struct {
	Side  string `json:"side"`
	Moves []struct {
		Full string `json:"full"`
	} `json:"moves"`
}

// siteCall calls the page's back end through the page's own transport
// and decodes the answer into out (when not nil).
func siteCall(t *testing.T, b *browser, path string, body any, out any) {
	t.Helper()
	arg := "undefined"
	if body != nil {
		data, _ := json.Marshal(body)
		arg = string(data)
	}
	text, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(
		`import('./assets/api.js').then(m => m.call(%q, %s)).then(v => JSON.stringify(v))`, path, arg), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
}

// siteGame plays one game from a ballot, the browser's engine Black or
// White, and returns the browser's half-points.
func siteGame(t *testing.T, b *browser, native *player.Engine, ballot string, browserBlack bool) int {
	t.Helper()
	ms := *matchMs
	siteCall(t, b, "/api/engine", map[string]any{"black": false, "white": false,
		"level": map[string]any{"kind": "movetime", "movetimeMs": ms, "depth": 8, "clockS": 300, "incS": 2}}, nil)
	siteCall(t, b, "/api/new", map[string]string{"ballot": ballot}, nil)
	siteCall(t, b, "/api/engine", map[string]any{"black": browserBlack, "white": !browserBlack,
		"level": map[string]any{"kind": "movetime", "movetimeMs": ms, "depth": 8, "clockS": 300, "incS": 2}}, nil)
	browser := engine.White
	if browserBlack {
		browser = engine.Black
	}
	var st siteState
	for plies := 0; ; plies++ {
		siteCall(t, b, "/api/state", nil, &st)
		positions := []engine.Position{engine.StartPosition()}
		for _, m := range st.Moves {
			p := positions[len(positions)-1]
			mv, err := p.ParseMove(m.Full)
			if err != nil {
				t.Fatalf("the page's move %s: %v", m.Full, err)
			}
			positions = append(positions, p.Play(mv))
		}
		pos := positions[len(positions)-1]
		if r := engine.ResultOf(positions); r.Outcome != engine.Ongoing {
			half := 1
			if r.Outcome == engine.WinFor(browser) {
				half = 2
			} else if r.Outcome == engine.WinFor(browser.Opponent()) {
				half = 0
			}
			t.Logf("%s, browser %s: %s after %d plies", ballot, sideName(browser), r, len(st.Moves))
			return half
		}
		if pos.Side == browser {
			time.Sleep(50 * time.Millisecond) // the browser is thinking
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		r := native.Search(ctx, pos, positions[:len(positions)-1], player.Limits{MoveTime: time.Duration(ms) * time.Millisecond}, nil)
		cancel()
		if !r.HasMove {
			t.Fatalf("the native engine found no move in %s", pos.FEN())
		}
		siteCall(t, b, "/api/play", map[string][]string{"moves": {r.Best.String()}}, nil)
	}
}
