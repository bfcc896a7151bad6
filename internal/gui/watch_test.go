package gui_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/gui"
	"github.com/nechecb/nechecb/match"
	"github.com/nechecb/nechecb/protocol/client"
	"github.com/nechecb/nechecb/protocol/client/fakeengine"
)

// TestMain lets the test binary stand in for an engine (the fake engine of
// protocol/client) when the match runner starts it, and removes the
// browser tests' shared export after the tests.
func TestMain(m *testing.M) {
	fakeengine.Main()
	code := m.Run()
	gui.RemoveSharedSite()
	os.Exit(code)
}

// watchSnapshot is the part of GET /api/watch the test reads.
type watchSnapshot struct {
	Games []struct {
		Index  int      `json:"index"`
		Black  string   `json:"black"`
		Ply    int      `json:"ply"`
		FEN    string   `json:"fen"`
		Pieces []string `json:"pieces"`
		Result string   `json:"result"`
	} `json:"games"`
	Table []string `json:"table"`
	SPRT  string   `json:"sprt"`
	Over  bool     `json:"over"`
	Note  string   `json:"note"`
}

// TestWatchMatch plays a tiny match of two fake engines with the watch
// page's server as its observer, and checks what a page gets: the moves of
// a game on the event stream, the final table and SPRT line in the
// snapshot, and a 403 for a request without the token or with another
// Host.
func TestWatchMatch(t *testing.T) {
	openings, err := match.LoadOpenings("3move", false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sprt, err := match.ParseSPRT("elo0=0 elo1=10 alpha=0.05 beta=0.05")
	if err != nil {
		t.Fatal(err)
	}
	fake := func(name string) client.Config {
		return client.Config{Name: name, Command: []string{os.Args[0]}, Env: []string{fakeengine.EnvVar + "="}}
	}
	cfg := match.Config{
		Engines:  []client.Config{fake("alpha"), fake("beta")},
		Openings: openings[:1], Limits: match.Limits{Depth: 1}, MaxMoves: 15, Timeout: 10 * time.Second,
		Concurrency: 1, SPRT: sprt,
	}
	var out bytes.Buffer
	var events []string
	var snap watchSnapshot
	err = gui.WatchMatch(gui.Options{Addr: "127.0.0.1:0", Out: &out, Err: io.Discard}, func(w *gui.Watch) error {
		page := strings.TrimSpace(strings.TrimPrefix(out.String(), "nechecb match: "))
		base := strings.TrimSuffix(page, "/?token="+w.Token())
		if base == page {
			t.Fatalf("printed %q, not the page's address with its token", out.String())
		}
		checkRefusals(t, base, w.Token())
		lines := readEvents(t, base+"/events?token="+w.Token())
		cfg.Observer = w
		if _, err := match.Run(context.Background(), cfg, nil); err != nil {
			return err
		}
		events = drain(lines, func(got []string) bool { return strings.Contains(strings.Join(got, "\n"), "2 of 2 games played") })
		getJSON(t, base+"/api/watch?token="+w.Token(), &snap)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	stream := strings.Join(events, "\n")
	for _, want := range []string{"event: game", `"ply":1,`, `"ply":2,`, `"black":"alpha"`, "event: standings", `"result":"`} {
		if !strings.Contains(stream, want) {
			t.Errorf("the event stream lacks %q:\n%.2000s", want, stream)
		}
	}
	table := strings.Join(snap.Table, "\n")
	if !strings.Contains(table, "alpha vs beta") || !strings.Contains(table, "2 of 2 games played") || !strings.HasPrefix(snap.SPRT, "SPRT elo0=0 elo1=10") {
		t.Errorf("snapshot table:\n%s\nSPRT %q", table, snap.SPRT)
	}
	if len(snap.Games) != 1 || snap.Games[0].Index != 2 || snap.Games[0].Result == "" || snap.Games[0].Ply == 0 || len(snap.Games[0].Pieces) != 33 {
		t.Errorf("snapshot games: %+v", snap.Games)
	}
}

// checkRefusals checks that the watch server refuses a request without the
// token, with a wrong one, and with a Host that is not its address.
func checkRefusals(t *testing.T, base, token string) {
	t.Helper()
	for _, c := range []struct{ path, host string }{
		{"/api/watch", ""}, {"/?token=" + strings.Repeat("0", len(token)), ""}, {"/events", ""},
		{"/api/watch?token=" + token, "evil.example:80"},
	} {
		req, err := http.NewRequest("GET", base+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.host != "" {
			req.Host = c.host
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s (Host %q): status %d, want 403", c.path, c.host, res.StatusCode)
		}
	}
}

// readEvents opens the event stream at u and sends its lines on the
// channel returned, once the server has greeted it (so that no event of
// the match is missed).
func readEvents(t *testing.T, u string) <-chan string {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /events: status %d", res.StatusCode)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() || sc.Text() != ": hello" {
		t.Fatalf("the event stream begins with %q", sc.Text())
	}
	lines := make(chan string, 4096)
	go func() {
		defer res.Body.Close()
		defer close(lines)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return lines
}

// drain collects lines until done says the collection is complete, the
// stream ends, or 10 seconds pass.
func drain(lines <-chan string, done func([]string) bool) []string {
	var got []string
	timeout := time.After(10 * time.Second)
	for !done(got) {
		select {
		case l, ok := <-lines:
			if !ok {
				return got
			}
			got = append(got, l)
		case <-timeout:
			return got
		}
	}
	return got
}

// getJSON fetches u and decodes its JSON answer into v.
func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d", u, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// TestWatchFleetNote: the watch page of a match on a fleet says that its
// games show only when they end; another says nothing.
func TestWatchFleetNote(t *testing.T) {
	for _, fleet := range []bool{false, true} {
		var out bytes.Buffer
		var snap watchSnapshot
		err := gui.WatchMatch(gui.Options{Addr: "127.0.0.1:0", Out: &out, Err: io.Discard, Fleet: fleet}, func(w *gui.Watch) error {
			page := strings.TrimSpace(strings.TrimPrefix(out.String(), "nechecb match: "))
			getJSON(t, page[:strings.Index(page, "/?token=")]+"/api/watch?token="+w.Token(), &snap)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(snap.Note, "played on a fleet") && strings.Contains(snap.Note, "only when it ends"); got != fleet {
			t.Errorf("fleet %v: the page's note is %q", fleet, snap.Note)
		}
	}
}
