// Package patterntrain fits the pattern evaluator's weights (eval/pattern)
// to training positions (train/positions) by logistic regression: the
// evaluation v of a position predicts fit.Sigmoid(K·v/100), and the target
// blends the game's result with the sigmoid of the position's search score
// (Texel's method with search scores, as NNUE trainers do). The fit is
// mini-batch Adam with decoupled weight decay on the pattern and king
// weights and a cosine-decaying step, over a training split; a held-out
// split of whole games (by fold) measures it after every epoch, and the
// weights of the best epoch are kept. Work is split into a fixed number of
// shards whatever the number of workers, so a run is deterministic by its
// seed.
package patterntrain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/train/fit"
	"github.com/nechecb/nechecb/train/positions"
)

// Config sets a fit.
type Config struct {
	// Model is the model fitted.
	Model pattern.Model
	// Tie trains each term as a base shared by all knots plus a slot per
	// knot (both decayed alike), so that every position trains the base;
	// the file gets each knot's sum.
	Tie bool
	// Drop names global or ending terms (pattern.GlobalNames,
	// pattern.EndingNames) whose weights are held at zero: to measure what
	// a term is worth.
	Drop []string
	// BucketWeights, when not nil, holds a weight for each piece-count
	// bucket (BucketTops): a position's share of the loss and of the
	// gradient is its bucket's weight, so that a fit can favour the phase
	// where games are decided. nil weighs every position alike. The
	// held-out loss overall is weighted alike; its buckets are not.
	BucketWeights []float64
	// Lambda is the game result's share of the target; the search score
	// has the rest.
	Lambda float64
	// K scales scores to win probabilities: a score of s centipawns wins
	// with probability fit.Sigmoid(K·s/100). 0 fits K to the training
	// positions' search scores and results.
	K float64
	// Epochs is the number of passes over the training split.
	Epochs int
	// Batch is the number of positions per step.
	Batch int
	// Rate is Adam's first step size, in centipawns; it decays to 0 along a
	// cosine over the run.
	Rate float64
	// Decay shrinks every pattern and king weight by Rate·Decay of itself
	// at each step (decoupled weight decay).
	Decay float64
	// Validation is the share of games (by fold) held out.
	Validation float64
	// Seed seeds the order of the positions.
	Seed uint64
	// Workers is the number of goroutines.
	Workers int
	// Scale is the weight file's units per centipawn.
	Scale int
}

// Default is the fit that measured best (docs/pattern.md): the version 2
// model with its knots tied, and the decay that suits it (version 1 fitted
// best with 0.002-0.005, the setting its embedded weights were trained
// with being 0.002).
var Default = Config{Model: pattern.V2, Tie: true, Lambda: 0.5, Epochs: 12, Batch: 16384, Rate: 0.5, Decay: 0.02, Validation: 0.05, Seed: 1, Workers: 2, Scale: 8}

// shards is the number of parts each batch is split into, whatever the
// number of workers: the gradient is summed shard by shard in order, so
// the result does not depend on the workers.
const shards = 4

// Result is a finished fit.
type Result struct {
	// Weights are the quantised weights of the best epoch.
	Weights *pattern.Weights
	// K is the scale used.
	K float64
	// Curve holds every epoch's losses and the kept epoch.
	fit.Curve
	// Clipped counts weights that did not fit the file's integers.
	Clipped int
}

// trainer holds a fit's state.
type trainer struct {
	cfg    Config
	lay    layout
	k      float32
	recs   []positions.Record
	target []float32 // per record
	// opt holds the parameters, in centipawns, laid out by lay, and
	// Adam's state; the pattern and king weights decay, the globals do
	// not, and the weights of Config.Drop are frozen at zero.
	opt *fit.Adam
	// buckets holds each shard's held-out loss and count by bucket.
	buckets [shards][fit.NumBuckets]float64
	counts  [shards][fit.NumBuckets]int
	bw      [fit.NumBuckets]float32 // Config.BucketWeights, or all 1
}

