// Package tdleaf owns the TD-Leaf(lambda) evaluator: a small multilayer
// perceptron over checkers features (the heuristic's own-minus-opponent
// feature counts, each multiplied by a scale), with ReLU hidden layers and a
// tanh output, as in the seed; its text format; its forward pass and
// gradient. The TD-Leaf(lambda) trainer is in train/tdleaf.
//
// Spec form: "tdleaf:PATH". The raw value J, in (−1, 1), is the expected
// outcome for the side to move (+1 a win, −1 a loss). The score is
// 200·atanh(J), clamped to ±eval.ScoreLimit: with the logistic link of the
// heuristic's Texel fit at k = 1, an advantage of one man (100) corresponds
// to J = tanh(0.5) ≈ 0.46.
package tdleaf

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/heuristic"
)

// ScorePerUnit converts atanh(J) to the engine's scale.
const ScorePerUnit = 200

// Input is one network input: a heuristic feature and the factor that
// brings its usual range to about [−1, 1].
type Input struct {
	Feature int // a heuristic feature number
	Scale   float64
}

// Name returns the input's feature name.
func (in Input) Name() string { return heuristic.FeatureNames[in.Feature] }

// Network is the MLP. Layer k (1-based) maps Sizes[k−1] values to Sizes[k]
// with weights W[k−1] (row-major, Sizes[k] rows of Sizes[k−1]) and biases
// B[k−1]; hidden layers use ReLU, the last (one unit) tanh.
type Network struct {
	Inputs []Input
	Sizes  []int
	W, B   [][]float64
}

// DefaultInputs are the features a new network reads, with their scales.
var DefaultInputs = []Input{
	{heuristic.Men, 1.0 / 6}, {heuristic.Kings, 1.0 / 6}, {heuristic.Mobility, 1.0 / 8},
	{heuristic.PromotionDistance, 1.0 / 20}, {heuristic.BackRank, 1.0 / 4}, {heuristic.Jumps, 1.0 / 2},
	{heuristic.CentreMen, 1.0 / 4}, {heuristic.Runaways, 1.0 / 2},
}

// New makes a network reading inputs through the hidden layer sizes, with
// weights drawn uniformly from ±1/sqrt(fan-in) and zero biases.
func New(inputs []Input, hidden []int, rng *rand.Rand) (*Network, error) {
	n := &Network{Inputs: append([]Input(nil), inputs...), Sizes: append(append([]int{len(inputs)}, hidden...), 1)}
	if err := n.check(); err != nil {
		return nil, err
	}
	for k := 1; k < len(n.Sizes); k++ {
		in, out := n.Sizes[k-1], n.Sizes[k]
		w := make([]float64, in*out)
		r := 1 / math.Sqrt(float64(in))
		for i := range w {
			w[i] = r * (2*rng.Float64() - 1)
		}
		n.W = append(n.W, w)
		n.B = append(n.B, make([]float64, out))
	}
	return n, nil
}

// maxUnits bounds every layer's size, so that a file cannot ask for an
// absurd amount of memory.
const maxUnits = 4096

// check validates the shape (not the weights).
func (n *Network) check() error {
	if len(n.Inputs) == 0 {
		return fmt.Errorf("the network has no inputs")
	}
	if len(n.Sizes) < 2 || n.Sizes[0] != len(n.Inputs) || n.Sizes[len(n.Sizes)-1] != 1 {
		return fmt.Errorf("layer sizes %v: want %d inputs first and 1 output last", n.Sizes, len(n.Inputs))
	}
	for _, s := range n.Sizes {
		if s < 1 || s > maxUnits {
			return fmt.Errorf("layer size %d is outside 1..%d", s, maxUnits)
		}
	}
	seen := map[int]bool{}
	for _, in := range n.Inputs {
		if in.Feature < 0 || in.Feature >= heuristic.NumFeatures {
			return fmt.Errorf("unknown feature number %d", in.Feature)
		}
		if seen[in.Feature] {
			return fmt.Errorf("input %s appears twice", in.Name())
		}
		seen[in.Feature] = true
	}
	return nil
}

// NumParams returns the number of weights and biases.
func (n *Network) NumParams() int {
	total := 0
	for k := range n.W {
		total += len(n.W[k]) + len(n.B[k])
	}
	return total
}

// Clone returns a deep copy of n.
func (n *Network) Clone() *Network {
	c := &Network{Inputs: append([]Input(nil), n.Inputs...), Sizes: append([]int(nil), n.Sizes...)}
	for k := range n.W {
		c.W = append(c.W, append([]float64(nil), n.W[k]...))
		c.B = append(c.B, append([]float64(nil), n.B[k]...))
	}
	return c
}

