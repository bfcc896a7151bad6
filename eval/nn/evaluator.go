package nn

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// The evaluator keeps the first layer's accumulators incrementally without
// hooks into the search, which hands it positions only. For each first
// layer it caches a few boards it has seen with their two accumulators
// (Black's view and White's). Given a position, it takes the cached board
// that differs from it in the fewest inputs, and from that board's
// accumulators makes the position's, into the slot used least recently:
// for each input that differs, one column of the first layer's weights
// added or taken away, per perspective. When no cached board is as close
// as the position's own pieces, it builds the accumulators from the
// biases instead. In a search, the positions evaluated one after another
// are mostly siblings and cousins, a move or two apart, so a node costs a
// few columns. One slot, the last board evaluated, is the fastest: more
// slots save columns but cost more to search than they save
// (docs/performance.md).

// DefaultSlots is the number of cached boards per first layer.
const DefaultSlots = 1

// model is a net made ready to evaluate with, shared read-only by the
// evaluators of a factory.
type model struct {
	net *Net
	// data is the weight file, for Describe.
	data []byte
	// w1 is each first layer's W with a column of zeros after the last.
	w1 [][]int16
	// cols[v][c][b] is the offset in w1 of the column of the input that a
	// piece of colour c on bit b of a board key (see boardKey) is for
	// perspective v; the zero column's when there is no such input (a man
	// on its crowning row).
	cols [2][2][64]int32
	// w2 and w3 are each head's W2 and W3 in denseLayout's order, the one
	// the kernels in use read.
	w2, w3 [][]int8
}

// newModel checks n and prepares it.
func newModel(n *Net) (*model, error) {
	if err := n.check(); err != nil {
		return nil, err
	}
	l := n.Layout
	m := &model{net: n, data: n.Format()}
	for _, f := range n.First {
		m.w1 = append(m.w1, append(slices.Clone(f.W), make([]int16, l.Hidden)...))
	}
	for _, h := range n.Heads {
		m.w2 = append(m.w2, denseLayout(h.W2, l.L2, 2*l.Hidden))
		m.w3 = append(m.w3, denseLayout(h.W3, l.L3, l.L2))
	}
	for v := range m.cols {
		for c := range m.cols[v] {
			for b := range m.cols[v][c] {
				f := Feature(engine.Color(v), engine.Color(c), b >= 32, b%32+1)
				if f < 0 {
					f = Inputs
				}
				m.cols[v][c][b] = int32(f * l.Hidden)
			}
		}
	}
	return m, nil
}

// check says what keeps n from being evaluated: a bad layout or scale,
// weights of the wrong sizes, or an int8 weight of -128.
func (n *Net) check() error {
	l := n.Layout
	if err := l.Check(); err != nil {
		return err
	}
	if !shiftOK(n.SecondShift) {
		return fmt.Errorf("second layer's shift %d (want %d..%d)", n.SecondShift, WeightShift, WeightShift+3)
	}
	if !(n.CPPerUnit > 0) || n.CPPerUnit > 1e30 {
		return fmt.Errorf("centipawns per unit %v (want a finite positive number)", n.CPPerUnit)
	}
	if len(n.First) != l.FirstLayers() || len(n.Heads) != l.Heads() {
		return fmt.Errorf("%d first layers and %d heads, the layout %s has %d and %d",
			len(n.First), len(n.Heads), l, l.FirstLayers(), l.Heads())
	}
	for i, f := range n.First {
		if len(f.W) != Inputs*l.Hidden || len(f.B) != l.Hidden {
			return fmt.Errorf("first layer %d has %d weights and %d biases, the layout %s wants %d and %d",
				i, len(f.W), len(f.B), l, Inputs*l.Hidden, l.Hidden)
		}
	}
	for i, h := range n.Heads {
		if len(h.W2) != l.L2*2*l.Hidden || len(h.B2) != l.L2 || len(h.W3) != l.L3*l.L2 || len(h.B3) != l.L3 || len(h.W4) != l.L3 {
			return fmt.Errorf("head %d does not have the sizes of the layout %s", i, l)
		}
		for _, w := range [][]int8{h.W2, h.W3, h.W4} {
			for _, x := range w {
				if x < -MaxWeight {
					return fmt.Errorf("head %d has an int8 weight of %d (weights are within ±%d)", i, x, MaxWeight)
				}
			}
		}
	}
	return nil
}

// cache is the cached boards of one first layer and their accumulators.
type cache struct {
	// boards[i] is slot i's board (see boardKey); an empty slot's is
	// emptyBoard, further from every position than a build from the
	// biases.
	boards [][2]uint64
	// used[i] is the clock when slot i was last used; 0 when empty.
	used []uint64
	// acc holds each slot's accumulators, 2·Hidden units a slot: Black's
	// view's Hidden units, then White's.
	acc   []int16
	clock uint64
}

// emptyBoard marks an empty slot.
var emptyBoard = [2]uint64{^uint64(0), ^uint64(0)}

// Evaluator evaluates positions with a net, keeping its first layer's
// accumulators incrementally from one position to the next. It is not safe
// for concurrent use; a factory makes one per search thread.
type Evaluator struct {
	m      *model
	caches []cache
	// The head's inputs (2·Hidden) and its hidden layers' units.
	in, h2, h3 []uint8
	// Scratch lists of column offsets, per perspective.
	add, sub [2][64]int32
	// Counts for measuring: evaluations, columns added or taken away
	// (both perspectives), and builds from the biases.
	evals, columns, rebuilds uint64
}

