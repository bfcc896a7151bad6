package neche

import (
	"bufio"
	"fmt"
	"io"
	"math"
)

// squareOfSensory[i] is the standard square that sensory neuron i sees when
// the evaluated side plays White.
var squareOfSensory [32]int

func init() {
	for s, b := range NecheBit {
		squareOfSensory[b] = s + 1
	}
}

// WriteDOT draws the network of g as a Graphviz digraph, in the spirit of
// neche's write_to_dot: one node per neuron that a kept synapse touches, laid
// out left to right by layer (sensory and bias, first inner layer, second
// inner layer, output), one edge per kept synapse labelled with its weight,
// blue when positive and red when negative, thicker when larger. Synapses
// that cannot reach the output are drawn dashed and grey. Sensory neurons are
// labelled with the square they see from White's side. Render it with
// `dot -Tsvg`.
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
	fmt.Fprintf(bw, "digraph neche {\n\trankdir=LR;\n\tnode [shape=circle, fontsize=10, fixedsize=true, width=0.6];\n")
	fmt.Fprintf(bw, "\tlabel=\"neche network: %d genes, %d kept synapses\";\n", len(g), t.count)
	layers := []struct {
		name     string
		from, to int
	}{{"input", 0, FirstL1}, {"layer1", FirstL1, FirstL2}, {"layer2", FirstL2, Output}, {"output", Output, Output + 1}}
	for _, l := range layers {
		fmt.Fprintf(bw, "\tsubgraph %s {\n\t\trank=same;\n", l.name)
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
			color := "blue"
			if wt < 0 {
				color = "red"
			}
			style := "solid"
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
		return fmt.Sprintf("sq %d", squareOfSensory[i])
	case i < FirstL1:
		return fmt.Sprintf("bias %d", i)
	case i < FirstL2:
		return fmt.Sprintf("h%d", i)
	case i < Output:
		return fmt.Sprintf("g%d", i)
	}
	return "out"
}
