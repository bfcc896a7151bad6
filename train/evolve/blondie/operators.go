// Package blondie owns the evolution of Blondie24 networks
// (docs/evolution.md, docs/blondie24.md): Chellapilla and Fogel's (15+15)
// evolution strategy with self-adaptive Gaussian mutation of every weight
// and an evolving king value K in [1, 3], each network playing five games
// as the first mover against random opponents for +1 / 0 / −2, for the 1999
// and the 2001 architectures; and an improved mode (colour-reversed game
// pairs from the 3-move ballots against several opponents, scored for both
// players, and elitism). Networks are written as blondie24 v1 files with
// their step sizes: RUN/parents/NNNN/PP.txt for the population starting
// generation NNNN, RUN/best/NNNN.txt for the best of each generation.
package blondie

import (
	"math"
	"math/rand/v2"

	net "github.com/nechecb/nechecb/eval/blondie"
)

// Tau returns the learning rate of the step sizes for n evolving weights:
// 1/sqrt(2·sqrt(n)).
func Tau(n int) float64 { return 1 / math.Sqrt(2*math.Sqrt(float64(n))) }

// Weights returns the number of evolving weights of an architecture: its
// weights and the piece-difference weight (1742 for 1999, 5047 for 2001).
func Weights(a net.Arch) int { return a.NumWeights() + 1 }

// KingStep is the spread of the king value's log-normal step: K' =
// K·exp(N(0,1)/√2).
var KingStep = 1 / math.Sqrt2

// Offspring returns the child of parent: every step size σ becomes
// σ·exp(τ·N(0,1)), then its weight w becomes w + σ'·N(0,1) (the
// piece-difference weight the same way, with its own step size), and K
// becomes K·exp(N(0,1)/√2) kept within [1, 3]. A parent without step sizes
// gets the paper's starting ones (0.05) first.
func Offspring(rng *rand.Rand, parent *net.Net, tau float64) *net.Net {
	child := &net.Net{Arch: parent.Arch, King: parent.King, PieceDiff: parent.PieceDiff, PieceDiffSigma: parent.PieceDiffSigma}
	child.Weights = make([]float64, len(parent.Weights))
	child.Sigmas = make([]float64, len(parent.Weights))
	for i, w := range parent.Weights {
		s := net.InitSigma
		if parent.Sigmas != nil {
			s = parent.Sigmas[i]
		}
		s *= math.Exp(tau * rng.NormFloat64())
		child.Sigmas[i] = s
		child.Weights[i] = w + s*rng.NormFloat64()
	}
	if child.PieceDiffSigma <= 0 {
		child.PieceDiffSigma = net.InitSigma
	}
	child.PieceDiffSigma *= math.Exp(tau * rng.NormFloat64())
	child.PieceDiff += child.PieceDiffSigma * rng.NormFloat64()
	child.King = min(max(parent.King*math.Exp(KingStep*rng.NormFloat64()), net.MinKing), net.MaxKing)
	return child
}