// checkConfig reports what is wrong with cfg.
func checkConfig(cfg Config) error {
	switch {
	case cfg.Lambda < 0 || cfg.Lambda > 1 || cfg.Validation < 0 || cfg.Validation >= 1:
		return errors.New("lambda must lie in [0, 1] and the validation share in [0, 1)")
	case cfg.Epochs < 1 || cfg.Batch < shards || cfg.Rate <= 0 || cfg.Decay < 0 || cfg.K < 0 || cfg.Workers < 1:
		return errors.New("epochs must be at least 1, the batch at least 4, the rate positive, decay and K not negative, workers at least 1")
	case cfg.Scale < 1 || cfg.Scale > pattern.MaxScale:
		return fmt.Errorf("scale must lie in 1..%d", pattern.MaxScale)
	}
	if err := cfg.Model.Check(); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	if err := checkBucketWeights(cfg.BucketWeights); err != nil {
		return err
	}
	_, err := dropped(cfg.Model, cfg.Drop)
	return err
}

// checkBucketWeights reports what is wrong with Config.BucketWeights.
func checkBucketWeights(w []float64) error {
	if w == nil {
		return nil
	}
	if len(w) != fit.NumBuckets {
		return fmt.Errorf("%d bucket weights, want one for each of the %d piece-count buckets", len(w), fit.NumBuckets)
	}
	sum := 0.0
	for b, x := range w {
		if !(x >= 0 && x <= 1000) {
			return fmt.Errorf("the weight of bucket %s is %g, want 0..1000", fit.BucketName(b), x)
		}
		sum += x
	}
	if sum == 0 {
		return errors.New("every bucket weight is 0")
	}
	return nil
}

// Train fits weights of cfg.Model to recs starting from start (nil: men
// 100, kings 130; weights of another model are carried over, see
// initWeights) and returns the best epoch's weights. progress (may be nil)
// is called after every epoch. A cancelled ctx ends the fit after the step
// under way, with the best weights so far.
func Train(ctx context.Context, recs []positions.Record, start *pattern.Weights, cfg Config, progress func(fit.Epoch)) (*Result, error) {
	if len(recs) == 0 {
		return nil, badinput.Mark(errors.New("no positions to train on"))
	}
	if err := checkConfig(cfg); err != nil {
		return nil, badinput.Mark(err)
	}
	trainIdx, validIdx, err := fit.Split(recs, cfg.Validation)
	if err != nil {
		return nil, badinput.Mark(err)
	}
	t := &trainer{cfg: cfg, recs: recs, lay: newLayout(cfg.Model, cfg.Tie)}
	for b := range t.bw {
		t.bw[b] = 1
		if cfg.BucketWeights != nil {
			t.bw[b] = float32(cfg.BucketWeights[b])
		}
	}
	// Weights that leave a split nothing to learn from or to measure by
	// would run the epochs for nothing and write the starting weights.
	trainWeight := t.weightOf(trainIdx)
	if trainWeight == 0 || len(validIdx) > 0 && t.weightOf(validIdx) == 0 {
		return nil, badinput.Mark(errors.New("the bucket weights are 0 for every training or every held-out position"))
	}
	k := cfg.K
	if k == 0 {
		k = fit.FitKOn(recs, trainIdx)
	}
	t.k = float32(k)
	t.target = make([]float32, len(recs))
	for i := range recs {
		r := &recs[i]
		t.target[i] = float32(fit.Target(r, cfg.Lambda, k))
	}
	t.initWeights(start)
	res := &Result{K: k, Curve: fit.Curve{TrainN: len(trainIdx), ValidN: len(validIdx), StartValid: math.NaN()}}
	best := append([]float32(nil), t.opt.Theta...)
	if len(validIdx) > 0 {
		res.StartValid, res.StartBuckets, res.BucketN = t.loss(validIdx)
	}
	total := cfg.Epochs * ((len(trainIdx) + cfg.Batch - 1) / cfg.Batch)
	begin := time.Now()
	for ep := 1; ep <= cfg.Epochs && ctx.Err() == nil; ep++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(ep)))
		rng.Shuffle(len(trainIdx), func(i, j int) { trainIdx[i], trainIdx[j] = trainIdx[j], trainIdx[i] })
		var sum float64
		for b := 0; b < len(trainIdx) && ctx.Err() == nil; b += cfg.Batch {
			batch := trainIdx[b:min(b+cfg.Batch, len(trainIdx))]
			sum += t.batch(batch, fit.CosineRate(cfg.Rate, t.opt.Steps, total))
		}
		e := fit.Epoch{Epoch: ep, Train: sum / trainWeight, Valid: math.NaN(), Elapsed: time.Since(begin)}
		if len(validIdx) > 0 {
			e.Valid, e.Buckets, _ = t.loss(validIdx)
		}
		if res.Add(e) {
			copy(best, t.opt.Theta)
		}
		if progress != nil {
			progress(e)
		}
	}
	res.Weights, res.Clipped = Quantise(cfg.Model, t.lay.fold(best), cfg.Scale)
	return res, nil
}

