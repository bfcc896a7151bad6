package neche

import (
	"bytes"
	"math"
	"math/bits"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// NecheBit maps a standard square s (index s-1) to the neche bit, and so the
// sensory neuron, that sees it when the evaluated side plays White (at the
// bottom, moving toward squares 1-4).
var NecheBit = [32]uint8{
	31, 23, 15, 7, 30, 22, 14, 6, 21, 13, 5, 29, 20, 12, 4, 28,
	11, 3, 27, 19, 10, 2, 26, 18, 1, 25, 17, 9, 0, 24, 16, 8,
}

// sensoryOf[side][b] is the sensory neuron that sees engine bit b when side
// is evaluated: for Black the board is turned round first, so Black's piece
// on s is an own piece on 33-s.
var sensoryOf [2][64]uint8

func init() {
	for s := 1; s <= 32; s++ {
		b := bits.TrailingZeros64(engine.SquareBit(s))
		sensoryOf[engine.White][b] = NecheBit[s-1]
		sensoryOf[engine.Black][b] = NecheBit[32-s]
	}
	for _, kind := range []string{"neche", BothKind} {
		both := kind == BothKind
		eval.Register(kind, func(path, selector string) (eval.Factory, error) {
			g, err := FromSpec(path, selector)
			return factory(g, err, both)
		})
		eval.RegisterData(kind, func(data []byte, selector string) (eval.Factory, error) {
			f, err := Read(bytes.NewReader(data), "weights")
			if err != nil {
				return nil, err
			}
			g, err := f.Select(selector)
			return factory(g, err, both)
		})
	}
}

// BothKind is the evaluator kind of a genome judged from both sides
// (Network.BothSides): "neche-both:RUN" reads the same files as "neche".
const BothKind = "neche-both"

// factory compiles g into a network that every search thread shares,
// judging from both sides when both is set.
func factory(g Genome, err error, both bool) (eval.Factory, error) {
	if err != nil {
		return nil, err
	}
	n := Compile(g)
	if both {
		n = n.BothSides()
	}
	return func() eval.Evaluator { return n }, nil
}

// computed is the number of neurons that sum inputs: 39..63.
const computed = Output - FirstL1 + 1

// Network is a genome compiled for evaluation. It keeps only the synapses
// that can change the output, in compact lists per layer; the evaluator walks
// those lists and never a dense matrix. It is read-only after Compile, so one
// Network serves every search thread.
type Network struct {
	// bias[j-39] is the summed weight from the bias neurons into neuron j.
	bias [computed]float64
	// sensory holds the synapses out of the sensory neurons, grouped by
	// source neuron, with sinks stored as j-39.
	sensory []synapse
	// span[side][b] is the slice of sensory that engine bit b feeds when side
	// is evaluated, and active[side] the engine bits whose slice is not empty.
	span   [2][64]span
	active [2]uint64
	// hidden lists the first-layer neurons with kept outgoing synapses, in
	// id order; each names its slice of hiddenLinks.
	hidden      []hiddenNeuron
	hiddenLinks []synapse
	// second lists the second-layer neurons linked to the output.
	second []secondNeuron
	// synapses is the number of kept synapses, before dropping those that
	// cannot reach the output.
	synapses int
	viable   bool
	// genome is the genome compiled, for Describe.
	genome Genome
	// both makes Raw the mean of the network's value for the side to move
	// and minus its value for the opponent (BothSides).
	both bool
}

// synapse is one kept link into neuron sink+39.
type synapse struct {
	sink   uint8
	weight float64
}

// span is a slice [lo, hi) of a synapse list.
type span struct{ lo, hi uint16 }

type hiddenNeuron struct {
	id    uint8 // j-39
	links span
}

type secondNeuron struct {
	id     uint8 // j-39
	weight float64
}

// Compile builds the network of a genome. Genes that are not kept synapses
// are ignored; when two kept genes join the same pair of neurons the later
// one's weight replaces the earlier one's. Synapses into inner neurons with
// no path to the output are dropped, since they cannot change the value.
func Compile(g Genome) *Network {
	t := linksOf(g)
	w, has, reaches := &t.weight, &t.has, t.reachesOutput()
	n := &Network{viable: g.Viable(), synapses: t.count, genome: g}
	// start[i] is where the synapses of sensory neuron i begin.
	var start [FirstBias + 1]uint16
	for i := 0; i < FirstL1; i++ {
		if i < FirstBias {
			start[i] = uint16(len(n.sensory))
		}
		for j := FirstL1; j <= Output; j++ {
			if !has[i][j] || !reaches[j] {
				continue
			}
			if i >= FirstBias {
				n.bias[j-FirstL1] += w[i][j]
				continue
			}
			n.sensory = append(n.sensory, synapse{uint8(j - FirstL1), w[i][j]})
		}
	}
	start[FirstBias] = uint16(len(n.sensory))
	for side := range n.span {
		for s := 1; s <= 32; s++ {
			b := bits.TrailingZeros64(engine.SquareBit(s))
			i := sensoryOf[side][b]
			sp := span{start[i], start[i+1]}
			n.span[side][b] = sp
			if sp.hi > sp.lo {
				n.active[side] |= 1 << b
			}
		}
	}
	for i := FirstL1; i < FirstL2; i++ {
		sp := span{lo: uint16(len(n.hiddenLinks))}
		for j := FirstL2; j <= Output; j++ {
			if has[i][j] && reaches[j] {
				n.hiddenLinks = append(n.hiddenLinks, synapse{uint8(j - FirstL1), w[i][j]})
			}
		}
		if sp.hi = uint16(len(n.hiddenLinks)); sp.hi > sp.lo {
			n.hidden = append(n.hidden, hiddenNeuron{id: uint8(i - FirstL1), links: sp})
		}
	}
	for i := FirstL2; i < Output; i++ {
		if has[i][Output] {
			n.second = append(n.second, secondNeuron{id: uint8(i - FirstL1), weight: w[i][Output]})
		}
	}
	return n
}

// links is the set of kept synapses of a genome as a dense table, used
// only while compiling or drawing a network.
type links struct {
	weight [64][64]float64
	has    [64][64]bool
	count  int
}

// linksOf collects the kept synapses of g; a later gene joining the same
// pair replaces the earlier one's weight.
func linksOf(g Genome) *links {
	t := new(links)
	for _, x := range g {
		if x.Kept() {
			if !t.has[x.Source][x.Sink] {
				t.count++
			}
			t.has[x.Source][x.Sink] = true
			t.weight[x.Source][x.Sink] = x.Weight()
		}
	}
	return t
}

// reachesOutput reports for each neuron whether a path of kept synapses
// leads from it to the output (the output itself included).
func (t *links) reachesOutput() [64]bool {
	var r [64]bool
	r[Output] = true
	for j := Output - 1; j >= FirstL1; j-- {
		for k := j + 1; k <= Output; k++ {
			if t.has[j][k] && r[k] {
				r[j] = true
				break
			}
		}
	}
	return r
}

// Describe returns the network as the kind "neche" and a genome file of
// one line, its genome.
func (n *Network) Describe() (kind, selector string, data []byte) {
	kind = "neche"
	if n.both {
		kind = BothKind
	}
	return kind, "", FormatGenomes([]Genome{n.genome})
}

// BothSides returns a copy of n that judges a position from both sides:
// its Raw is (v(side to move) − v(opponent))/2, where v(s) is the
// genome's output with s at the bottom of its view. Such a value is the
// exact opposite for the two sides, so whatever part of the output does
// not depend on whose view it is (the bias paths' offset, a large common
// level of the deep paths) cancels, and the search needs no root view.
// A genome whose value for one side already is minus its value for the
// other (G1) keeps its values.
func (n *Network) BothSides() *Network {
	c := *n
	c.both = true
	return &c
}

// Viable reports whether the genome had a kept synapse into the output.
func (n *Network) Viable() bool { return n.viable }

// Synapses returns the number of distinct kept synapses of the genome.
func (n *Network) Synapses() int { return n.synapses }

// Raw returns the network's output for the side to move, which sits at the
// bottom of the network's view: own men +1, own kings +2, the opponent's
// pieces negative.
func (n *Network) Raw(p *engine.Position) float64 {
	if n.both {
		return (n.view(p, p.Side) - n.view(p, p.Side.Opponent())) / 2
	}
	return n.view(p, p.Side)
}

// view returns the network's output with side at the bottom of its view.
func (n *Network) view(p *engine.Position, side engine.Color) float64 {
	sum := n.bias
	own, opp := p.Pieces[side]&n.active[side], p.Pieces[side.Opponent()]&n.active[side]
	spans := &n.span[side]
	n.feed(&sum, spans, own&^p.Kings, 1)
	n.feed(&sum, spans, own&p.Kings, 2)
	n.feed(&sum, spans, opp&^p.Kings, -1)
	n.feed(&sum, spans, opp&p.Kings, -2)
	for _, h := range n.hidden {
		x := sum[h.id]
		if x <= 0 {
			continue
		}
		for _, l := range n.hiddenLinks[h.links.lo:h.links.hi] {
			sum[l.sink] += x * l.weight
		}
	}
	out := sum[Output-FirstL1]
	for _, s := range n.second {
		if x := sum[s.id]; x > 0 {
			out += x * s.weight
		}
	}
	return out
}

// feed adds the sensory synapses of the pieces on bitboard bb, each of
// value v, into sum.
func (n *Network) feed(sum *[computed]float64, spans *[64]span, bb uint64, v float64) {
	for ; bb != 0; bb &= bb - 1 {
		sp := spans[bits.TrailingZeros64(bb)]
		for _, l := range n.sensory[sp.lo:sp.hi] {
			sum[l.sink] += v * l.weight
		}
	}
}

// Evaluate returns Score(Raw(p)).
func (n *Network) Evaluate(p *engine.Position) int {
	return Score(n.Raw(p))
}

// RootView reports true unless the network judges from both sides: the
// values of a plain network for the two sides do not cancel, so a search
// judges every leaf from the root player's side, as neche's own search
// does (engine/search.RootViewer).
func (n *Network) RootView() bool { return !n.both }

// The score map: linear up to LinearLimit, logarithmic beyond.
const (
	// LinearLimit is the largest output scored linearly: 100 per unit, so
	// ±50 (fifty men in G1's units) scores ±5000.
	LinearLimit = 50
	// logScale is the score per unit of ln(|x|/LinearLimit) beyond it.
	logScale = 280
)

// Score maps a network output x to the engine's scale: 100·x while |x| is
// at most 50, so that an output of 1 (one man to the material network G1)
// is one man; beyond, ±(5000 + 280·ln(|x|/50)), rounded. The map is
// strictly increasing and no output a genome can give (at most about 1e9)
// reaches ±eval.ScoreLimit: random genomes often give outputs in the
// hundreds or thousands, and a search that only compares values must see
// those apart, as neche's own float comparisons did, not cut off at one
// limit. NaN scores 0.
func Score(x float64) int {
	switch {
	case x != x:
		return 0
	case x > LinearLimit:
		return eval.ScoreFromFloat(100*LinearLimit + logScale*math.Log(x/LinearLimit))
	case x < -LinearLimit:
		return eval.ScoreFromFloat(-100*LinearLimit - logScale*math.Log(-x/LinearLimit))
	}
	return eval.ScoreFromFloat(100 * x)
}
