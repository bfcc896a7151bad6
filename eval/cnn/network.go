// Package cnn owns the seed CNN of CheckersAI (seed 001): its CSV weight
// file (247 weights per named row), the network itself (two sigmoid
// convolutions, a dense layer of 6 and one output, per docs/cnn.md),
// and the "cnn" evaluator kind.
//
// # Spec string
//
//	cnn:PATH#ROWNAME   the row called ROWNAME of the CSV at PATH
//	cnn:PATH           the only row of a one-row file
//	cnn:RUN            a run folder of nechecb evolve cnn: the best row of
//	                   its last complete generation (the first row of the
//	                   highest GenGWeightsBest.csv)
//	cnn:RUN#GenG_IIII  that row of the run's GenG.csv
//
// # Value and score scale
//
// The network f(board seen by a player) judges a position for the player who
// has just moved, as the seed used it. The side to move's value, Raw, is
// therefore 0.5 - f(position seen by the side not to move), in (-0.5, 0.5).
// Evaluate multiplies Raw by ScorePerUnit and clamps to ±eval.ScoreLimit.
package cnn

import (
	"math"
	"math/bits"
	"os"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// ScorePerUnit converts Raw to the engine's scale. The seed's networks do
// not count material: on row Gen15_0111, over 2000 random positions, taking
// one of the opponent's men off changes Raw by -0.0003 on average while Raw
// itself spreads with a standard deviation of 0.018. So no scale can make a
// man worth 100; this one makes that spread about 180 points, two men, and
// keeps the whole range (-0.5, 0.5) within ±5000. See TestScorePerUnit.
const ScorePerUnit = 10000

// Layer sizes.
const (
	conv1Pos = 4 * 4     // first convolution: 4x4 positions of 3 channels
	conv2Out = 2 * 2 * 3 // second convolution, flattened
	denseOut = 6
)

// Offsets of each part in the flat weight vector.
const (
	offK1, offB1 = 0, 75
	offK2, offB2 = 78, 159
	offD, offDB  = 162, 234
	offO, offOB  = 240, 246
)

func init() {
	for s := 1; s <= 32; s++ {
		b := bits.TrailingZeros64(engine.SquareBit(s))
		cellOf[engine.Black][b] = cell(s)
		cellOf[engine.White][b] = cell(33 - s)
	}
	eval.Register("cnn", func(path, selector string) (eval.Factory, error) {
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			var err error
			if path, selector, err = RunRow(path, selector); err != nil {
				return nil, err
			}
		}
		t, err := ReadFile(path)
		if err != nil {
			return nil, err
		}
		row, err := t.Row(selector)
		if err != nil {
			return nil, err
		}
		n := New(&row.Weights)
		return func() eval.Evaluator { return n }, nil
	})
}

// Describe returns the network as the kind "cnn": a weight file of one row,
// named "net", and the selector naming it.
func (n *Network) Describe() (kind, selector string, data []byte) {
	data, err := FormatCSV([]Row{{Name: "net", Weights: n.weights}})
	if err != nil {
		return "cnn", "net", nil // cannot happen: the writer writes to memory
	}
	return "cnn", "net", data
}

// cellOf[me][b] is the input cell (row*8 + col) of engine bit b in the board
// seen by player me: for Black the board as it stands, for White turned 180
// degrees.
var cellOf [2][64]uint8

// cell returns the 8x8 cell of square s: row (s-1)/4 from the top, column
// 2*((s-1) mod 4), plus 1 on even rows.
func cell(s int) uint8 {
	r, c := (s-1)/4, 2*((s-1)%4)
	if r%2 == 0 {
		c++
	}
	return uint8(r*8 + c)
}

// Network is a compiled CNN. The first convolution is stored per input cell
// as the list of outputs the cell feeds, so a position costs only its
// pieces. It is read-only after New; one Network serves every thread.
type Network struct {
	// feeds[c] is the part of links that input cell c feeds.
	feeds [64]struct{ lo, hi uint16 }
	links []cellLink
	b1    [3]float64
	k2    [9][3][3]float64 // [di*3+dj][channel][filter]
	b2    [3]float64
	dense [conv2Out * denseOut]float64
	db    [denseOut]float64
	out   [denseOut]float64
	ob    float64
	// weights are the weights compiled, for Describe.
	weights Weights
}

