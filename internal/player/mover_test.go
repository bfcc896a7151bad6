package player

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
)

// TestBeatsRandomPlayer is what is left of the strength matches as a test:
// the engine at a small fixed depth, with the default evaluator, wins every
// game against the 1-ply random player, from ballots spread over the
// 3-move list and with both colours.
func TestBeatsRandomPlayer(t *testing.T) {
	ballots, err := books.Standard("3move")
	if err != nil {
		t.Fatal(err)
	}
	e, err := Load(Options{HashMB: 4, Threads: 1}, "heuristic")
	if err != nil {
		t.Fatal(err)
	}
	const n = 6
	for i := range n {
		ballot := ballots[i*len(ballots)/n]
		for _, c := range []engine.Color{engine.Black, engine.White} {
			g, err := ballot.Play()
			if err != nil {
				t.Fatal(err)
			}
			e.Clear()
			var black, white play.Player = &Mover{Engine: e, Limits: Limits{Depth: 3}}, play.Random(rand.New(rand.NewPCG(uint64(i), uint64(c))))
			if c == engine.White {
				black, white = white, black
			}
			r := play.Play(context.Background(), g, black, white, play.Rules{MaxPlies: 300})
			if r.Outcome != engine.WinFor(c) {
				t.Errorf("ballot %s, engine %s: %v after %d plies; the engine must win", ballot.Name, c, r, g.Ply())
			}
		}
	}
}

// A loop that keeps its engines and game record (Game.Reset) and shares
// the search's line (SharePV) plays whole games without allocating: the
// training games run thousands of them.
func TestGameLoopDoesNotAllocate(t *testing.T) {
	opts := Options{HashMB: 1, Threads: 1, RandomTies: true, SharePV: true}
	a, b := New(opts, nil, "a"), New(opts, nil, "b")
	black, white := &Mover{Engine: a, Limits: Limits{Depth: 3}}, &Mover{Engine: b, Limits: Limits{Depth: 3}}
	g := engine.NewGame(engine.StartPosition())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seed := uint64(0)
	game := func() {
		seed++
		opts.Seed = seed
		a.SetOptions(opts)
		b.SetOptions(opts)
		a.Clear()
		b.Clear()
		g.Reset(engine.StartPosition())
		play.Play(ctx, g, black, white, play.Rules{MaxPlies: 120})
	}
	for range 5 {
		game() // the first games size the reused storage
	}
	allocs := testing.AllocsPerRun(5, game)
	if allocs != 0 {
		t.Errorf("a game allocates %v times, want 0", allocs)
	}
	if g.Ply() == 0 {
		t.Error("no moves were played")
	}
}
