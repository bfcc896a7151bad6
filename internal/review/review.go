// Package review classifies the moves of an analysed game, for every front
// end that reviews games (the GUI's game analysis, nechecb analyse): the
// expected score a search score gives, what a move cost its mover in it,
// and the mark that cost earns ("?!", "?", "??").
package review

import (
	"math"

	"github.com/nechecb/nechecb/internal/player"
)

// K scales scores into expected scores: a score of s hundredths of a man
// is worth 1/(1+e^(-K*s/100)) to its side. 1.1 is about the scale that
// train/fit's FitK found between the default evaluator's search scores and
// the results of its self-play games (k 1.0682 and 1.1098 in
// docs/training.md and docs/strength.md): a man up is worth about 0.75.
const K = 1.1

// The expected-score losses, for the side that moved, that mark a move.
const (
	InaccuracyLoss = 0.05
	MistakeLoss    = 0.10
	BlunderLoss    = 0.20
)

// Expected returns the expected score (1 a win, 0 a loss, 0.5 even) that
// a search score gives the side it is for: 1 and 0 for the wins and losses
// the search proved or an endgame database settled.
func Expected(s player.Score) float64 {
	switch {
	case s.IsWin() || s.IsKnownWin():
		return 1
	case s.IsLoss() || s.IsKnownLoss():
		return 0
	}
	return ExpectedOf(int(s))
}

// ExpectedOf returns the expected score of a score of cp hundredths of a
// man for its side.
func ExpectedOf(cp int) float64 {
	return 1 / (1 + math.Exp(-K*float64(cp)/100))
}

// Loss returns what a move cost its mover: before, the expected score of
// the position it was played in, less after, that of the position it
// reached, both for the mover; never below 0.
func Loss(before, after float64) float64 {
	return max(0, before-after)
}

// Mark names what a move that lost loss of its mover's expected score
// was: "??" a blunder, "?" a mistake, "?!" an inaccuracy, or "" none.
func Mark(loss float64) string {
	switch {
	case loss >= BlunderLoss:
		return "??"
	case loss >= MistakeLoss:
		return "?"
	case loss >= InaccuracyLoss:
		return "?!"
	}
	return ""
}
