// Package heuristic owns the hand-coded heuristic evaluator: a weighted sum
// of checkers features (the seed's ten plus the terms strong engines use),
// each counted as own minus opponent's, with an opening and an endgame weight
// set blended by the number of pieces on the board. It also owns the weight
// file format and the embedded default weights. The tuners live in
// train/tune.
//
// Spec forms: "heuristic" (the embedded default weights) and
// "heuristic:PATH" (a weight file).
//
// Score scale: the raw value is the weighted sum itself, on the engine's
// scale (the tuned weights give a man in the opening 100); the score is the
// raw value rounded and clamped to ±eval.ScoreLimit.
package heuristic

import (
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// maxPieces is the number of pieces at the start, where the opening weights
// apply in full.
const maxPieces = 24

// fixedShift sets the fixed-point form of the blended weights: integer dot
// products are faster than floating-point ones, and 2^-20 is far finer than
// any weight needs. With |weight| ≤ MaxWeight and counts below 256 the sum
// stays far inside int64.
const fixedShift = 20

// fixedOne is 1.0 in fixed point.
const fixedOne = 1 << fixedShift

// Model is a loaded weight set, ready to evaluate: the blended weights for
// every piece count, with the feature scales folded in, in fixed point. It
// is read-only and shared by every Evaluator made from it.
type Model struct {
	weights Weights
	blend   [maxPieces + 1][NumFeatures]int64
}

// NewModel prepares w for evaluation.
func NewModel(w Weights) *Model {
	m := &Model{weights: w}
	for n := 0; n <= maxPieces; n++ {
		t := BlendFactor(n)
		for i := range NumFeatures {
			m.blend[n][i] = int64(math.Round((t*w.Opening[i] + (1-t)*w.Endgame[i]) * featureScale[i] * fixedOne))
		}
	}
	return m
}

// Weights returns the model's weights.
func (m *Model) Weights() Weights { return m.weights }

// BlendFactor returns the share of the opening weights for a position with n
// pieces on the board (the endgame weights get the rest): n/24, capped at 1.
func BlendFactor(n int) float64 { return float64(min(n, maxPieces)) / maxPieces }

// Evaluator evaluates positions with a Model. It keeps no state, so one
// value may serve several goroutines; the Factory still makes one per thread.
type Evaluator struct {
	m *Model
}

// NewEvaluator returns an evaluator using m.
func NewEvaluator(m *Model) *Evaluator { return &Evaluator{m: m} }

// Raw returns the weighted feature sum for the side to move. The blended
// weights are rounded to multiples of 2^-20 (see fixedOne).
func (e *Evaluator) Raw(p *engine.Position) float64 {
	return float64(e.fixedSum(p)) / fixedOne
}

// fixedSum returns the weighted feature sum in fixed point.
func (e *Evaluator) fixedSum(p *engine.Position) int64 {
	side := p.Side & 1
	own, opp := p.Pieces[side]&engine.BoardMask, p.Pieces[side^1]&engine.BoardMask
	kings := p.Kings & engine.BoardMask
	w := &e.m.blend[min(bits.OnesCount64(own|opp), maxPieces)]
	return sideSum(w, &frames[side], own, opp, kings) - sideSum(w, &frames[side^1], opp, own, kings)
}

// Evaluate returns the raw value rounded (halves upward) and clamped to
// ±eval.ScoreLimit.
func (e *Evaluator) Evaluate(p *engine.Position) int {
	return eval.Clamp(int((e.fixedSum(p) + fixedOne/2) >> fixedShift))
}

// load builds a Factory from the path of a "heuristic" evaluator spec: the
// embedded default weights when path is empty, else the weight file at path.
func load(path, selector string) (eval.Factory, error) {
	if selector != "" {
		return nil, fmt.Errorf("heuristic takes no selector (got #%s)", selector)
	}
	w := DefaultWeights()
	if path != "" {
		var err error
		if w, err = ReadFile(path); err != nil {
			return nil, err
		}
	}
	m := NewModel(w)
	return func() eval.Evaluator { return NewEvaluator(m) }, nil
}

func init() { eval.Register("heuristic", load) }

// defaultWeights keeps the embedded weights, parsed once, for Describe.
var defaultWeights = sync.OnceValue(DefaultWeights)

// Describe returns the evaluator as the kind "heuristic": with no file when
// its weights are the embedded defaults, else with its weight file.
func (e *Evaluator) Describe() (kind, selector string, data []byte) {
	if e.m.weights == defaultWeights() {
		return "heuristic", "", nil
	}
	w := e.m.weights
	return "heuristic", "", w.Format("")
}
