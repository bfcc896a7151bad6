package blondie

import (
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

func init() {
	for s := 1; s <= 32; s++ {
		b := bits.TrailingZeros64(engine.SquareBit(s))
		inputOf[engine.White][b] = uint8(s - 1)
		inputOf[engine.Black][b] = uint8(32 - s)
	}
	eval.Register("blondie", func(path, selector string) (eval.Factory, error) {
		if path == "" || selector != "" {
			return nil, fmt.Errorf("want blondie:PATH, a blondie24 v1 file or an evolution run folder")
		}
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			if path, err = RunBest(path); err != nil {
				return nil, err
			}
		}
		n, err := ReadFile(path)
		if err != nil {
			return nil, err
		}
		net, err := Compile(n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return func() eval.Evaluator { return net }, nil
	})
}

// RunBestDir is the folder of an evolution run (nechecb evolve blondie)
// that holds the best network of each generation, as NNNN.txt (the
// generation's number, zero-padded to at least four digits).
const RunBestDir = "best"

// RunBestFile returns the file of the best network of generation gen of
// the run in folder dir.
func RunBestFile(dir string, gen int) string {
	return filepath.Join(dir, RunBestDir, fmt.Sprintf("%04d", gen)+runBestExt)
}

// runBestExt ends the name of a run's best network files.
const runBestExt = ".txt"

// RunBest returns the file of the best network of the last generation of
// the run in folder dir: the highest-numbered file in dir/best.
func RunBest(dir string) (string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, RunBestDir))
	if err != nil {
		return "", fmt.Errorf("%s is not a blondie run folder: %w", dir, err)
	}
	best, path := -1, ""
	for _, e := range entries {
		num, ok := strings.CutSuffix(e.Name(), runBestExt)
		gen, err := strconv.Atoi(num)
		if !ok || err != nil || gen < 0 || e.IsDir() {
			continue
		}
		if gen > best {
			best, path = gen, filepath.Join(dir, RunBestDir, e.Name())
		}
	}
	if path == "" {
		return "", fmt.Errorf("%s: no generation is complete yet (%s/ holds no NNNN.txt)", dir, RunBestDir)
	}
	return path, nil
}

// inputOf[side][b] is the input that engine bit b feeds when side is
// evaluated: square s is input s-1 for White, and 32-s (the board turned
// round) for Black.
var inputOf [2][64]uint8

// Largest layer widths, for the scratch arrays of a forward pass.
const (
	maxFirst  = 91
	maxHidden = 40
)

// Network is a Net compiled for evaluation. The first computing layer is
// stored by input, so a position costs only its pieces; later layers are
// dense. It is read-only after Compile; one Network serves every thread.
type Network struct {
	king, pieceDiff float64
	// first layer: biases, and for each input the nodes it feeds.
	firstBias  []float64
	feeds      [Inputs]struct{ lo, hi uint16 }
	firstLinks []link
	// rest are the dense layers after the first, in order; the last one is
	// the output node.
	rest []dense
	// file is the network's file, for Describe.
	file []byte
}

// Describe returns the network as the kind "blondie" and its blondie24 v1
// file.
func (net *Network) Describe() (kind, selector string, data []byte) {
	return "blondie", "", net.file
}

// link feeds an input into first-layer node node with weight w.
type link struct {
	node int
	w    float64
}

// dense is a fully connected tanh layer: node j's bias is w[j*(in+1)], its
// weights w[j*(in+1)+1 : (j+1)*(in+1)].
type dense struct {
	in, out int
	w       []float64
}

// Compile checks n and builds its evaluator. The evaluator keeps its own
// copy of the weights, so changing n afterwards does not change it.
func Compile(n *Net) (*Network, error) {
	if err := n.Check(); err != nil {
		return nil, err
	}
	net := &Network{king: n.King, pieceDiff: n.PieceDiff, file: n.Format()}
	w := n.Weights
	sizes := n.Arch.layerSizes()
	// sources[j] lists the inputs of first-layer node j.
	var sources [][]int
	if n.Arch == Arch2001 {
		sources = subBoards
	} else {
		all := make([]int, Inputs)
		for i := range all {
			all[i] = i
		}
		sources = make([][]int, sizes[0])
		for j := range sources {
			sources[j] = all
		}
	}
	byInput := make([][]link, Inputs)
	k := 0
	for j, src := range sources {
		net.firstBias = append(net.firstBias, w[k])
		for _, i := range src {
			k++
			byInput[i] = append(byInput[i], link{node: j, w: w[k]})
		}
		k++
	}
	for i, links := range byInput {
		net.feeds[i].lo = uint16(len(net.firstLinks))
		net.firstLinks = append(net.firstLinks, links...)
		net.feeds[i].hi = uint16(len(net.firstLinks))
	}
	prev := sizes[0]
	for _, s := range sizes[1:] {
		size := s * (prev + 1)
		net.rest = append(net.rest, dense{in: prev, out: s, w: append([]float64(nil), w[k:k+size]...)})
		k += size
		prev = s
	}
	return net, nil
}

// Raw returns the output node's tanh for the side to move.
func (net *Network) Raw(p *engine.Position) float64 {
	var a [maxFirst]float64
	first := a[:len(net.firstBias)]
	copy(first, net.firstBias)
	side := p.Side
	own, opp := p.Pieces[side], p.Pieces[side.Opponent()]
	inputs := &inputOf[side]
	net.feed(first, inputs, own&^p.Kings, 1)
	net.feed(first, inputs, own&p.Kings, net.king)
	net.feed(first, inputs, opp&^p.Kings, -1)
	net.feed(first, inputs, opp&p.Kings, -net.king)
	for i := range first {
		first[i] = math.Tanh(first[i])
	}
	var buf [2][maxHidden]float64
	in := first
	last := len(net.rest) - 1
	for k, l := range net.rest[:last] {
		out := buf[k%2][:l.out]
		l.forward(in, out, 0)
		in = out
	}
	men := bits.OnesCount64(own&^p.Kings) - bits.OnesCount64(opp&^p.Kings)
	kings := bits.OnesCount64(own&p.Kings) - bits.OnesCount64(opp&p.Kings)
	diff := float64(men) + net.king*float64(kings)
	var result [1]float64
	net.rest[last].forward(in, result[:], net.pieceDiff*diff)
	return result[0]
}

// feed adds the first-layer links of the pieces on bb, each of value v.
func (net *Network) feed(first []float64, inputs *[64]uint8, bb uint64, v float64) {
	for ; bb != 0; bb &= bb - 1 {
		f := net.feeds[inputs[bits.TrailingZeros64(bb)]]
		for _, l := range net.firstLinks[f.lo:f.hi] {
			first[l.node] += v * l.w
		}
	}
}

// forward computes out[j] = tanh(bias_j + extra + sum of w·in).
func (l *dense) forward(in, out []float64, extra float64) {
	stride := l.in + 1
	for j := range out {
		row := l.w[j*stride : (j+1)*stride]
		out[j] = math.Tanh(row[0] + extra + dot(in, row[1:]))
	}
}

// dot returns the dot product of a and b[:len(a)], summed in four
// independent chains so that the additions overlap.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Evaluate returns Raw times ScorePerUnit, rounded and clamped to
// ±eval.ScoreLimit.
func (net *Network) Evaluate(p *engine.Position) int {
	return eval.ScoreFromFloat(ScorePerUnit * net.Raw(p))
}

// RootView reports true: the network's values for the two sides do not
// cancel, so a search judges every leaf from the root player's side, as
// neche's own search does (engine/search.RootViewer).
func (net *Network) RootView() bool { return true }
