package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/testbin"
	"github.com/nechecb/nechecb/protocol/client"
)

// TestMatchBetweenTwoProcesses plays a game between two nechecb processes
// driven only through the protocol, as a GUI would: one speaks the UCI-like
// dialect through "nechecb protocol", the other the Hub dialect through a
// bare "nechecb" whose stdin is a pipe. Every move must be legal; the game
// ends by the rules or at the ply bound.
func TestMatchBetweenTwoProcesses(t *testing.T) {
	bin := testbin.Build(t)
	depth, maxPlies := 6, 300
	if testing.Short() {
		depth, maxPlies = 3, 40
	}
	start := func(name string, d client.Dialect, args ...string) *client.Engine {
		e, err := client.Start(client.Config{
			Name: name, Command: append([]string{bin}, args...), Dialect: d, Timeout: 10 * time.Second,
			Options: []client.Option{{Name: "Hash", Value: "8"}, {Name: "Eval", Value: "heuristic"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.Kill)
		if err := e.NewGame(); err != nil {
			t.Fatal(err)
		}
		return e
	}
	players := [2]*client.Engine{
		engine.Black: start("uci", client.UCI, "protocol"),
		engine.White: start("hub", client.Hub),
	}
	dialects := [2]client.Dialect{engine.Black: client.UCI, engine.White: client.Hub}
	g := engine.NewGame(engine.StartPosition())
	var last client.Reply
	for g.Result().Outcome == engine.Ongoing && g.Ply() < maxPlies {
		side := g.Current().Side
		r, err := players[side].Go(g.Start(), g.Moves(), client.Limits{Depth: depth}, 30*time.Second)
		if err != nil {
			t.Fatalf("ply %d (%s): %v", g.Ply()+1, players[side].Name(), err)
		}
		cur := g.Current()
		m, err := client.ParseMove(dialects[side], &cur, r.Move)
		if err != nil {
			t.Fatalf("ply %d (%s): %v", g.Ply()+1, players[side].Name(), err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("ply %d: %v", g.Ply()+1, err)
		}
		last = r
	}
	res := g.Result()
	t.Logf("%d plies, %s; last claim %q", g.Ply(), res, last.Claim)
	switch res.Outcome {
	case engine.Ongoing:
		if g.Ply() != maxPlies {
			t.Fatalf("stopped at ply %d", g.Ply())
		}
	case engine.Draw:
		if last.Claim != "draw "+res.Reason {
			t.Errorf("the drawing move came with claim %q, want %q", last.Claim, "draw "+res.Reason)
		}
	default:
		// The loser is asked to move and must say it has none.
		side := g.Current().Side
		r, err := players[side].Go(g.Start(), g.Moves(), client.Limits{Depth: 1}, 10*time.Second)
		if err != nil || r.Move != "" || r.Claim != "loss no legal move" {
			t.Errorf("the loser answered %+v, %v; want no move and a loss claim", r, err)
		}
	}
	for _, p := range players {
		p.Close()
	}
}

// TestProtocolCommandLine checks the flags of nechecb protocol and the
// opening book wiring.
func TestProtocolCommandLine(t *testing.T) {
	bin := testbin.Build(t)
	book := filepath.Join(t.TempDir(), "one.book")
	b := books.New()
	start := engine.StartPosition()
	m, err := start.ParseMove("10-14")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Set(books.Entry{Position: start, Count: 1, Moves: []books.MoveEntry{{Move: m, Weight: 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(book, false); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args   []string
		input  string
		status int
		stdout string // a line the output must hold
		stderr string
	}{
		{[]string{"protocol", "--option", "Eval=heuristic"}, "eval\n", 0, "info string eval heuristic raw ", ""},
		{[]string{"--option", "MultiPV=2"}, "go depth 2\n", 0, "info depth 2 seldepth", ""},
		{[]string{"uci", "--option", "Hash=0"}, "", 2, "", "nechecb protocol: --option Hash=0: option Hash: 0 is outside 1..4096"},
		{[]string{"hub", "--option", "Hash"}, "", 2, "", `"Hash" is not Name=Value`},
		{[]string{"protocol", "extra"}, "", 2, "", `unexpected argument "extra"`},
		{[]string{"protocol", "--option", "Book=3", "--option", "BookFile=" + book}, "go depth 5\n", 0, "info string book move 10-14\nbestmove 10-14\n", ""},
		// A value the setter refuses is bad input too, like one out of range.
		{[]string{"protocol", "--option", "Book=1", "--option", "BookFile=" + bin}, "go depth 1\n", 2, "", "--option BookFile=" + bin + ": option BookFile: " + bin + ": not a nechecb book"},
		{[]string{"protocol", "--option", "Eval=missing"}, "", 2, "", `--option Eval=missing: option Eval: unknown evaluator "missing"`},
		{[]string{"protocol", "--option", "DBPath=/no/such/db"}, "", 2, "", "--option DBPath=/no/such/db: option DBPath: "},
	}
	for _, c := range cases {
		cmd := exec.Command(bin, c.args...)
		cmd.Stdin = strings.NewReader(c.input)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != c.status || !strings.Contains(stdout.String(), c.stdout) || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("nechecb %q: status %d, stdout %q, stderr %q", c.args, status, stdout.String(), stderr.String())
		}
	}
}
