// Package neche owns the genomes of neche, the evolved checkers engine of
// seed 000: the DNA-like text encoding (reading and writing), the files neche
// keeps (best_networks.txt, N_nets.txt), the compiled network that evaluates a
// position by walking only its kept synapses, a Graphviz drawing of a network,
// and the "neche" evaluator kind. The rules are those of
// docs/neche-genome.md.
//
// # Spec strings
//
//	neche:PATH#LINE   line LINE (1-based) of a genome file
//	neche:PATH#last   the last genome line of the file (also neche:PATH)
//	neche:RUN         a run folder: the last line of RUN/best_networks.txt,
//	                  the best genome of the last complete generation
//	                  (neche:RUN#LINE for generation LINE-1)
//	neche:=ACGT...    a bare genome given in the spec itself
//	neche:#g1         the built-in material network G1 (men 1, kings 2)
//
// # Score scale
//
// The network's output is used as it is for Raw. Evaluate multiplies it by
// 100 up to ±50, so that an output of 1 (one man in the material network G1)
// is one man on the engine's scale, and compresses larger outputs
// logarithmically (see Score), so that no genome's output is cut off at
// ±eval.ScoreLimit.
package neche

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Neuron ids and sizes of the genome format.
const (
	// GeneLen is the number of letters in one gene.
	GeneLen = 16
	// FirstBias is the first of the bias neurons 32..38; 0..31 are sensory.
	FirstBias = 32
	// FirstL1 is the first neuron of the first inner layer, 39..54.
	FirstL1 = 39
	// FirstL2 is the first neuron of the second inner layer, 55..62.
	FirstL2 = 55
	// Output is the output neuron.
	Output = 63
	// RawBias is subtracted from a gene's raw weight before scaling.
	RawBias = 524288
	// RawScale divides the shifted raw weight.
	RawScale = 10000
	// MaxRaw is the largest raw weight, 4^10-1.
	MaxRaw = 1<<20 - 1
)

const letters = "ACGT"

// Gene is one synapse: a source neuron, a sink neuron and a raw weight.
type Gene struct {
	// Source and Sink are neuron ids, 0..63.
	Source, Sink uint8
	// Raw is the raw weight, 0..MaxRaw.
	Raw uint32
}

// Weight returns the gene's weight, (Raw - 524288) / 10000.
func (g Gene) Weight() float64 { return float64(int32(g.Raw)-RawBias) / RawScale }

// Kept reports whether the synapse is one the network uses: from sensory or
// bias to an inner or the output neuron, from the first inner layer to the
// second or the output, or from the second inner layer to the output.
func (g Gene) Kept() bool {
	s, t := g.Source, g.Sink
	switch {
	case s < FirstL1:
		return t >= FirstL1 && t <= Output
	case s < FirstL2:
		return t >= FirstL2 && t <= Output
	case s < Output:
		return t == Output
	}
	return false
}

// Genome is a list of genes in the order they are written.
type Genome []Gene

// Viable reports whether at least one kept synapse ends at the output.
func (g Genome) Viable() bool {
	for _, x := range g {
		if x.Sink == Output && x.Kept() {
			return true
		}
	}
	return false
}

// String encodes the genome as its letters, 16 per gene, most significant
// digit first.
func (g Genome) String() string {
	var b strings.Builder
	b.Grow(len(g) * GeneLen)
	var buf [GeneLen]byte
	for _, x := range g {
		putDigits(buf[0:3], uint32(x.Source))
		putDigits(buf[3:6], uint32(x.Sink))
		putDigits(buf[6:16], x.Raw)
		b.Write(buf[:])
	}
	return b.String()
}

// putDigits writes v in base 4 into dst, most significant digit first.
func putDigits(dst []byte, v uint32) {
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = letters[v&3]
		v >>= 2
	}
}

// SyntaxError is a genome text that is not a genome. Column is 1-based; it is
// 0 when the error is not about one character (a bad length).
type SyntaxError struct {
	Column int
	Msg    string
}

// Error gives the column of the first bad character, when there is one, and
// what was wrong; the file readers add the file and line.
func (e *SyntaxError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("column %d: %s", e.Column, e.Msg)
	}
	return e.Msg
}

// Parse reads a genome from its letters. A trailing newline or carriage
// return is not part of the genome. It refuses an empty genome, any letter
// other than A, C, G, T (naming the column of the first bad one) and a length
// that is not a multiple of 16, with a *SyntaxError.
func Parse(text string) (Genome, error) {
	text = strings.TrimRight(text, "\r\n")
	if text == "" {
		return nil, &SyntaxError{Msg: "empty genome"}
	}
	for i := 0; i < len(text); i++ {
		if digit(text[i]) < 0 {
			r, _ := utf8.DecodeRuneInString(text[i:])
			return nil, &SyntaxError{Column: i + 1, Msg: fmt.Sprintf("bad letter %q (a genome uses only A, C, G and T)", r)}
		}
	}
	if len(text)%GeneLen != 0 {
		return nil, &SyntaxError{Msg: fmt.Sprintf("length %d is not a multiple of %d", len(text), GeneLen)}
	}
	g := make(Genome, len(text)/GeneLen)
	for k := range g {
		s := text[k*GeneLen : (k+1)*GeneLen]
		g[k] = Gene{Source: uint8(number(s[0:3])), Sink: uint8(number(s[3:6])), Raw: number(s[6:16])}
	}
	return g, nil
}

// digit returns the base-4 value of a letter, or -1.
func digit(c byte) int {
	switch c {
	case 'A':
		return 0
	case 'C':
		return 1
	case 'G':
		return 2
	case 'T':
		return 3
	}
	return -1
}

// number reads checked letters as a base-4 number.
func number(s string) uint32 {
	var v uint32
	for i := 0; i < len(s); i++ {
		v = v<<2 | uint32(digit(s[i]))
	}
	return v
}

// G1 returns the material network of neche's tests: for each neche bit b it
// connects sensory neuron b to the output with weight 1, so it counts men 1
// and kings 2.
func G1() Genome {
	g := make(Genome, 32)
	for b := range g {
		g[b] = Gene{Source: uint8(b), Sink: Output, Raw: RawBias + RawScale}
	}
	return g
}