// cellLink adds a cell's value times w to the three channels of first-layer
// output position pos.
type cellLink struct {
	pos uint8 // i*4 + j
	w   [3]float64
}

// New compiles a weight vector laid out as in the seed's CSV.
func New(w *Weights) *Network {
	n := &Network{weights: *w}
	for c := range 64 {
		r, col := c/8, c%8
		n.feeds[c].lo = uint16(len(n.links))
		for i := max(0, r-4); i <= min(3, r); i++ {
			for j := max(0, col-4); j <= min(3, col); j++ {
				l := cellLink{pos: uint8(i*4 + j)}
				k := offK1 + ((r-i)*5+(col-j))*3
				copy(l.w[:], w[k:k+3])
				n.links = append(n.links, l)
			}
		}
		n.feeds[c].hi = uint16(len(n.links))
	}
	copy(n.b1[:], w[offB1:offK2])
	for k := range 81 {
		n.k2[k/9][k/3%3][k%3] = w[offK2+k]
	}
	copy(n.b2[:], w[offB2:offD])
	copy(n.dense[:], w[offD:offDB])
	copy(n.db[:], w[offDB:offO])
	copy(n.out[:], w[offO:offOB])
	n.ob = w[offOB]
	return n
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// F returns the network's output for p seen by player me: my pieces -1 and
// -2 (king), the opponent's +1 and +2, my side at the top. The seed read it
// as the value of the position for me, having just moved.
func (n *Network) F(p *engine.Position, me engine.Color) float64 {
	var a1 [conv1Pos][3]float64
	for k := range a1 {
		a1[k] = n.b1
	}
	cells := &cellOf[me]
	mine, theirs := p.Pieces[me], p.Pieces[me.Opponent()]
	n.feed(&a1, cells, mine&^p.Kings, -1)
	n.feed(&a1, cells, mine&p.Kings, -2)
	n.feed(&a1, cells, theirs&^p.Kings, 1)
	n.feed(&a1, cells, theirs&p.Kings, 2)
	for k := range a1 {
		for c := range 3 {
			a1[k][c] = sigmoid(a1[k][c])
		}
	}
	// Second convolution: 3x3 kernel over the 4x4x3 map, giving 2x2x3,
	// stored in flatten order (row*2 + col)*3 + channel.
	var a2 [conv2Out]float64
	for i := range 2 {
		for j := range 2 {
			s := n.b2
			for di := range 3 {
				for dj := range 3 {
					x, k := &a1[(i+di)*4+j+dj], &n.k2[di*3+dj]
					for c := range 3 {
						s[0] += x[c] * k[c][0]
						s[1] += x[c] * k[c][1]
						s[2] += x[c] * k[c][2]
					}
				}
			}
			o := (i*2 + j) * 3
			a2[o], a2[o+1], a2[o+2] = sigmoid(s[0]), sigmoid(s[1]), sigmoid(s[2])
		}
	}
	out := n.ob
	for o := range denseOut {
		s := n.db[o]
		for i, x := range a2 {
			s += x * n.dense[i*denseOut+o]
		}
		out += sigmoid(s) * n.out[o]
	}
	return sigmoid(out)
}

// feed adds the first-layer contributions of the pieces on bb, each of
// value v.
func (n *Network) feed(a1 *[conv1Pos][3]float64, cells *[64]uint8, bb uint64, v float64) {
	for ; bb != 0; bb &= bb - 1 {
		f := n.feeds[cells[bits.TrailingZeros64(bb)]]
		for _, l := range n.links[f.lo:f.hi] {
			a := &a1[l.pos]
			a[0] += v * l.w[0]
			a[1] += v * l.w[1]
			a[2] += v * l.w[2]
		}
	}
}

// Raw returns the side to move's value: 0.5 - f(position seen by the side
// not to move), in (-0.5, 0.5).
func (n *Network) Raw(p *engine.Position) float64 {
	return 0.5 - n.F(p, p.Side.Opponent())
}

// Evaluate returns Raw times ScorePerUnit, rounded and clamped to
// ±eval.ScoreLimit.
func (n *Network) Evaluate(p *engine.Position) int {
	return eval.ScoreFromFloat(ScorePerUnit * n.Raw(p))
}

// RootView reports true: the network's values for the two sides do not
// cancel, so a search judges every leaf from the root player's side, as
// neche's own search does (engine/search.RootViewer).
func (n *Network) RootView() bool { return true }
