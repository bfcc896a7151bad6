// Package pattern owns the pattern evaluator: a learned evaluation in the
// manner of Othello's Logistello and draughts' Scan. The board, seen from
// the side to move, is covered by 25 overlapping 4×4 windows of 8 dark
// squares each; each window's pieces, by colour, index a table of 3^8
// weights. Global
// terms (men, kings, runaway men, sole kings) and a weight per king square
// complete it. There are two weight sets, one for the opening and one for
// the endgame, blended by the number of pieces. An evaluation is 25 table
// lookups and a few counts; it holds no state between positions.
//
// The package also owns the weight file format (file.go) and the embedded
// default weights, trained by nechecb's own tools (train/patterntrain on
// positions from train/datagen).
//
// Spec forms: "pattern" (the embedded weights) and "pattern:PATH".
//
// Score scale: the weights are integers in 1/Scale centipawns; the raw value
// is the blended sum in centipawns, and the score is that value rounded
// (halves upward) and clamped to ±eval.ScoreLimit.
package pattern

import (
	"bytes"
	_ "embed"
	"fmt"
	"math/bits"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// Weights are a model's weights: NumParams integers laid out by Param, in
// units of 1/Scale centipawns, and a free-text note saying where they came
// from.
type Weights struct {
	// Scale is the number of weight units in a centipawn.
	Scale int
	// W holds the weights, NumParams of them.
	W []int16
	// Note says how the weights were made.
	Note string
}

// Value returns the value of the features f with w, in centipawns (the
// same sum Evaluator computes, as a float): the trainer's check.
func (w *Weights) Value(f *Features) float64 {
	var sum [NumPhases]int64
	for ph := range NumPhases {
		s := int64(0)
		for i, idx := range f.Windows {
			s += int64(w.W[Param(i*WindowStates+int(idx), ph)])
		}
		for g, x := range f.Globals {
			s += int64(x) * int64(w.W[Param(GlobalsOffset+g, ph)])
		}
		for k := f.OwnKings; k != 0; k &= k - 1 {
			s += int64(w.W[Param(KingsOffset+bits.TrailingZeros32(k), ph)])
		}
		for k := f.OppKings; k != 0; k &= k - 1 {
			s += int64(w.W[Param(KingsOffset+32+bits.TrailingZeros32(k), ph)])
		}
		sum[ph] = s
	}
	total := sum[0]*int64(f.Opening) + sum[1]*int64(PhaseSpan-f.Opening)
	return float64(total) / float64(PhaseSpan*w.Scale)
}

//go:embed default.pat
var defaultFile []byte

// DefaultName is how messages name the embedded weights.
const DefaultName = "default.pat (embedded)"

// Default returns the embedded default weights.
func Default() *Weights {
	w, err := Read(bytes.NewReader(defaultFile), DefaultName)
	if err != nil {
		panic("pattern: embedded weights are broken: " + err.Error())
	}
	return w
}

// Evaluator evaluates positions with a set of weights. It keeps no state
// between calls.
type Evaluator struct {
	t     *table
	scale int64
}

// table holds a model's weights for the evaluator: the two phases of each
// term packed into one int32, phase 0 in the low 16 bits and phase 1 in
// the high ones, so that one load fetches both.
type table [NumParams / NumPhases]int32

// newTable packs the weights w (NumParams of them, laid out by Param).
func newTable(w []int16) *table {
	t := new(table)
	for i := range t {
		t[i] = int32(uint16(w[Param(i, 0)])) | int32(w[Param(i, 1)])<<16
	}
	return t
}

// NewEvaluator returns an evaluator using w, which must have NumParams
// weights and a positive Scale (as Read guarantees). It copies the weights
// into a table of its own; the evaluators of a factory from eval.Load
// share one.
func NewEvaluator(w *Weights) *Evaluator {
	return &Evaluator{t: newTable(w.W), scale: int64(w.Scale)}
}

// sum returns the blended sum of p's terms for the side to move, in units
// of 1/(PhaseSpan·Scale) centipawns.
func (e *Evaluator) sum(p *engine.Position) int64 {
	own, opp, kings := orient(p)
	t := e.t
	var a, b int32
	// The windows as in windowIndices, each looked up as soon as known.
	o, x := engine.PackSquares(own), engine.PackSquares(opp)
	var lo, hi [7]uint64
	for r := range 7 {
		c := &pairCode[r&1]
		u, v := &c[o>>(4*r)&0xff], &c[x>>(4*r)&0xff]
		lo[r] = u[0] + 2*v[0]
		hi[r] = u[1] + 2*v[1]
	}
	for top := range 5 {
		l := lo[top] + 81*lo[top+2]
		base := 5 * top * WindowStates
		for _, i := range [5]int{
			base + int(l&0xffff),
			base + WindowStates + int(l>>16&0xffff),
			base + 2*WindowStates + int(l>>32&0xffff),
			base + 3*WindowStates + int(l>>48),
			base + 4*WindowStates + int(hi[top]+81*hi[top+2]),
		} {
			u := t[i]
			a += int32(int16(u))
			b += u >> 16
		}
	}
	gt := (*[NumGlobals]int32)(t[GlobalsOffset:])
	men, k, run, sole := globals(own, opp, kings)
	for j, n := range [NumGlobals]int32{GlobalMen: int32(men), GlobalKings: int32(k), GlobalRunaways: int32(run), GlobalSoleKings: int32(sole)} {
		u := gt[j]
		a += n * int32(int16(u))
		b += n * (u >> 16)
	}
	kt := (*[KingSquares]int32)(t[KingsOffset:])
	for k := engine.PackSquares(own & kings); k != 0; k &= k - 1 {
		u := kt[bits.TrailingZeros32(k)&31]
		a += int32(int16(u))
		b += u >> 16
	}
	for k := engine.PackSquares(opp & kings); k != 0; k &= k - 1 {
		u := kt[32+bits.TrailingZeros32(k)&31]
		a += int32(int16(u))
		b += u >> 16
	}
	share := int64(openingShare(bits.OnesCount32(o | x)))
	return int64(a)*share + int64(b)*(PhaseSpan-share)
}

// Raw returns the value for the side to move in centipawns, before
// rounding.
func (e *Evaluator) Raw(p *engine.Position) float64 {
	return float64(e.sum(p)) / float64(PhaseSpan*e.scale)
}

// Evaluate returns the value for the side to move in centipawns, rounded
// (halves upward) and clamped to ±eval.ScoreLimit.
func (e *Evaluator) Evaluate(p *engine.Position) int {
	den := PhaseSpan * e.scale
	s := e.sum(p) + den/2
	q := s / den
	if s%den < 0 {
		q-- // floor division
	}
	return eval.Clamp(int(q))
}

// load builds a Factory from a "pattern" spec: the embedded weights when
// path is empty, else the weight file at path.
func load(path, selector string) (eval.Factory, error) {
	if selector != "" {
		return nil, fmt.Errorf("pattern takes no selector (got #%s)", selector)
	}
	var w *Weights
	if path == "" {
		w = Default()
	} else {
		var err error
		if w, err = ReadFile(path); err != nil {
			return nil, err
		}
	}
	t, scale := newTable(w.W), int64(w.Scale)
	return func() eval.Evaluator { return &Evaluator{t: t, scale: scale} }, nil
}

func init() { eval.Register("pattern", load) }
