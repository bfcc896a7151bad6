package search

import (
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// moverBias is material plus a bonus for the side it is asked for: an
// evaluator that is not antisymmetric, as untrained networks are not.
type moverBias struct{ rootView bool }

const moverBonus = 300

func (moverBias) Evaluate(p *engine.Position) int { return p.Material(100, 130) + moverBonus }
func (b moverBias) RootView() bool                { return b.rootView }

// TestRootViewCancelsOffset checks that a search judging leaves from the
// root player's side sees a side-dependent offset as one constant: it
// searches the same tree as the material evaluator, node for node, with
// the same move and the score shifted by the offset. Judged from the side
// to move (its own choice, or Options.MoverView), the same evaluator
// searches a different tree.
func TestRootViewCancelsOffset(t *testing.T) {
	positions := []string{
		"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
		"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,15",
		"B:W17,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
	}
	differs := false
	for _, fen := range positions {
		pos := mustFEN(t, fen)
		for depth := 1; depth <= 6; depth++ {
			want := depthSearch(t, New(Options{HashMB: 1}, nil), pos, depth)
			got := depthSearch(t, New(Options{HashMB: 1}, func() Evaluator { return moverBias{rootView: true} }), pos, depth)
			if got.Best != want.Best || got.Score != want.Score+moverBonus || got.Nodes != want.Nodes {
				t.Errorf("%s depth %d: root view gives move %v score %d nodes %d; material gives %v %d %d (score + %d expected)",
					fen, depth, got.Best, got.Score, got.Nodes, want.Best, want.Score, want.Nodes, moverBonus)
			}
			plain := depthSearch(t, New(Options{HashMB: 1}, func() Evaluator { return moverBias{} }), pos, depth)
			differs = differs || plain.Score != want.Score+moverBonus || plain.Nodes != want.Nodes
			// Options.MoverView overrides the evaluator's wish.
			mover := depthSearch(t, New(Options{HashMB: 1, MoverView: true}, func() Evaluator { return moverBias{rootView: true} }), pos, depth)
			if mover.Best != plain.Best || mover.Score != plain.Score || mover.Nodes != plain.Nodes {
				t.Errorf("%s depth %d: MoverView gives %v %d %d, the side to move's view %v %d %d",
					fen, depth, mover.Best, mover.Score, mover.Nodes, plain.Best, plain.Score, plain.Nodes)
			}
		}
	}
	if !differs {
		t.Error("judged from the side to move, the offset never changed the search: the test cannot tell the views apart")
	}
}
