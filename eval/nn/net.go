// Package nn owns the neural evaluator: small fully connected networks in
// the manner of GuiNN's and of NNUE, run with integer arithmetic, one head
// per game stage. It owns the network's layout (its inputs, its stages and
// its layer sizes), the quantised weights, the weight file format (file.go)
// and the reference forward pass that the incremental evaluator and the
// trainer (train/nntrain) are checked against.
//
// # Inputs
//
// A position is seen from each colour in turn (a perspective): the board
// turned so that the perspective's men move toward squares 29-32, as
// Black's do. Seen so, the perspective's own men stand on squares 1-28 and
// the opponent's on 5-32, and either side's kings anywhere, which makes
// Inputs = 28+32+28+32 = 120 inputs of 0 or 1 (see Feature).
//
// # Layers
//
// The first layer maps the inputs of each perspective to Hidden int16
// units (an accumulator), with the same weights for both perspectives. The
// side to move's accumulator and then the opponent's, each clipped to
// [0, QA], make the 2·Hidden inputs of a head: L2 and L3 units with clipped
// ReLU and int8 weights, then one output. A position turned round with its
// colours and side to move swapped has the same two accumulators in the
// same order, so it gets exactly the same value.
//
// # Stages
//
// The layout's Stages says how positions are split among heads: 1 (one
// head for every position) or 4 (GuiNN's stages, see Stage). Each stage has
// its own head and, unless the layout shares it, its own first layer. A
// layout that splits its heads gives each stage two: one for positions
// where both sides have as many pieces, one for the rest (see Select).
package nn

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/nechecb/nechecb/engine"
)

// Inputs is the number of inputs of a perspective.
const Inputs = 120

// MaxActive bounds the inputs set in one perspective: one per piece.
const MaxActive = 24

// Quantisation: a first-layer unit's value 1.0 is QA (so its weights and
// biases are the float weights times QA, as int16); a later layer's weight
// 1.0 is 1<<shift (int8), its bias is the float bias times QA<<shift
// (int32), and its sum is shifted right by shift before the clip to
// [0, QA]. The shift is WeightShift for the third layer and the output,
// and the net's SecondShift for the second layer. The output is the float
// output times QA<<WeightShift.
const (
	QA          = 127
	WeightShift = 6
	// FineShift is the second layer's shift in the nets the trainer
	// writes: its weights are small (within ±0.35 in round 3's fit), and
	// steps of 1/256 lose much less to rounding than steps of 1/64.
	FineShift = 8
	// OutputOne is the integer output that stands for a float output of 1.
	OutputOne = QA << WeightShift
	// MaxWeight bounds the magnitude of an int8 weight, so that two
	// products of a clipped unit and a weight never exceed int16 (AVX2's
	// pairwise multiply-add saturates there).
	MaxWeight = 127
)

// MaxHeads bounds a valid layout's Heads: 4 stages, split.
const MaxHeads = 8

// Layout is a network's shape.
type Layout struct {
	// Stages is 1 or 4 (see Stage).
	Stages int
	// SharedFirst makes every stage use the first layer of stage 0.
	SharedFirst bool
	// SplitHeads gives each stage two heads, the first for even material
	// (both sides have as many pieces) and the second for the rest; the
	// two share the stage's first layer.
	SplitHeads bool
	// Hidden is the number of first-layer units per perspective: a multiple
	// of 16, 16..1024.
	Hidden int
	// L2 and L3 are the sizes of the two hidden layers of a head:
	// multiples of 32, 32..256.
	L2, L3 int
}

// Check says what is wrong with the layout, or returns nil.
func (l Layout) Check() error {
	switch {
	case l.Stages != 1 && l.Stages != 4:
		return fmt.Errorf("stages %d (want 1 or 4)", l.Stages)
	case l.Hidden < 16 || l.Hidden > 1024 || l.Hidden%16 != 0:
		return fmt.Errorf("hidden units %d (want a multiple of 16 in 16..1024)", l.Hidden)
	case l.L2 < 32 || l.L2 > 256 || l.L2%32 != 0:
		return fmt.Errorf("second layer %d (want a multiple of 32 in 32..256)", l.L2)
	case l.L3 < 32 || l.L3 > 256 || l.L3%32 != 0:
		return fmt.Errorf("third layer %d (want a multiple of 32 in 32..256)", l.L3)
	}
	return nil
}