// parallel runs f(0..shards-1) on the workers and waits.
func (t *trainer) parallel(f func(s int)) { fit.Parallel(t.cfg.Workers, shards, f) }

// shardRange returns shard s's part of n items.
func shardRange(s, n int) (int, int) { return fit.ShardRange(s, shards, n) }

// batch takes one Adam step on the records of idx with step size lr and
// returns their summed loss before the step.
func (t *trainer) batch(idx []int32, lr float32) float64 {
	k := t.k / 100
	return t.opt.Batch(len(idx), lr, func(s int) float64 {
		lo, hi := shardRange(s, len(idx))
		grad := t.opt.Grads[s]
		var f pattern.Features
		var a active
		sum := 0.0
		for _, i := range idx[lo:hi] {
			p := t.recs[i].Board()
			pattern.Extract(&p, &f)
			t.lay.gather(&f, &a)
			v := a.value(t.opt.Theta)
			pr := float32(fit.Sigmoid(float64(k * v)))
			tg := t.target[i]
			w := t.bw[fit.BucketOf(f.Pieces)]
			sum += float64(w) * fit.CrossEntropy(float64(pr), float64(tg))
			a.addGradient(w*(pr-tg)*k, grad)
		}
		return sum
	})
}

// loss returns the mean loss of the records of idx, overall and by
// piece-count bucket (NaN for an empty bucket), and the buckets' counts.
func (t *trainer) loss(idx []int32) (float64, [fit.NumBuckets]float64, [fit.NumBuckets]int) {
	k := t.k / 100
	t.parallel(func(s int) {
		lo, hi := shardRange(s, len(idx))
		var f pattern.Features
		var a active
		t.buckets[s], t.counts[s] = [fit.NumBuckets]float64{}, [fit.NumBuckets]int{}
		for _, i := range idx[lo:hi] {
			p := t.recs[i].Board()
			pattern.Extract(&p, &f)
			t.lay.gather(&f, &a)
			l := fit.CrossEntropy(fit.Sigmoid(float64(k*a.value(t.opt.Theta))), float64(t.target[i]))
			b := fit.BucketOf(f.Pieces)
			t.buckets[s][b] += l
			t.counts[s][b]++
		}
	})
	var sum, weight float64
	byBucket, n := fit.SumBuckets(t.buckets[:], t.counts[:])
	for b := range byBucket {
		sum += float64(t.bw[b]) * byBucket[b]
		weight += float64(t.bw[b]) * float64(n[b])
		byBucket[b] /= float64(n[b]) // NaN when empty
	}
	return sum / weight, byBucket, n
}

// weightOf returns the summed bucket weight of the records of idx.
func (t *trainer) weightOf(idx []int32) float64 {
	var sum float64
	for _, i := range idx {
		sum += float64(t.bw[fit.RecordBucket(&t.recs[i])])
	}
	return sum
}
