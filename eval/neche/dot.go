package neche

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/badinput"
)

// squareOfSensory[i] is the standard square that sensory neuron i sees when
// the evaluated side plays White.
var squareOfSensory [32]int

func init() {
	for s, b := range NecheBit {
		squareOfSensory[b] = s + 1
	}
}

// WriteDOT draws the network of g as a Graphviz digraph in the style of
// neche's write_to_dot: one node per neuron that a kept synapse touches,
// shaped by layer (sensory circle, bias double circle, first inner layer
// square, second inner layer diamond, output triple octagon) and laid out left
// to right; sensory neurons are labelled with the square they see from
// White's side, in algebraic and numeric form ("d6 10"). Each kept synapse is
// an edge labelled with its weight, green when positive and red when
// negative, thicker when larger; synapses that cannot reach the output are
// dashed and grey. Render it with `dot -Tsvg`.
func WriteDOT(w io.Writer, g Genome) error {
	t := linksOf(g)
	reaches := t.reachesOutput()
	var used [64]bool
	for i := range 64 {
		for j := range 64 {
			if t.has[i][j] {
				used[i], used[j] = true, true
			}
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "digraph neche {\n\trankdir=LR;\n\tnode [fontsize=10];\n")
	fmt.Fprintf(bw, "\tlabel=\"neche network: %d genes, %d kept synapses\";\n", len(g), t.count)
	layers := []struct {
		name, shape string
		from, to    int
	}{
		{"sensory", "circle", 0, FirstBias}, {"bias", "doublecircle", FirstBias, FirstL1},
		{"layer1", "square", FirstL1, FirstL2}, {"layer2", "diamond", FirstL2, Output},
		{"output", "tripleoctagon", Output, Output + 1},
	}
	for _, l := range layers {
		fmt.Fprintf(bw, "\tsubgraph %s {\n\t\trank=same;\n\t\tnode [shape=%s];\n", l.name, l.shape)
		for i := l.from; i < l.to; i++ {
			if used[i] {
				fmt.Fprintf(bw, "\t\tn%d [label=%q];\n", i, neuronLabel(i))
			}
		}
		fmt.Fprintf(bw, "\t}\n")
	}
	for i := range 64 {
		for j := range 64 {
			if !t.has[i][j] {
				continue
			}
			wt := t.weight[i][j]
			color, style := "green", "solid"
			if wt < 0 {
				color = "red"
			}
			if !reaches[j] {
				color, style = "grey", "dashed"
			}
			width := 0.5 + math.Min(4, math.Abs(wt)/5)
			fmt.Fprintf(bw, "\tn%d -> n%d [label=\"%.4f\", color=%s, fontcolor=%s, style=%s, penwidth=%.2f];\n",
				i, j, wt, color, color, style, width)
		}
	}
	fmt.Fprintf(bw, "}\n")
	return bw.Flush()
}

// neuronLabel names neuron i for a drawing.
func neuronLabel(i int) string {
	switch {
	case i < FirstBias:
		s := squareOfSensory[i]
		return fmt.Sprintf("%s %d", engine.SquareName(s), s)
	case i < FirstL1:
		return fmt.Sprintf("bias %d", i)
	case i < Output:
		return fmt.Sprintf("%d", i)
	}
	return "OUT"
}

// WriteSpecDOT writes the DOT drawing (WriteDOT) of the neche genome that
// the evaluator spec names. A spec that does not parse, names another kind
// or names no genome is bad input (internal/badinput).
func WriteSpecDOT(w io.Writer, spec string) error {
	s, err := eval.ParseSpec(spec)
	if err != nil {
		return badinput.Mark(err)
	}
	if s.Name != "neche" {
		return badinput.Mark(fmt.Errorf("--dot draws neche networks only, not %q", s.Name))
	}
	g, err := FromSpec(s.Path, s.Selector)
	if err != nil {
		return badinput.Mark(fmt.Errorf("evaluator %s: %w", s, err))
	}
	return WriteDOT(w, g)
}