// FirstLayers returns the number of first layers: 1 when shared, else one
// per stage.
func (l Layout) FirstLayers() int {
	if l.SharedFirst {
		return 1
	}
	return l.Stages
}

// Heads returns the number of heads: one per stage, two when split.
func (l Layout) Heads() int {
	if l.SplitHeads {
		return 2 * l.Stages
	}
	return l.Stages
}

// First returns the index of the first layer that stage uses.
func (l Layout) First(stage int) int {
	if l.SharedFirst {
		return 0
	}
	return stage
}

// String describes the layout as "4x(120-256x2-32-32-1)", with "shared"
// when the stages share the first layer and "split" when their heads are
// split.
func (l Layout) String() string {
	s := fmt.Sprintf("%dx(%d-%dx2-%d-%d-1)", l.Stages, Inputs, l.Hidden, l.L2, l.L3)
	if l.SharedFirst && l.Stages > 1 {
		s += " shared"
	}
	if l.SplitHeads {
		s += " split"
	}
	return s
}

// Stage returns the head that judges p: with 1 stage always 0; with 4,
// GuiNN's split: 3 for 6 or fewer pieces, 2 for 7 or 8, and above that 0
// without kings and 1 with kings.
func (l Layout) Stage(p *engine.Position) int {
	if l.Stages == 1 {
		return 0
	}
	n := bits.OnesCount64(p.Pieces[0] | p.Pieces[1])
	switch {
	case n <= 6:
		return 3
	case n <= 8:
		return 2
	case p.Kings == 0:
		return 0
	}
	return 1
}

// Select returns the first layer and the head that judge p.
func (l Layout) Select(p *engine.Position) (first, head int) {
	stage := l.Stage(p)
	head = stage
	if l.SplitHeads {
		head = 2 * stage
		if bits.OnesCount64(p.Pieces[0]) != bits.OnesCount64(p.Pieces[1]) {
			head++
		}
	}
	return l.First(stage), head
}

// Input indexes: the perspective's men on squares 1-28, its kings, the
// opponent's men on squares 5-32, the opponent's kings.
const (
	ownMen    = 0
	ownKings  = 28
	oppMen    = 60 - 4 // the opponent's men start on square 5 (bit 4)
	oppKings  = 88
	numInputs = 120
)

// Feature returns the input of a piece of colour pieceColor (a king or a
// man) standing on square sq (1..32) as the perspective persp sees it, or
// -1 when no such input exists (a man on its crowning row).
func Feature(persp, pieceColor engine.Color, king bool, sq int) int {
	b := sq - 1
	if persp == engine.White {
		b = 31 - b
	}
	switch {
	case pieceColor == persp && king:
		return ownKings + b
	case pieceColor == persp && b < 28:
		return ownMen + b
	case king:
		return oppKings + b
	case pieceColor != persp && b >= 4:
		return oppMen + b
	}
	return -1
}

// Active writes the inputs set in p from persp's side into dst, in
// ascending order, and returns how many there are. Men on their crowning
// row, which the rules never leave there, are skipped.
func Active(p *engine.Position, persp engine.Color, dst *[MaxActive]int16) int {
	own := engine.PackSquares(p.Pieces[persp])
	opp := engine.PackSquares(p.Pieces[persp^1])
	kings := engine.PackSquares(p.Kings)
	if persp == engine.White {
		own, opp, kings = bits.Reverse32(own), bits.Reverse32(opp), bits.Reverse32(kings)
	}
	n := 0
	add := func(set uint32, base int) {
		for ; set != 0 && n < MaxActive; set &= set - 1 {
			dst[n] = int16(base + bits.TrailingZeros32(set))
			n++
		}
	}
	add(own&^kings&0x0fffffff, ownMen)
	add(own&kings, ownKings)
	add(opp&^kings&0xfffffff0, oppMen)
	add(opp&kings, oppKings)
	return n
}

