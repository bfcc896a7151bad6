// Package neche owns the evolution of neche genomes (docs/evolution.md,
// docs/neche-genome.md): neche's variation operators (uniform crossover per
// gene, point mutation, translocation, non-viable children made again), its
// "quicksort" ranking where each comparison is one game, parents drawn in
// proportion to rank points + 0.5, and the improved mode (colour-reversed
// game pairs from the 3-move ballots against several opponents and a
// ladder of fixed ones, scores shaped by the final piece balance, elitism,
// tournament selection, layer-first initial genes, per-letter mutation
// rates). It writes exactly neche's files:
// RUN/best_networks.txt, one line per generation, and
// RUN/nechedbg/N_nets.txt, the population of generation N.
package neche

import (
	"math/rand/v2"

	genome "github.com/nechecb/nechecb/eval/neche"
)

// letters per gene and the base-4 digits of each field.
const (
	geneLetters = genome.GeneLen
	sourceEnd   = 3 // letters 0-2: the source neuron
	sinkEnd     = 6 // letters 3-5: the sink neuron; 6-15 the raw weight
)

// RandomGene returns a gene of 16 letters each drawn uniformly.
func RandomGene(rng *rand.Rand) genome.Gene {
	return genome.Gene{Source: uint8(rng.IntN(64)), Sink: uint8(rng.IntN(64)), Raw: uint32(rng.IntN(genome.MaxRaw + 1))}
}

// RandomGenome returns a viable genome of genes random genes: a genome that
// is not viable is drawn again.
func RandomGenome(rng *rand.Rand, genes int) genome.Genome {
	for {
		g := make(genome.Genome, genes)
		for i := range g {
			g[i] = RandomGene(rng)
		}
		if g.Viable() {
			return g
		}
	}
}

// keptPairs lists every (source, sink) pair a kept synapse can join.
var keptPairs = func() [][2]uint8 {
	var out [][2]uint8
	for s := range 64 {
		for t := range 64 {
			if (genome.Gene{Source: uint8(s), Sink: uint8(t)}).Kept() {
				out = append(out, [2]uint8{uint8(s), uint8(t)})
			}
		}
	}
	return out
}()

// RandomKeptGene returns a gene whose neurons are drawn uniformly among
// the pairs a kept synapse can join (1127 of the 4096), with a uniform raw
// weight: a random genome of such genes uses every gene.
func RandomKeptGene(rng *rand.Rand) genome.Gene {
	p := keptPairs[rng.IntN(len(keptPairs))]
	return genome.Gene{Source: p[0], Sink: p[1], Raw: uint32(rng.IntN(genome.MaxRaw + 1))}
}

// RandomKeptGenome returns a viable genome of genes random kept genes.
func RandomKeptGenome(rng *rand.Rand, genes int) genome.Genome {
	for {
		g := make(genome.Genome, genes)
		for i := range g {
			g[i] = RandomKeptGene(rng)
		}
		if g.Viable() {
			return g
		}
	}
}

// layers lists the sinks of kept synapses layer by layer (the first inner
// layer, the second, the output), each with the sources that may feed it.
var layers = func() [][]layerSink {
	bounds := [][2]int{{genome.FirstL1, genome.FirstL2}, {genome.FirstL2, genome.Output}, {genome.Output, genome.Output + 1}}
	out := make([][]layerSink, len(bounds))
	for k, b := range bounds {
		for t := b[0]; t < b[1]; t++ {
			ls := layerSink{sink: uint8(t)}
			for s := range 64 {
				if (genome.Gene{Source: uint8(s), Sink: uint8(t)}).Kept() {
					ls.sources = append(ls.sources, uint8(s))
				}
			}
			out[k] = append(out[k], ls)
		}
	}
	return out
}()

// layerSink is one sink neuron and the sources a kept synapse into it may
// come from.
type layerSink struct {
	sink    uint8
	sources []uint8
}

// RandomLayerGene returns a kept gene drawn layer first: the sink's layer
// uniformly among the first inner layer, the second inner layer and the
// output, the sink uniformly within it, then the source uniformly among
// those a kept synapse into that sink may come from; the raw weight is
// uniform. A third of such genes end at the output.
func RandomLayerGene(rng *rand.Rand) genome.Gene {
	return layerGene(rng, rng.IntN(len(layers)))
}

// layerGene returns a kept gene into layer k (0 the first inner layer, 1
// the second, 2 the output): the sink uniform within the layer, the source
// uniform among those that may feed it, the raw weight uniform.
func layerGene(rng *rand.Rand, k int) genome.Gene {
	layer := layers[k]
	ls := layer[rng.IntN(len(layer))]
	return genome.Gene{Source: ls.sources[rng.IntN(len(ls.sources))], Sink: ls.sink, Raw: uint32(rng.IntN(genome.MaxRaw + 1))}
}

// RandomRaw returns a raw weight drawn uniformly among those whose weight
// lies within [−w, +w]; w <= 0 or beyond the range means the whole range.
func RandomRaw(rng *rand.Rand, w float64) uint32 {
	span := int(w * genome.RawScale)
	if w <= 0 || span >= genome.RawBias {
		return uint32(rng.IntN(genome.MaxRaw + 1))
	}
	return uint32(genome.RawBias - span + rng.IntN(2*span+1))
}

