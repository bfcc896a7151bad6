package match

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/testbin"
	"github.com/nechecb/nechecb/protocol/client"
)

// TestRealEngines plays two real nechecb processes (one in each dialect)
// over a few ballots at a fixed depth, kills one of them in the middle of
// the first game, and checks that the game is recorded as its loss, that
// the match goes on with a restarted engine, and that the PDN reads back
// and adds up.
func TestRealEngines(t *testing.T) {
	bin := testbin.Build(t)
	path := filepath.Join(t.TempDir(), "real.pdn")
	killed := ""
	cfg := Config{
		Engines: []client.Config{
			{Name: "uci", Command: []string{bin, "protocol"}, Options: []client.Option{{Name: "Hash", Value: "1"}}},
			{Name: "hub", Command: []string{bin, "protocol"}, Dialect: client.Hub, Options: []client.Option{{Name: "Hash", Value: "1"}}},
		},
		Openings: ballotOpenings(t, 3), Limits: Limits{Depth: 3}, MaxMoves: 60, Timeout: 20 * time.Second, PDN: path,
	}
	if testing.Short() {
		cfg.Openings = cfg.Openings[:1]
	}
	cfg.Hooks.AfterMove = func(s *Scheduled, g *engine.Game, nextPID int) {
		if s.Index == 1 && g.Ply() == 6 && killed == "" {
			next := s.Black
			if g.Current().Side == engine.White {
				next = s.White
			}
			killed = cfg.Engines[next].Name
			p, err := os.FindProcess(nextPID)
			if err == nil {
				err = p.Kill()
			}
			if err != nil {
				t.Errorf("killing %d: %v", nextPID, err)
			}
		}
	}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Played != sum.Total || sum.Total != 2*len(cfg.Openings) {
		t.Fatalf("played %d of %d", sum.Played, sum.Total)
	}
	games := checkRecord(t, path, sum)
	first := games[0]
	loser := first.Tag("Black")
	if first.Result() == "1-0" {
		loser = first.Tag("White")
	}
	if !strings.Contains(first.Tag("Termination"), "crashed") || loser != killed || first.Record.Ply() != 6 {
		t.Errorf("first game: %s after %d plies, lost by %s; killed %s", first.Tag("Termination"), first.Record.Ply(), loser, killed)
	}
	for _, g := range games[1:] {
		if strings.Contains(g.Tag("Termination"), "crash") || g.Record.Ply() < 10 {
			t.Errorf("game %s: %s after %d plies", g.Tag("Round"), g.Tag("Termination"), g.Record.Ply())
		}
	}
	if len(sum.Faults) != 1 {
		t.Errorf("faults %q, want the one kill", sum.Faults)
	}
}

// TestNodeLimitedGamesRepeat plays the same node-limited games twice, one
// engine in each dialect, and checks that both runs record the same moves:
// a node budget, unlike a move time, does not depend on the machine's load.
func TestNodeLimitedGamesRepeat(t *testing.T) {
	bin := testbin.Build(t)
	var records [2][]string
	for run := range records {
		path := filepath.Join(t.TempDir(), "nodes.pdn")
		cfg := Config{
			Engines: []client.Config{
				{Name: "uci", Command: []string{bin, "protocol"}, Options: []client.Option{{Name: "Hash", Value: "1"}}},
				{Name: "hub", Command: []string{bin, "protocol"}, Dialect: client.Hub, Options: []client.Option{{Name: "Hash", Value: "1"}}},
			},
			Openings: ballotOpenings(t, 1), Limits: Limits{Nodes: 3000}, MaxMoves: 40, Timeout: 20 * time.Second, PDN: path,
		}
		sum, err := Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range checkRecord(t, path, sum) {
			if g.Record.Ply() < 10 {
				t.Errorf("run %d: a game of %d plies (%s)", run, g.Record.Ply(), g.Tag("Termination"))
			}
			records[run] = append(records[run], fmt.Sprint(g.Record.Moves()))
		}
	}
	if strings.Join(records[0], "\n") != strings.Join(records[1], "\n") {
		t.Errorf("node-limited games differ between runs:\n%s\n%s", records[0], records[1])
	}
}
