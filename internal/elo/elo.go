// Package elo owns nechecb's match statistics, used by the match runner and
// by the training games alike: the tally of a match (wins, losses, draws
// and, where games come in colour-reversed pairs, the pentanomial counts of
// the pairs), the logistic Elo difference with its 95% confidence interval,
// the likelihood of superiority, and the pentanomial SPRT.
package elo

import (
	"fmt"
	"math"
)

// Tally counts one engine's results against another: wins, losses and
// draws game by game, and the pentanomial counts over game pairs (the two
// games of one opening with colours reversed). Penta[k] counts the pairs in
// which the engine scored k half-points: 0 (two losses) .. 4 (two wins).
type Tally struct {
	W, L, D int
	Penta   [5]int
}

// Games returns the number of games.
func (t Tally) Games() int { return t.W + t.L + t.D }

// Pairs returns the number of complete game pairs.
func (t Tally) Pairs() int { return t.Penta[0] + t.Penta[1] + t.Penta[2] + t.Penta[3] + t.Penta[4] }

// Add counts one game in which the engine scored half half-points: 2 a
// win, 1 a draw, 0 a loss.
func (t *Tally) Add(half int) {
	switch half {
	case 2:
		t.W++
	case 1:
		t.D++
	default:
		t.L++
	}
}

// AddPair counts a complete game pair in which the engine scored half
// half-points over both games (0..4). The games themselves are counted
// with Add.
func (t *Tally) AddPair(half int) { t.Penta[min(max(half, 0), 4)]++ }

// Points returns wins plus half the draws.
func (t Tally) Points() float64 { return float64(t.W) + float64(t.D)/2 }

// String writes the tally as "+W =D -L (P/G, S%)".
func (t Tally) String() string {
	return fmt.Sprintf("+%d =%d -%d (%.1f/%d, %.1f%%)", t.W, t.D, t.L, t.Points(), t.Games(), 100*t.Score())
}

// Score returns the mean score per game, 0..1 (0.5 with no games).
func (t Tally) Score() float64 {
	n := t.Games()
	if n == 0 {
		return 0.5
	}
	return t.Points() / float64(n)
}

// DrawRate returns the share of drawn games.
func (t Tally) DrawRate() float64 {
	if t.Games() == 0 {
		return 0
	}
	return float64(t.D) / float64(t.Games())
}

// Reversed returns the tally from the opponent's side.
func (t Tally) Reversed() Tally {
	return Tally{W: t.L, L: t.W, D: t.D, Penta: [5]int{t.Penta[4], t.Penta[3], t.Penta[2], t.Penta[1], t.Penta[0]}}
}

// EloFromScore returns the logistic Elo difference that gives expected score
// s: -400·log10(1/s - 1); ±Inf at 1 and 0.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the inverse of EloFromScore.
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959963984540054

// MinIntervalPairs is the number of complete game pairs (or, with no
// complete pair, twice as many games) below which Elo gives no interval:
// a handful of results says next to nothing about how the variance is
// spread, and an interval from them only misleads (after one game pair won
// twice, [+inf, +inf]).
const MinIntervalPairs = 5

// Elo returns the Elo difference and its 95% confidence interval. When at
// least one game pair is complete, the variance comes from the pairs
// (pentanomial): the two games of a pair share an opening, so their results
// are correlated and counting them as independent games would misstate the
// interval; the variance of a pair's mean score, doubled, stands for the
// variance of one game, so games outside a complete pair still count. With
// no complete pair the variance is the game-by-game (trinomial) one. Either
// variance is estimated as if one more pair (or game) had been played with
// its outcome unknown: a fifth of a pair added to each of the five pair
// outcomes, a third of a game to each of win, draw and loss. So a run of
// identical results, whose sample variance is zero, still gives an interval
// of some width (ten pairs each won and drawn: +190.8 [+123.3, +275.1]),
// and over hundreds of games the added result changes the interval little.
// Bounds that reach a score of 0 or 1 are infinite. Below MinIntervalPairs
// the interval is unknown: lo is -Inf and hi +Inf (FormatInterval writes
// it so).
func (t Tally) Elo() (elo, lo, hi float64) {
	n := float64(t.Games())
	mu := t.Score()
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	if t.Pairs() < MinIntervalPairs && (t.Pairs() > 0 || t.Games() < 2*MinIntervalPairs) {
		return EloFromScore(mu), math.Inf(-1), math.Inf(1)
	}
	variance := gameVariance(t)
	if t.Pairs() > 0 {
		variance = 2 * pairVariance(t.Penta)
	}
	se := math.Sqrt(variance / n)
	return EloFromScore(mu), EloFromScore(mu - z95*se), EloFromScore(mu + z95*se)
}

// gameVariance returns the variance of one game's score from the losses,
// draws and wins, with one game of unknown outcome added.
func gameVariance(t Tally) float64 {
	return priorVariance([]int{t.L, t.D, t.W})
}

// pairVariance returns the variance of a pair's per-game score from the
// pentanomial counts, with one pair of unknown outcome added.
func pairVariance(penta [5]int) float64 { return priorVariance(penta[:]) }