// Scratch holds one evaluation's activations, so that evaluating does not
// allocate. Each goroutine needs its own.
type Scratch struct {
	act [][]float64 // act[0] inputs, act[k] layer k's outputs
}

// NewScratch makes scratch space sized for n.
func (n *Network) NewScratch() *Scratch {
	s := &Scratch{act: make([][]float64, len(n.Sizes))}
	for k, size := range n.Sizes {
		s.act[k] = make([]float64, size)
	}
	return s
}

// Forward returns J for the input vector already in s.act[0], leaving every
// layer's activations in s for Backward.
func (n *Network) forward(s *Scratch) float64 {
	last := len(n.W) - 1
	for k, w := range n.W {
		in, out := s.act[k], s.act[k+1]
		for o := range out {
			row := w[o*len(in) : (o+1)*len(in)]
			z := n.B[k][o]
			for i, x := range in {
				z += row[i] * x
			}
			if k == last {
				out[o] = math.Tanh(z)
			} else {
				out[o] = max(z, 0)
			}
		}
	}
	return s.act[len(s.act)-1][0]
}

// setInputs fills s.act[0] from the features of p for the side to move.
func (n *Network) setInputs(p *engine.Position, s *Scratch) {
	f := heuristic.Features(p)
	for i, in := range n.Inputs {
		s.act[0][i] = f[in.Feature] * in.Scale
	}
}

// Value returns J(p) for the side to move.
func (n *Network) Value(p *engine.Position, s *Scratch) float64 {
	n.setInputs(p, s)
	return n.forward(s)
}

// Gradient adds scale·∂J/∂θ at p to grad (shaped like n: a network of
// gradients) and returns J(p).
func (n *Network) Gradient(p *engine.Position, s *Scratch, scale float64, grad *Network) float64 {
	j := n.Value(p, s)
	last := len(n.W) - 1
	// delta holds ∂J/∂z for the units of the layer being processed.
	delta := []float64{scale * (1 - j*j)}
	for k := last; k >= 0; k-- {
		in := s.act[k]
		var next []float64
		if k > 0 {
			next = make([]float64, len(in))
		}
		for o, d := range delta {
			if d == 0 {
				continue
			}
			grad.B[k][o] += d
			row := n.W[k][o*len(in) : (o+1)*len(in)]
			grow := grad.W[k][o*len(in) : (o+1)*len(in)]
			for i, x := range in {
				grow[i] += d * x
				if next != nil && x > 0 { // ReLU passes the gradient where active
					next[i] += d * row[i]
				}
			}
		}
		delta = next
	}
	return j
}

// Zero returns a network of the same shape with all parameters 0, to hold
// gradients.
func (n *Network) Zero() *Network {
	z := n.Clone()
	for k := range z.W {
		clear(z.W[k])
		clear(z.B[k])
	}
	return z
}

// AddScaled adds a·g to n's parameters.
func (n *Network) AddScaled(a float64, g *Network) {
	for k := range n.W {
		for i := range n.W[k] {
			n.W[k][i] += a * g.W[k][i]
		}
		for i := range n.B[k] {
			n.B[k][i] += a * g.B[k][i]
		}
	}
}

// Evaluator evaluates with a Network and its own scratch space.
type Evaluator struct {
	n *Network
	s *Scratch
}

// NewEvaluator returns an evaluator reading n, which must not change while
// the evaluator is in use.
func NewEvaluator(n *Network) *Evaluator { return &Evaluator{n: n, s: n.NewScratch()} }

// Raw returns J for the side to move.
func (e *Evaluator) Raw(p *engine.Position) float64 { return e.n.Value(p, e.s) }

// Evaluate returns 200·atanh(J), rounded and clamped.
func (e *Evaluator) Evaluate(p *engine.Position) int {
	return eval.ScoreFromFloat(ScorePerUnit * math.Atanh(e.Raw(p)))
}

// Factory returns a Factory of evaluators reading n.
func Factory(n *Network) eval.Factory {
	return func() eval.Evaluator { return NewEvaluator(n) }
}

func init() {
	eval.Register("tdleaf", func(path, selector string) (eval.Factory, error) {
		if path == "" {
			return nil, fmt.Errorf("tdleaf needs a network file (tdleaf:PATH)")
		}
		if selector != "" {
			return nil, fmt.Errorf("tdleaf takes no selector (got #%s)", selector)
		}
		n, err := ReadFile(path)
		if err != nil {
			return nil, err
		}
		return Factory(n), nil
	})
}
