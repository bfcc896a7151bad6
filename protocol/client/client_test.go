package client

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/protocol/client/fakeengine"
)

func TestMain(m *testing.M) {
	fakeengine.Main()
	os.Exit(m.Run())
}

func fake(t *testing.T, d Dialect, mode string, opts ...Option) *Engine {
	t.Helper()
	e, err := Start(Config{Name: "fake", Command: []string{os.Args[0]}, Env: []string{fakeengine.EnvVar + "=" + mode}, Dialect: d, Options: opts, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Kill)
	return e
}

// TestPlayBothDialects plays a few moves through each dialect and checks
// that the moves come back legal and the score is read.
func TestPlayBothDialects(t *testing.T) {
	for _, d := range []Dialect{UCI, Hub} {
		e := fake(t, d, "ok", Option{"Eval", "material"})
		if err := e.NewGame(); err != nil {
			t.Fatal(err)
		}
		g := engine.NewGame(engine.StartPosition())
		for i := 0; i < 30 && g.Result().Outcome == engine.Ongoing; i++ {
			r, err := e.Go(g.Start(), g.Moves(), Limits{Depth: 1}, 5*time.Second)
			if err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			cur := g.Current()
			m, err := ParseMove(d, &cur, r.Move)
			if err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			if !r.HasScore {
				t.Errorf("%s: no score read", d)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if g.Ply() < 10 {
			t.Errorf("%s: only %d plies", d, g.Ply())
		}
		e.Close()
	}
}

func TestFaults(t *testing.T) {
	start := engine.StartPosition()
	for _, c := range []struct {
		mode   string
		want   error
		prefix string // how the message starts
	}{{"crash@1", ErrCrashed, "engine crashed while waiting for move"}, {"hang@1", ErrTimeout, "engine hung: no move within "}} {
		e := fake(t, UCI, c.mode)
		_, err := e.Go(start, nil, Limits{Depth: 1}, 300*time.Millisecond)
		if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), c.prefix) {
			t.Errorf("%s: error %v, want %v starting %q", c.mode, err, c.want, c.prefix)
		}
	}
	e := fake(t, UCI, "garbage@1")
	r, err := e.Go(start, nil, Limits{Depth: 1}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseMove(UCI, &start, r.Move); err == nil {
		t.Errorf("garbage move %q parsed", r.Move)
	}
	_, err = Start(Config{Name: "fake", Command: []string{os.Args[0]}, Env: []string{fakeengine.EnvVar + "=ok"}, Options: []Option{{"Bad", "1"}}})
	if err == nil || !strings.Contains(err.Error(), "refused an option") {
		t.Errorf("bad option: error %v", err)
	}
}

func TestHubReplies(t *testing.T) {
	p, err := engine.ParseFEN("W:W27,30:B23,15,K5")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMove(Hub, &p, "27x11x15x23")
	if err != nil || m.String() != "27x18x11" {
		t.Errorf("hub capture read as %s, %v", m, err)
	}
	var r Reply
	for _, l := range []string{`info depth=3 score=0.35 pv="11-15 23-19"`, `info claim="win forced win in 9 plies"`, `info bad="unterminated`} {
		if done, err := parseHubLine(l, &r); done || err != nil {
			t.Errorf("%q: done %v, error %v", l, done, err)
		}
	}
	if done, _ := parseHubLine("done move=9x27x14x23 ponder=1-5", &r); !done {
		t.Error("done not recognised")
	}
	want := Reply{Move: "9x27x14x23", Score: 35, HasScore: true, Claim: "win forced win in 9 plies"}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
	for men, cp := range map[float64]int{0.35: 35, -1.5: -150, 99.91: WinScore - 9, -99.9: -WinScore + 10} {
		if got := hubScore(men); got != cp {
			t.Errorf("hubScore(%v) = %d, want %d", men, got, cp)
		}
	}
}