// newEvaluator returns an evaluator of m caching slots boards per first
// layer.
func newEvaluator(m *model, slots int) *Evaluator {
	l := m.net.Layout
	e := &Evaluator{m: m, caches: make([]cache, l.FirstLayers()),
		in: make([]uint8, 2*l.Hidden), h2: make([]uint8, l.L2), h3: make([]uint8, l.L3)}
	for i := range e.caches {
		c := &e.caches[i]
		c.boards, c.used, c.acc = make([][2]uint64, slots), make([]uint64, slots), make([]int16, slots*2*l.Hidden)
		for j := range c.boards {
			c.boards[j] = emptyBoard
		}
	}
	return e
}

// boardKey returns p's board as one word per colour: its men's squares in
// the low 32 bits, its kings' in the high 32 (bit s-1 for square s).
func boardKey(p *engine.Position) [2]uint64 {
	k := engine.PackSquares(p.Kings)
	b, w := engine.PackSquares(p.Pieces[engine.Black]), engine.PackSquares(p.Pieces[engine.White])
	return [2]uint64{uint64(b&^k) | uint64(b&k)<<32, uint64(w&^k) | uint64(w&k)<<32}
}

// accumulators returns the accumulators of board for the first layer fi
// (Black's view's Hidden units, then White's), making them from the
// nearest cached board or from the biases.
func (e *Evaluator) accumulators(fi int, board [2]uint64) []int16 {
	c := &e.caches[fi]
	h := e.m.net.Layout.Hidden
	// The nearest board, and the slot used least recently.
	best, victim := -1, 0
	bestDist := bits.OnesCount64(board[0]) + bits.OnesCount64(board[1]) + 1
	for i, b := range c.boards {
		if d := bits.OnesCount64(b[0]^board[0]) + bits.OnesCount64(b[1]^board[1]); d < bestDist {
			best, bestDist = i, d
		}
		if c.used[i] < c.used[victim] {
			victim = i
		}
	}
	c.clock++
	if bestDist == 0 {
		c.used[best] = c.clock
		return c.acc[best*2*h:][:2*h]
	}
	bias, w := e.m.net.First[fi].B, e.m.w1[fi]
	var from [2]uint64
	src0, src1 := bias, bias
	if best >= 0 {
		from, src0, src1 = c.boards[best], c.acc[best*2*h:][:h], c.acc[best*2*h+h:][:h]
		c.used[best] = c.clock
		c.clock++
	} else {
		e.rebuilds++
	}
	nadd, nsub := e.diff(from, board)
	dst := c.acc[victim*2*h:][:2*h]
	updateCols(dst[:h], src0, w, e.add[0][:nadd], e.sub[0][:nsub])
	updateCols(dst[h:], src1, w, e.add[1][:nadd], e.sub[1][:nsub])
	e.columns += 2 * uint64(nadd+nsub)
	c.boards[victim], c.used[victim] = board, c.clock
	return dst
}

// diff writes into e.add and e.sub the columns that turn board from's
// accumulators into to's, per perspective, and returns how many (the same
// for both perspectives). The input of a man on its crowning row, which
// does not exist, is a column of zeros (see model.cols).
func (e *Evaluator) diff(from, to [2]uint64) (nadd, nsub int) {
	cols := &e.m.cols
	for c := range 2 {
		for b := to[c] &^ from[c]; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b) & 63
			e.add[0][nadd&63], e.add[1][nadd&63] = cols[0][c][i], cols[1][c][i]
			nadd++
		}
		for b := from[c] &^ to[c]; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b) & 63
			e.sub[0][nsub&63], e.sub[1][nsub&63] = cols[0][c][i], cols[1][c][i]
			nsub++
		}
	}
	return nadd, nsub
}

// Output returns the net's integer output for p, the same as
// (*Net).Output.
func (e *Evaluator) Output(p *engine.Position) int32 {
	n := e.m.net
	l := n.Layout
	h := l.Hidden
	fi, hi := l.Select(p)
	acc := e.accumulators(fi, boardKey(p))
	e.evals++
	own := int(p.Side&1) * h
	clipUnits(e.in[:h], acc[own:][:h])
	clipUnits(e.in[h:], acc[h-own:][:h])
	hd := &n.Heads[hi]
	denseQuads(e.h2, e.in, e.m.w2[hi], hd.B2, n.SecondShift)
	denseQuads(e.h3, e.h2, e.m.w3[hi], hd.B3, WeightShift)
	return hd.B4 + dotRow(e.h3, hd.W4)
}

// Evaluate returns the value of p for the side to move in centipawns,
// clamped to ±eval.ScoreLimit.
func (e *Evaluator) Evaluate(p *engine.Position) int {
	return eval.Clamp(e.m.net.Centipawns(e.Output(p)))
}

// Raw returns the net's output for the side to move as a float: the
// integer output over OutputOne, a logit of the win probability.
func (e *Evaluator) Raw(p *engine.Position) float64 {
	return float64(e.Output(p)) / OutputOne
}

// Describe returns the evaluator as the kind "nn" and its weight file.
func (e *Evaluator) Describe() (kind, selector string, data []byte) {
	return Kind, "", e.m.data
}