// FirstLayer is one first layer: W[f*Hidden+j] is input f's weight to unit
// j, B[j] unit j's bias.
type FirstLayer struct {
	W []int16
	B []int16
}

// Head is the later layers of a stage (of half a stage, when the layout
// splits its heads). W2[o*2·Hidden+i] is the weight of
// input i (the side to move's units first) to unit o of the second layer;
// W3[o*L2+i] likewise for the third; W4[i] is unit i's output weight.
type Head struct {
	W2 []int8
	B2 []int32
	W3 []int8
	B3 []int32
	W4 []int8
	B4 int32
}

// Net is a quantised network.
type Net struct {
	Layout Layout
	// SecondShift is the second layer's weight shift: WeightShift (6) in
	// the first nets, FineShift (8) in those written since.
	SecondShift int
	// CPPerUnit converts the float output (the integer output over
	// OutputOne, a logit of the win probability) to centipawns.
	CPPerUnit float32
	// Note says where the weights came from: the lineage of the rounds
	// that trained them.
	Note  string
	First []FirstLayer
	Heads []Head
}

// NewNet returns a network of layout l with every weight zero and the
// second layer's shift FineShift. It panics
// when the layout is not valid, a programming error.
func NewNet(l Layout, cpPerUnit float32) *Net {
	if err := l.Check(); err != nil {
		panic("nn: NewNet: " + err.Error())
	}
	n := &Net{Layout: l, SecondShift: FineShift, CPPerUnit: cpPerUnit}
	for range l.FirstLayers() {
		n.First = append(n.First, FirstLayer{W: make([]int16, Inputs*l.Hidden), B: make([]int16, l.Hidden)})
	}
	for range l.Heads() {
		n.Heads = append(n.Heads, Head{
			W2: make([]int8, l.L2*2*l.Hidden), B2: make([]int32, l.L2),
			W3: make([]int8, l.L3*l.L2), B3: make([]int32, l.L3),
			W4: make([]int8, l.L3),
		})
	}
	return n
}

// Centipawns converts an integer output to the engine's scale, rounded,
// before any clamp.
func (n *Net) Centipawns(out int32) int {
	return int(math.Round(float64(out) * float64(n.CPPerUnit) / OutputOne))
}

// Output computes the integer output for p from scratch, in plain Go: the
// reference the incremental evaluator must match.
func (n *Net) Output(p *engine.Position) int32 {
	l := n.Layout
	fi, hi := l.Select(p)
	first := &n.First[fi]
	in := make([]uint8, 2*l.Hidden)
	for k, persp := range [2]engine.Color{p.Side, p.Side ^ 1} {
		acc := make([]int16, l.Hidden)
		copy(acc, first.B)
		var act [MaxActive]int16
		for _, f := range act[:Active(p, persp, &act)] {
			col := first.W[int(f)*l.Hidden:][:l.Hidden]
			for j := range acc {
				acc[j] += col[j]
			}
		}
		for j, a := range acc {
			in[k*l.Hidden+j] = uint8(max(0, min(QA, a)))
		}
	}
	return n.Heads[hi].forward(in, l, n.SecondShift)
}

// forward runs the head on the clipped first-layer units in (2·Hidden of
// them) in plain Go, the second layer shifting by shift2.
func (h *Head) forward(in []uint8, l Layout, shift2 int) int32 {
	h2 := dense(in, h.W2, h.B2, l.L2, shift2)
	h3 := dense(h2, h.W3, h.B3, l.L3, WeightShift)
	out := h.B4
	for i, x := range h3 {
		out += int32(x) * int32(h.W4[i])
	}
	return out
}

// dense is one clipped-ReLU layer of n units over in whose sums shift
// right by shift.
func dense(in []uint8, w []int8, b []int32, n, shift int) []uint8 {
	out := make([]uint8, n)
	for o := range out {
		sum := b[o]
		for i, x := range in {
			sum += int32(x) * int32(w[o*len(in)+i])
		}
		out[o] = uint8(max(0, min(QA, sum>>shift)))
	}
	return out
}
