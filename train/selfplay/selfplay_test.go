package selfplay

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
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

func TestConfigPlaysAtItsDepthAndLength(t *testing.T) {
	// Black king against White king: nobody can win at depth 1, so the game
	// runs to the adjudication limit or a rule draw.
	p, _ := engine.ParseFEN("B:WK32:BK1")
	cfg := Config{Depth: 1, MaxPlies: 10}
	m := cfg.Player(cfg.NewSearcher(func() eval.Evaluator { return eval.Material{} }))
	g := engine.NewGame(p)
	if r := play.Play(context.Background(), g, m, m, cfg.Rules()); r.Outcome != engine.Draw || g.Ply() > 10 {
		t.Errorf("king against king: %s after %d plies, want a draw within 10", r, g.Ply())
	}
	if m.Last.Depth != 1 {
		t.Errorf("searched to depth %d, want 1", m.Last.Depth)
	}
	if (Config{}).Rules().MaxPlies != DefaultMaxPlies {
		t.Errorf("the zero Config adjudicates after %d plies, want %d", (Config{}).Rules().MaxPlies, DefaultMaxPlies)
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
