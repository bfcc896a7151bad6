package client

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"

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
		mode string
		want error
	}{{"crash@1", ErrCrashed}, {"hang@1", ErrTimeout}} {
		e := fake(t, UCI, c.mode)
		_, err := e.Go(start, nil, Limits{Depth: 1}, 300*time.Millisecond)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.mode, err, c.want)
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

func TestHubNotation(t *testing.T) {
	start := engine.StartPosition()
	if got, want := HubPosition(&start), "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"; got != want {
		t.Errorf("HubPosition = %s, want %s", got, want)
	}
	p, err := engine.ParseFEN("W:W27,30:B23,15,K5")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMove(Hub, &p, "27x11x15x23")
	if err != nil {
		t.Fatal(err)
	}
	if m.String() != "27x18x11" || HubMove(m) != "27x11x15x23" {
		t.Errorf("hub capture read as %s, written %s", m, HubMove(m))
	}
	cmd, args := ParseHubLine(`info depth=3 pv="11-15 23-19" claim="win forced" flag`)
	want := map[string]string{"depth": "3", "pv": "11-15 23-19", "claim": "win forced", "flag": ""}
	if diff := cmp.Diff(want, args); cmd != "info" || diff != "" {
		t.Errorf("ParseHubLine: cmd %q (-want +got):\n%s", cmd, diff)
	}
	for men, cp := range map[float64]int{0.35: 35, -1.5: -150, 99.91: WinScore - 9, -99.9: -WinScore + 10} {
		if got := hubScore(men); got != cp {
			t.Errorf("hubScore(%v) = %d, want %d", men, got, cp)
		}
	}
}

// FuzzParseHubLine: the Hub line reader never panics, keys are never empty
// or hold a space, and a line written back from what it read reads the same.
func FuzzParseHubLine(f *testing.F) {
	f.Add(`info depth=3 pv="11-15 23-19" claim="win forced" flag`)
	f.Add(`done move=9x27x14x23 ponder=`)
	f.Add(`x a="unterminated`)
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\r\n") {
			return // the reader hands over single lines
		}
		cmd, args := ParseHubLine(line)
		var sb strings.Builder
		sb.WriteString(cmd)
		for k, v := range args {
			if k == "" {
				t.Fatalf("%q: key %q", line, k)
			}
			if strings.ContainsFunc(k, func(r rune) bool { return r == '"' || r == '=' || unicode.IsSpace(r) }) || strings.Contains(v, `"`) {
				return // not representable when written back
			}
			sb.WriteString(" " + k + "=" + hubQuote(v))
		}
		if strings.ContainsFunc(cmd, unicode.IsSpace) || strings.Contains(cmd, `"`) {
			return
		}
		cmd2, args2 := ParseHubLine(sb.String())
		if cmd2 != cmd || !cmp.Equal(args, args2) {
			t.Fatalf("%q read as %q %v, written %q, read back %q %v", line, cmd, args, sb.String(), cmd2, args2)
		}
	})
}
