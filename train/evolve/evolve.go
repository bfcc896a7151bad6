// Package evolve owns what nechecb's evolutionary learners share
// (docs/evolution.md): the pool of workers that plays a generation's games,
// the random numbers derived from (seed, generation, purpose, index) so that
// one seed reproduces a run whatever the number of workers, the run folder
// (created, refused when not empty, resumed), the learning curve against
// fixed opponents (curve.tsv and its SVG chart), the per-generation progress
// report and the speed benchmark. The learners themselves live below it:
// train/evolve/neche (neche's genomes), train/evolve/blondie (Blondie24) and
// train/evolve/cnn (the seed CNN).
package evolve

import (
	"math/bits"
	"math/rand/v2"
)

// Stream names the purpose of a run's random numbers, so that the numbers
// used for one purpose never depend on how many were drawn for another.
// Learners number their own purposes from StreamLearner on.
type Stream uint64

// Streams the shared code uses.
const (
	// StreamCurve seeds the curve games.
	StreamCurve Stream = 1
	// StreamLearner is the first stream left to the learners.
	StreamLearner Stream = 16
)

// mix is the splitmix64 finaliser: a bijection of 64-bit words that spreads
// every input bit over the output.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// GameSeed returns the seed of game index of generation gen for purpose
// stream in a run seeded with seed. It depends on nothing else: not on the
// worker that plays the game, nor on when.
func GameSeed(seed uint64, gen int, stream Stream, index int) uint64 {
	return mix(mix(mix(mix(seed)^uint64(gen))^uint64(stream)) ^ uint64(index))
}

// Rand returns the random source of generation gen for purpose stream in a
// run seeded with seed. Two calls with the same arguments give the same
// numbers.
func Rand(seed uint64, gen int, stream Stream) *rand.Rand {
	s := GameSeed(seed, gen, stream, -1)
	return rand.New(rand.NewPCG(s, mix(s)))
}

// Stats is what a learner reports about one generation.
type Stats struct {
	// Games is the number of games the generation played (the curve's
	// not counted).
	Games int
	// Best and Mean are the best and the mean fitness of the generation,
	// in the learner's own measure (docs/evolution.md says which).
	Best, Mean float64
}

// count returns the number of bits set in b.
func count(b uint64) int { return bits.OnesCount64(b) }

// The modes of every learner: the method as its source describes it, and
// with the changes docs/evolution.md lists.
const (
	Faithful = "faithful"
	Improved = "improved"
)
