package cnn

import (
	"math/rand/v2"

	net "github.com/nechecb/nechecb/eval/cnn"
)

// Crossover returns the two children of a and b cut at x (1..247): the
// first is a[0:x] followed by b[x:247], the second b[0:x] followed by
// a[x:247].
func Crossover(a, b *net.Weights, x int) (c1, c2 net.Weights) {
	copy(c1[:x], a[:x])
	copy(c1[x:], b[x:])
	copy(c2[:x], b[:x])
	copy(c2[x:], a[x:])
	return c1, c2
}

// CutPoint draws the crossover point as the seed did: an integer from 1 to
// 247 inclusive.
func CutPoint(rng *rand.Rand) int { return 1 + rng.IntN(net.NumWeights) }

// Mutant returns w with an independent uniform step in [−r, r) added to
// every weight.
func Mutant(rng *rand.Rand, w *net.Weights, r float64) net.Weights {
	var m net.Weights
	for i := range m {
		m[i] = w[i] + (2*rng.Float64()-1)*r
	}
	return m
}

// Breed makes generation gen from the survivors (best first): the
// survivors themselves, unchanged and keeping their names; then, for
// every pair of them in order (i < j), the two children of a one-point
// crossover at a random cut; then mutants mutants of each of those
// networks in turn. The new networks are named GenG_0000 on, in that
// order. With the seed's 16 survivors that is 16 + 240 + 768 = 1024.
func Breed(rng *rand.Rand, survivors []net.Row, gen, mutants int, r float64) []net.Row {
	out := append([]net.Row(nil), survivors...)
	made := 0
	add := func(w net.Weights) {
		out = append(out, net.Row{Name: net.RowName(gen, made), Weights: w})
		made++
	}
	for i := range survivors {
		for j := i + 1; j < len(survivors); j++ {
			c1, c2 := Crossover(&survivors[i].Weights, &survivors[j].Weights, CutPoint(rng))
			add(c1)
			add(c2)
		}
	}
	base := len(out)
	for k := range base {
		for range mutants {
			add(Mutant(rng, &out[k].Weights, r))
		}
	}
	return out
}
