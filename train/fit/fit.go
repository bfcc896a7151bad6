// Package fit owns what the trainers that fit an evaluator to training
// positions (train/patterntrain, train/nntrain) share: the target that
// blends a game's result with its search score, the scale K that turns
// scores into win probabilities, the held-out split by whole games, the
// piece-count buckets the held-out loss is reported by, the record of a
// fit's epochs with its best epoch and its plot, the fixed shards that make
// a fit deterministic whatever the number of workers, the Adam step over
// those shards' gradients (with the trainers' options: weight decay,
// frozen and bounded weights), and the reading of several positions files
// at once.
package fit

import (
	"fmt"
	"math"

	"github.com/nechecb/nechecb/train/positions"
)

// Sigmoid returns 1/(1+e^-x).
func Sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// CrossEntropy returns the loss of predicting p for target t.
func CrossEntropy(p, t float64) float64 {
	const eps = 1e-12
	return -(t*math.Log(max(p, eps)) + (1-t)*math.Log(max(1-p, eps)))
}

// ResultValue returns a record's result as a probability for the side to
// move.
func ResultValue(r *positions.Record) float64 { return float64(r.Result) / 2 }

// UsableScore reports whether a record's score is a search estimate (not a
// proven result or a clamped value) that FitK can learn from.
func UsableScore(r *positions.Record) bool {
	return r.Score > -positions.MaxScore && r.Score < positions.MaxScore
}

// Target returns a record's target: lambda of its result and the rest of
// the win probability its search score gives at scale k.
func Target(r *positions.Record, lambda, k float64) float64 {
	return lambda*ResultValue(r) + (1-lambda)*Sigmoid(k*float64(r.Score)/100)
}

// FitK returns the K in [0.05, 5] that best predicts the results of recs
// from their search scores (cross-entropy), by golden-section search.
func FitK(recs []positions.Record) float64 {
	loss := func(k float64) float64 {
		var sum float64
		for i := range recs {
			if r := &recs[i]; UsableScore(r) {
				sum += CrossEntropy(Sigmoid(k*float64(r.Score)/100), ResultValue(r))
			}
		}
		return sum
	}
	lo, hi := 0.05, 5.0
	g := (math.Sqrt(5) - 1) / 2
	for range 50 {
		a, b := hi-g*(hi-lo), lo+g*(hi-lo)
		if loss(a) < loss(b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// FitKOn returns FitK of the records of recs that idx lists.
func FitKOn(recs []positions.Record, idx []int32) float64 {
	sub := make([]positions.Record, len(idx))
	for i, j := range idx {
		sub[i] = recs[j]
	}
	return FitK(sub)
}

// Split returns the indices of the training and the held-out records: a
// record is held out when its game's fold is below validation·256, so
// that games stay whole. It refuses a split that leaves nothing to train
// on, or nothing held out when some share was asked for.
func Split(recs []positions.Record, validation float64) (trainIdx, validIdx []int32, err error) {
	for i := range recs {
		if HeldOut(&recs[i], validation) {
			validIdx = append(validIdx, int32(i))
		} else {
			trainIdx = append(trainIdx, int32(i))
		}
	}
	someAsked := HeldOut(&positions.Record{}, validation) // fold 0 is held out at any share that holds some out
	if len(trainIdx) == 0 || (someAsked && len(validIdx) == 0) {
		return nil, nil, fmt.Errorf("the split leaves %d training and %d held-out positions", len(trainIdx), len(validIdx))
	}
	return trainIdx, validIdx, nil
}

// HeldOut reports whether Split holds r out at the share validation.
func HeldOut(r *positions.Record, validation float64) bool {
	return int(r.Fold) < int(math.Round(validation*256))
}

// CosineRate returns the step size at step of total: a cosine from r to 0.
func CosineRate(r float64, step, total int) float32 {
	return float32(r * 0.5 * (1 + math.Cos(math.Pi*float64(step)/float64(max(total, 1)))))
}
