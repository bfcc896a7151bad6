package selfplay

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// antiMaterial wants to lose material: it is material counting negated.
type antiMaterial struct{ eval.Material }

func (a antiMaterial) Evaluate(p *engine.Position) int { return -a.Material.Evaluate(p) }

func TestMatchStrongBeatsWeak(t *testing.T) {
	openings, err := books.Standard("3move")
	if err != nil {
		t.Fatal(err)
	}
	material := func() eval.Evaluator { return eval.Material{} }
	weak := func() eval.Evaluator { return antiMaterial{} }
	s, err := Match(context.Background(), material, weak, openings[:3], Config{Depth: 3}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if s.Games() != 6 || s.Pairs() != 3 || s.W < 5 {
		t.Errorf("material against its negation: %s, want at least 5 wins of 6", s)
	}
	back, err := Match(context.Background(), weak, material, openings[:3], Config{Depth: 3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s.Reversed(), back); diff != "" {
		t.Errorf("the match seen from the other side differs (-want +got):\n%s", diff)
	}
}

func TestPlayAdjudicatesAndEnds(t *testing.T) {
	// Black king against White king: nobody can win at depth 1, so the game
	// runs to the adjudication limit or a rule draw.
	p, _ := engine.ParseFEN("B:WK32:BK1")
	f := func() eval.Evaluator { return eval.Material{} }
	cfg := Config{Depth: 1}
	m := SearchMover(context.Background(), cfg.NewSearcher(f), 1)
	r := Play(context.Background(), engine.NewGame(p), m, m, 10)
	if r.Outcome != engine.Draw {
		t.Errorf("king against king: %s, want a draw", r)
	}
	// Black to move with no move loses at once.
	p, _ = engine.ParseFEN("B:W5,6,10:B1")
	if r := Play(context.Background(), engine.NewGame(p), m, m, 10); r.Outcome != engine.WhiteWins {
		t.Errorf("blocked Black: %s, want White to win", r)
	}
}

func TestRandomStart(t *testing.T) {
	openings := books.ThreeMove()
	for seed := range uint64(20) {
		g, err := RandomStart(openings, rand.New(rand.NewPCG(seed, 1)), 4)
		if err != nil {
			t.Fatal(err)
		}
		if g.Ply() < 3 || g.Ply() > 7 {
			t.Errorf("seed %d: %d plies, want 3 (the ballot) to 7", seed, g.Ply())
		}
		again, _ := RandomStart(openings, rand.New(rand.NewPCG(seed, 1)), 4)
		if cur, cur2 := g.Current(), again.Current(); !cur.SameBoard(&cur2) {
			t.Errorf("seed %d: two starts differ", seed)
		}
	}
}