// priorVariance returns the variance of a score that takes the values 0,
// 1/(m-1), ..., 1 (m = len(counts)) the given numbers of times, with one
// more result spread evenly over the m values.
func priorVariance(counts []int) float64 {
	var n, mean, m2 float64
	prior := 1 / float64(len(counts))
	for k, count := range counts {
		c := float64(count) + prior
		x := float64(k) / float64(len(counts)-1)
		n += c
		mean += c * x
		m2 += c * x * x
	}
	mean /= n
	return max(m2/n-mean*mean, 0)
}

// FormatInterval writes a confidence interval from Elo as "[lo, hi]", or
// "[unknown]" when Elo gave none.
func FormatInterval(lo, hi float64) string {
	if math.IsInf(lo, -1) && math.IsInf(hi, 1) {
		return "[unknown]"
	}
	return "[" + FormatElo(lo) + ", " + FormatElo(hi) + "]"
}

// pairMoments returns the number of pairs in penta and the mean and variance
// of a pair's per-game score (k/4 for a pair scoring k half-points).
func pairMoments(penta [5]int) (n int, mean, variance float64) {
	var m2 float64
	for k, c := range penta {
		x := float64(k) / 4
		n += c
		mean += float64(c) * x
		m2 += float64(c) * x * x
	}
	if n == 0 {
		return 0, 0.5, 0
	}
	mean /= float64(n)
	return n, mean, max(m2/float64(n)-mean*mean, 0)
}

// LOS returns the likelihood of superiority: the probability that the
// engine is the stronger, from wins and losses (draws carry no information):
// Φ((W-L)/√(W+L)).
func (t Tally) LOS() float64 {
	if t.W+t.L == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(t.W-t.L)/math.Sqrt(2*float64(t.W+t.L))))
}

// SPRT is a sequential probability ratio test of H0: Elo = Elo0 against
// H1: Elo = Elo1 (logistic Elo), with error rates Alpha and Beta.
type SPRT struct {
	Elo0, Elo1, Alpha, Beta float64
}

// Decision is what an SPRT says so far.
type Decision int

const (
	// Continue means neither bound has been crossed.
	Continue Decision = iota
	// AcceptH0 means the lower bound was crossed: Elo0 holds.
	AcceptH0
	// AcceptH1 means the upper bound was crossed: Elo1 holds.
	AcceptH1
)

// String names the decision.
func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Bounds returns the log-likelihood-ratio bounds: ln(β/(1-α)) and
// ln((1-β)/α).
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// pairVariancePrior is the per-pair variance the LLR assumes before the
// pairs show their own: it counts as one pair more in the variance
// estimate. Without it a run of pairs that all ended alike, common at a
// fixed node budget where the two games of a ballot often mirror each
// other, has no variance and looks decisive: 13 pairs of two draws gave
// H0 for Elo 0 against 15. 1/16 is the variance of pairs that score 1/2
// and 3/2 equally often.
const pairVariancePrior = 1.0 / 16

// LLR returns the log-likelihood ratio of H1 against H0 for the pentanomial
// counts, with the normal approximation over pairs (the "generalised SPRT"
// of Fishtest): with N pairs whose per-game mean score is μ and variance σ²,
// and s0, s1 the expected scores under Elo0 and Elo1,
// LLR = N·(s1-s0)·(2μ-s0-s1) / (2σ²).
func (s SPRT) LLR(penta [5]int) float64 {
	n, mu, variance := pairMoments(penta)
	if n == 0 {
		return 0
	}
	variance = (float64(n)*variance + pairVariancePrior) / float64(n+1)
	s0, s1 := ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1)
	return float64(n) * (s1 - s0) * (2*mu - s0 - s1) / (2 * variance)
}

// MinPairs is the number of complete game pairs an SPRT needs before it
// decides. The LLR rests on the pairs' variance, which a few pairs do not
// estimate, even with pairVariancePrior.
const MinPairs = 10

// Decide returns the decision for the pentanomial counts and the LLR. With
// fewer than MinPairs pairs it always continues.
func (s SPRT) Decide(penta [5]int) (Decision, float64) {
	llr := s.LLR(penta)
	lower, upper := s.Bounds()
	if n, _, _ := pairMoments(penta); n < MinPairs {
		return Continue, llr
	}
	switch {
	case llr >= upper:
		return AcceptH1, llr
	case llr <= lower:
		return AcceptH0, llr
	}
	return Continue, llr
}

// Validate checks the test's parameters.
func (s SPRT) Validate() error {
	if !(s.Alpha > 0 && s.Alpha < 1 && s.Beta > 0 && s.Beta < 1) {
		return fmt.Errorf("sprt: alpha %v and beta %v must be between 0 and 1", s.Alpha, s.Beta)
	}
	if s.Elo1 <= s.Elo0 {
		return fmt.Errorf("sprt: elo1 %v must be above elo0 %v", s.Elo1, s.Elo0)
	}
	return nil
}

// FormatElo writes an Elo value, with "+inf"/"-inf" for infinities.
func FormatElo(e float64) string {
	switch {
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "-inf"
	case math.Abs(e) < 0.05:
		return "+0.0" // not "-0.0"
	}
	return fmt.Sprintf("%+.1f", e)
}