// RandomLayerGenome returns a viable genome of genes random layer-first
// genes whose weights lie within [−weight, +weight] (0: the whole range).
// mix, when it holds 3 positive numbers, weighs the choice of the sink's
// layer (first inner, second inner, output) instead of drawing it
// uniformly.
func RandomLayerGenome(rng *rand.Rand, genes int, weight float64, mix []float64) genome.Genome {
	for {
		g := make(genome.Genome, genes)
		for i := range g {
			if len(mix) == len(layers) {
				g[i] = layerGene(rng, Roulette(rng, mix))
			} else {
				g[i] = RandomLayerGene(rng)
			}
			if weight > 0 {
				g[i].Raw = RandomRaw(rng, weight)
			}
		}
		if g.Viable() {
			return g
		}
	}
}

// Crossover returns a child of a and b (of equal length) that takes each
// gene, whole and in place, from a or from b with probability 1/2.
func Crossover(rng *rand.Rand, a, b genome.Genome) genome.Genome {
	child := make(genome.Genome, len(a))
	for i := range child {
		if rng.IntN(2) == 0 {
			child[i] = a[i]
		} else {
			child[i] = b[i]
		}
	}
	return child
}

// Letter returns letter k (0..15, most significant first) of gene x as a
// base-4 digit.
func Letter(x genome.Gene, k int) int {
	switch {
	case k < sourceEnd:
		return int(x.Source>>(2*(sourceEnd-1-k))) & 3
	case k < sinkEnd:
		return int(x.Sink>>(2*(sinkEnd-1-k))) & 3
	}
	return int(x.Raw>>(2*(geneLetters-1-k))) & 3
}

// setLetter sets letter k of gene x to digit d.
func setLetter(x *genome.Gene, k, d int) {
	switch {
	case k < sourceEnd:
		s := 2 * (sourceEnd - 1 - k)
		x.Source = x.Source&^(3<<s) | uint8(d)<<s
	case k < sinkEnd:
		s := 2 * (sinkEnd - 1 - k)
		x.Sink = x.Sink&^(3<<s) | uint8(d)<<s
	default:
		s := 2 * (geneLetters - 1 - k)
		x.Raw = x.Raw&^(3<<s) | uint32(d)<<s
	}
}

// PointMutate replaces each letter of g, with probability rate, by a letter
// drawn uniformly from A, C, G and T (so a quarter of the replacements
// leave the letter as it was), and returns the number of replacements.
func PointMutate(rng *rand.Rand, g genome.Genome, rate float64) int {
	if rate <= 0 {
		return 0
	}
	n := 0
	for i := range g {
		for k := range geneLetters {
			if rng.Float64() < rate {
				setLetter(&g[i], k, rng.IntN(4))
				n++
			}
		}
	}
	return n
}

// Translocate cuts a random run of whole genes out of g and puts it back
// at a random gene boundary of what is left, in place: the run starts at a
// uniform gene, its length is uniform from 1 to the genes after that start,
// and the new place is uniform among the boundaries of the rest.
func Translocate(rng *rand.Rand, g genome.Genome) {
	n := len(g)
	if n < 2 {
		return
	}
	start := rng.IntN(n)
	length := 1 + rng.IntN(n-start)
	run := append(genome.Genome(nil), g[start:start+length]...)
	rest := append(append(genome.Genome(nil), g[:start]...), g[start+length:]...)
	at := rng.IntN(len(rest) + 1)
	copy(g, rest[:at])
	copy(g[at:], run)
	copy(g[at+length:], rest[at:])
}

// PointMutateLetters is PointMutate with a rate for each letter position
// of a gene: letter k of every gene is replaced with probability rates[k].
// It returns the number of replacements.
func PointMutateLetters(rng *rand.Rand, g genome.Genome, rates *[geneLetters]float64) int {
	n := 0
	for i := range g {
		for k := range geneLetters {
			if rates[k] > 0 && rng.Float64() < rates[k] {
				setLetter(&g[i], k, rng.IntN(4))
				n++
			}
		}
	}
	return n
}

// Variation is the mutation part of making a child.
type Variation struct {
	// PointRate is the chance of each letter to be replaced (neche: 0.001).
	PointRate float64
	// LetterRates, when set, replaces PointRate with a chance for each of
	// the 16 letter positions of a gene (0-2 source, 3-5 sink, 6-15 the
	// weight, most significant first).
	LetterRates *[geneLetters]float64
	// TranslocationRate is the chance of each child to have a run of genes
	// moved (neche: 0.02).
	TranslocationRate float64
}

// Mutate applies point mutation to every letter of g, then, with
// probability TranslocationRate, a translocation. It returns the number of
// letters redrawn and whether a translocation happened.
func (v Variation) Mutate(rng *rand.Rand, g genome.Genome) (points int, translocated bool) {
	if v.LetterRates != nil {
		points = PointMutateLetters(rng, g, v.LetterRates)
	} else {
		points = PointMutate(rng, g, v.PointRate)
	}
	if rng.Float64() < v.TranslocationRate {
		Translocate(rng, g)
		translocated = true
	}
	return points, translocated
}

// Child makes one viable child: it draws two parents with parents (which
// may return the same genome twice), crosses them over gene by gene and
// mutates the result; a child that is not viable is made again from new
// parents. It returns the child and the number of attempts it took.
func Child(rng *rand.Rand, parents func() (a, b genome.Genome), v Variation) (genome.Genome, int) {
	for tries := 1; ; tries++ {
		a, b := parents()
		child := Crossover(rng, a, b)
		v.Mutate(rng, child)
		if child.Viable() || tries >= maxTries {
			return child, tries
		}
	}
}

// maxTries bounds the attempts at a viable child, so that a population
// with no viable genome at all cannot loop for ever; the last attempt is
// returned even if it is not viable.
const maxTries = 10000

// Roulette draws index i with probability weights[i] / sum(weights); the
// weights must be positive.
func Roulette(rng *rand.Rand, weights []float64) int {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	x := rng.Float64() * total
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}
