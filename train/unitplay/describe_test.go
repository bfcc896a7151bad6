package unitplay

import (
	"math/rand/v2"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	blondienet "github.com/nechecb/nechecb/eval/blondie"
	cnnnet "github.com/nechecb/nechecb/eval/cnn"
	"github.com/nechecb/nechecb/eval/heuristic"
	necheeval "github.com/nechecb/nechecb/eval/neche"
	"github.com/nechecb/nechecb/internal/workunit"
)

// TestDescribedEvaluatorsLoadTheSame describes an evaluator of each kind
// that can travel, loads the description as a worker does, and checks that
// both give the same values on positions of random games.
func TestDescribedEvaluatorsLoadTheSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	w := heuristic.DefaultWeights()
	w.Opening[0] += 0.5
	tuned := heuristic.NewModel(w)
	bnet, err := blondienet.Compile(blondienet.Random(blondienet.Arch1999, rng))
	if err != nil {
		t.Fatal(err)
	}
	var cw cnnnet.Weights
	for i := range cw {
		cw[i] = rng.Float64() - 0.5
	}
	evaluators := map[string]eval.Evaluator{
		"material":          eval.Material{},
		"heuristic":         heuristic.NewEvaluator(heuristic.NewModel(heuristic.DefaultWeights())),
		"heuristic (tuned)": heuristic.NewEvaluator(tuned),
		"neche":             necheeval.Compile(necheeval.G1()),
		"blondie":           bnet,
		"cnn":               cnnnet.New(&cw),
	}
	var positions []engine.Position
	for range 20 {
		g := engine.NewGame(engine.StartPosition())
		for range 30 {
			cur := g.Current()
			moves := cur.LegalMoves()
			if len(moves) == 0 {
				break
			}
			g.Play(moves[rng.IntN(len(moves))])
		}
		positions = append(positions, g.Current())
	}
	x := newExecutor(t)
	for name, ev := range evaluators {
		d, ok := ev.(eval.Describer)
		if !ok {
			t.Errorf("%s: not a Describer", name)
			continue
		}
		kind, sel, data := d.Describe()
		f, err := x.load(&workunit.Evaluator{Kind: kind, Selector: sel, Data: data})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		back := f()
		for i := range positions {
			p := &positions[i]
			if a, b := ev.Raw(p), back.Raw(p); a != b {
				t.Errorf("%s: position %s: %v described, %v loaded", name, p.FEN(), a, b)
				break
			}
		}
	}
	if d, ok := evaluators["heuristic"].(eval.Describer); ok {
		if _, _, data := d.Describe(); data != nil {
			t.Errorf("the default heuristic travels with a file")
		}
	}
}
