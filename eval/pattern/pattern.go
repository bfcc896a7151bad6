// Package pattern owns the pattern evaluator: a learned evaluation in the
// manner of Othello's Logistello and draughts' Scan. The board, seen from
// the side to move, is covered by 25 overlapping 4×4 windows of 8 dark
// squares each; each window's pieces, by colour, index a table of 3^8
// weights. Global terms (men, kings, runaway men, sole kings), in version 2
// ending terms (mobility, the move, tempo, back rank, kings against men)
// and a weight per king square complete it. There is a weight set per
// knot, a piece count (version 1: 24 and 2; version 2: several), and the
// two knots around the number of pieces on the board blend linearly
// (model.go). An evaluation is 25 table lookups and a few counts;
// it holds no state between positions.
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

// Weights are a model's weights: Model.Params integers laid out by
// Model.Param, in units of 1/Scale centipawns, and a free-text note saying
// where they came from.
type Weights struct {
	// Model is the geometry.
	Model Model
	// Scale is the number of weight units in a centipawn.
	Scale int
	// W holds the weights, Model.Params of them.
	W []int16
	// Note says how the weights were made.
	Note string
}

// Value returns the value of the features f with w, in centipawns (the
// same sum Evaluator computes, as a float): the trainer's check.
func (w *Weights) Value(f *Features) float64 {
	m := w.Model
	bl := newBlend(m)
	seg := int(bl.seg[min(f.Pieces, MaxPieces)])
	var sum [2]int64
	for i := range sum {
		k := seg + i
		s := int64(0)
		for win, idx := range f.Windows {
			s += int64(w.W[m.Param(win*WindowStates+int(idx), k)])
		}
		for g, x := range f.Globals {
			s += int64(x) * int64(w.W[m.Param(GlobalsOffset+g, k)])
		}
		if m.Ending {
			for g, x := range f.Ending {
				s += int64(x) * int64(w.W[m.Param(GlobalsOffset+NumGlobals+g, k)])
			}
		}
		for b := f.OwnKings; b != 0; b &= b - 1 {
			s += int64(w.W[m.Param(m.KingsOffset()+bits.TrailingZeros32(b), k)])
		}
		for b := f.OppKings; b != 0; b &= b - 1 {
			s += int64(w.W[m.Param(m.KingsOffset()+32+bits.TrailingZeros32(b), k)])
		}
		sum[i] = s
	}
	up := bl.up[min(f.Pieces, MaxPieces)]
	total := sum[0]*up + sum[1]*(bl.den-up)
	return float64(total) / float64(bl.den*int64(w.Scale))
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
	c *compiled
}

// compiled holds a model's weights as the evaluator reads them: for each
// segment between two neighbouring knots, every term's weights at the two
// knots packed into one int32 (the upper knot in the low 16 bits, the
// lower in the high ones), so that one load fetches both.
type compiled struct {
	segs     [][]int32
	bl       *blend
	kingsOff int
	ending   bool
	scale    int64
}

// compile packs the weights of w, whose model Check accepts and which has
// its number of weights.
func compile(w *Weights) *compiled {
	m := w.Model
	c := &compiled{bl: newBlend(m), kingsOff: m.KingsOffset(), ending: m.Ending, scale: int64(w.Scale)}
	c.segs = make([][]int32, len(m.Knots)-1)
	for s := range c.segs {
		t := make([]int32, m.Terms())
		for i := range t {
			t[i] = int32(uint16(w.W[m.Param(i, s)])) | int32(w.W[m.Param(i, s+1)])<<16
		}
		c.segs[s] = t
	}
	return c
}

// NewEvaluator returns an evaluator using w, which must have a valid model,
// its number of weights and a positive Scale (as Read guarantees). It
// copies the weights into a table of its own; the evaluators of a factory
// from eval.Load share one.
func NewEvaluator(w *Weights) *Evaluator {
	return &Evaluator{c: compile(w)}
}

// sum returns the blended sum of p's terms for the side to move, in units
// of 1/(den·Scale) centipawns.
func (e *Evaluator) sum(p *engine.Position) int64 {
	c := e.c
	own, opp, kings := orient(p)
	// The windows as in windowIndices, each looked up as soon as known.
	o, x := engine.PackSquares(own), engine.PackSquares(opp)
	n := bits.OnesCount32(o | x)
	t := c.segs[c.bl.seg[n]]
	var a, b int32
	var lo, hi [7]uint64
	for r := range 7 {
		pc := &pairCode[r&1]
		u, v := &pc[o>>(4*r)&0xff], &pc[x>>(4*r)&0xff]
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
	gt := (*[NumGlobals + NumEnding]int32)(t[GlobalsOffset:])
	men, k, run, sole := globals(own, opp, kings)
	for j, n := range [NumGlobals]int32{GlobalMen: int32(men), GlobalKings: int32(k), GlobalRunaways: int32(run), GlobalSoleKings: int32(sole)} {
		u := gt[j]
		a += n * int32(int16(u))
		b += n * (u >> 16)
	}
	if c.ending {
		for j, n := range ending(own, opp, kings, o, x) {
			u := gt[NumGlobals+j]
			a += int32(n) * int32(int16(u))
			b += int32(n) * (u >> 16)
		}
	}
	kt := (*[KingSquares]int32)(t[c.kingsOff:])
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
	up := c.bl.up[n]
	return int64(a)*up + int64(b)*(c.bl.den-up)
}

// Raw returns the value for the side to move in centipawns, before
// rounding.
func (e *Evaluator) Raw(p *engine.Position) float64 {
	return float64(e.sum(p)) / float64(e.c.bl.den*e.c.scale)
}

// Evaluate returns the value for the side to move in centipawns, rounded
// (halves upward) and clamped to ±eval.ScoreLimit.
func (e *Evaluator) Evaluate(p *engine.Position) int {
	// floor((2·sum + den)/(2·den)): the value rounded, halves upward.
	den := 2 * e.c.bl.den * e.c.scale
	s := 2*e.sum(p) + den/2
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
	c := compile(w)
	return func() eval.Evaluator { return &Evaluator{c: c} }, nil
}

func init() { eval.Register("pattern", load) }
