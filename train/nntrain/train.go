// Package nntrain fits the neural evaluator's weights (eval/nn) to
// training positions (train/positions). A float model mirrors the net's
// layout: the first layer's units clipped to [0, 1], then the stage's head
// of clipped layers and one output y, a logit: the prediction is
// sigmoid(y), against a target that blends the game's result with the
// sigmoid of K times the search score (train/fit). The fit is mini-batch
// Adam with a cosine-decaying step; each batch's gradient is computed over
// a fixed number of shards and summed in shard order, so that the same
// seed gives the same weights whatever the number of workers. Whole games
// are held out; the epoch with the best held-out loss is kept, quantised
// to the net's integers, and the quantisation's error in centipawns is
// measured on the held-out positions. Float checkpoints after each epoch
// let a stopped fit resume and end as an uninterrupted one would.
package nntrain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval/nn"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/train/fit"
	"github.com/nechecb/nechecb/train/positions"
)

// Config sets a fit.
type Config struct {
	// Layout is the net's shape; a starting net's layout must match it,
	// or grow into it by more first-layer units or split heads (see
	// canStart).
	Layout nn.Layout
	// Lambda is the game result's share of the target; the search score
	// has the rest.
	Lambda float64
	// K scales scores to win probabilities: s centipawns win with
	// probability sigmoid(K·s/100), and the net's centipawns per unit of
	// output are 100/K. 0 takes it from the starting net, or fits it to
	// the training positions when there is none.
	K float64
	// Epochs is the number of passes over the training split; 0 fits
	// nothing and measures the starting net, which it returns unchanged.
	Epochs int
	// Batch is the number of positions per step.
	Batch int
	// Rate is Adam's first step size; it decays to 0 along a cosine.
	Rate float64
	// Validation is the share of games (by fold) held out.
	Validation float64
	// Seed seeds the random weights and the order of the positions.
	Seed uint64
	// Workers is the number of goroutines; it does not change the result.
	Workers int
	// Checkpoint, when set, is the file the float state is written to
	// after every epoch; with Resume, a fit starts from it when it exists.
	Checkpoint string
	Resume     bool
	// Lineage is carried in the checkpoint, so that a resumed fit writes
	// the note it started with (TrainFiles's business).
	Lineage string
	// Rivals are evaluators whose held-out loss is compared with the
	// written net's (Result.Compared).
	Rivals []Rival
}

// Default is the fit `nechecb nn-train` runs unless told otherwise.
var Default = Config{
	Layout: nn.Layout{Stages: 4, Hidden: 128, L2: 32, L3: 32},
	Lambda: 0.5, Epochs: 10, Batch: 16384, Rate: 0.002, Validation: 0.05, Seed: 1, Workers: 2,
}

// shards is the number of parts each batch is split into, whatever the
// number of workers.
const shards = 16

// maxQuant bounds the positions the quantisation error is measured on.
const maxQuant = 200000

// Progress reports a fit under way, after every step.
type Progress struct {
	Epoch, Epochs int
	// Done of Total training positions of this epoch.
	Done, Total int
	// Rate is the positions per second of this epoch so far.
	Rate float64
	// ETA estimates the time to the end of the fit.
	ETA time.Duration
}

// Result is a finished fit.
type Result struct {
	// Net is the best epoch's weights, quantised.
	Net *nn.Net
	// K is the scale used.
	K float64
	// Curve holds every epoch's losses and the kept epoch.
	fit.Curve
	// Speed is each epoch's training positions per second (held-out
	// measurement excluded).
	Speed []float64
	// Clamped counts weights outside their integer's range (the fit's
	// bounds keep it 0).
	Clamped int
	// QuantMax and QuantMean are the largest and the mean |float −
	// integer| score, in centipawns, over QuantN positions: the held-out
	// ones, or, with none held out, the training ones (at most the first
	// 200,000).
	QuantMax, QuantMean float64
	QuantN              int
	// FloatLoss is the kept float weights' loss over the same positions,
	// and Rounding that loss with each layer rounded in turn.
	FloatLoss float64
	Rounding  []LayerRounding
	// Resumed is the epoch a checkpoint had reached (0: a fresh start).
	Resumed int
	// Lineage is Config.Lineage, or the checkpoint's when resumed.
	Lineage string
	// Compared holds, when there are rivals or no epochs, the held-out
	// loss of the written net's integer scores and then of each rival's,
	// on the same positions with the same target and K.
	Compared []Comparison
}

// checkConfig says what is wrong with cfg.
func checkConfig(cfg Config) error {
	if err := cfg.Layout.Check(); err != nil {
		return fmt.Errorf("layout: %w", err)
	}
	switch {
	case !(cfg.Lambda >= 0 && cfg.Lambda <= 1):
		return fmt.Errorf("lambda %g: want 0..1", cfg.Lambda)
	case !(cfg.Validation >= 0 && cfg.Validation < 1):
		return fmt.Errorf("validation %g: want a share in [0, 1)", cfg.Validation)
	case cfg.Epochs < 0:
		return fmt.Errorf("epochs %d: want 0 (measure the starting net) or more", cfg.Epochs)
	case cfg.Batch < 1:
		return fmt.Errorf("batch %d: want at least 1", cfg.Batch)
	case !(cfg.Rate > 0 && cfg.Rate < 1):
		return fmt.Errorf("rate %g: want a step in (0, 1)", cfg.Rate)
	case !(cfg.K >= 0 && cfg.K <= 100):
		return fmt.Errorf("k %g: want 0 (fit it) or a scale up to 100", cfg.K)
	case cfg.Workers < 1:
		return fmt.Errorf("workers %d: want at least 1", cfg.Workers)
	}
	return nil
}

// trainer holds a fit's state.
type trainer struct {
	cfg     Config
	m       model
	k       float64
	recs    []positions.Record
	target  []float32
	opt     *fit.Adam // the weights, Adam's state, each weight's bound
	best    []float32
	scratch [shards]*scratch
	buckets [shards][fit.NumBuckets]float64
	counts  [shards][fit.NumBuckets]int
}

// Train fits a net of cfg.Layout to recs, starting from start (nil:
// seeded random weights), and returns the best epoch's net. status (may be
// nil) is called after every step and epoch after every epoch. A cancelled
// ctx ends the fit after the step under way, with the best weights so far.
func Train(ctx context.Context, recs []positions.Record, start *nn.Net, cfg Config, status func(Progress), epoch func(fit.Epoch, float64)) (*Result, error) {
	if len(recs) == 0 {
		return nil, badinput.Mark(errors.New("no positions to train on"))
	}
	if err := checkConfig(cfg); err != nil {
		return nil, badinput.Mark(err)
	}
	if start != nil && !canStart(start.Layout, cfg.Layout) {
		return nil, badinput.Mark(fmt.Errorf("the starting net is %s, the layout asked for %s (a layout can only widen the first layer or split the heads)", start.Layout, cfg.Layout))
	}
	if err := checkPlan(cfg, start != nil); err != nil {
		return nil, badinput.Mark(err)
	}
	trainIdx, validIdx, err := fit.Split(recs, cfg.Validation)
	if err != nil {
		return nil, badinput.Mark(err)
	}
	t := &trainer{cfg: cfg, m: newModel(cfg.Layout), recs: recs}
	switch {
	case cfg.K > 0:
		t.k = cfg.K
	case start != nil:
		t.k = 100 / float64(start.CPPerUnit)
	default:
		t.k = fit.FitKOn(recs, trainIdx)
	}
	t.target = make([]float32, len(recs))
	for i := range recs {
		t.target[i] = float32(fit.Target(&recs[i], cfg.Lambda, t.k))
	}
	lim := t.m.limits()
	var theta []float32
	if start != nil {
		theta = t.m.startFrom(start, cfg.Seed)
		clampTo(theta, lim)
	} else {
		theta = t.m.randomInit(cfg.Seed)
	}
	t.opt = fit.NewAdam(theta, shards, cfg.Workers)
	t.opt.Bound = lim
	for s := range shards {
		t.scratch[s] = t.m.newScratch()
	}
	res := &Result{K: t.k, Curve: fit.Curve{TrainN: len(trainIdx), ValidN: len(validIdx), StartValid: math.NaN()}, Lineage: cfg.Lineage}
	t.best = append([]float32(nil), t.opt.Theta...)
	if err := t.resume(res, len(trainIdx)); err != nil {
		return nil, err
	}
	if res.Resumed == 0 && len(validIdx) > 0 {
		res.StartValid, res.StartBuckets, res.BucketN = t.loss(t.opt.Theta, validIdx)
	}
	if err := t.epochs(ctx, res, trainIdx, validIdx, status, epoch); err != nil {
		return nil, err
	}
	if cfg.Epochs == 0 {
		res.Net = start
	} else {
		res.Net, res.Clamped = t.m.quantise(t.best, float32(100/t.k))
		t.centre(res.Net, trainIdx[:min(len(trainIdx), maxQuant/2)])
		qIdx := validIdx
		if len(qIdx) == 0 {
			qIdx = trainIdx
		}
		qIdx = qIdx[:min(len(qIdx), maxQuant)]
		res.QuantMax, res.QuantMean = t.quantError(res.Net, qIdx)
		res.QuantN = len(qIdx)
		res.FloatLoss, res.Rounding = t.roundingByLayer(qIdx)
	}
	if len(cfg.Rivals) > 0 || cfg.Epochs == 0 {
		res.Compared = t.compare(res.Net, validIdx)
	}
	return res, nil
}

// epochs runs the epochs after the last one done.
func (t *trainer) epochs(ctx context.Context, res *Result, trainIdx, validIdx []int32, status func(Progress), epoch func(fit.Epoch, float64)) error {
	cfg := t.cfg
	steps := (len(trainIdx) + cfg.Batch - 1) / cfg.Batch
	total := cfg.Epochs * steps
	begin := time.Now()
	var elapsed0 time.Duration
	if n := len(res.Epochs); n > 0 {
		elapsed0 = res.Epochs[n-1].Elapsed
	}
	for ep := len(res.Epochs) + 1; ep <= cfg.Epochs && ctx.Err() == nil; ep++ {
		// Each epoch's order depends only on the seed and the epoch, so a
		// resumed fit shuffles as an uninterrupted one.
		order := append([]int32(nil), trainIdx...)
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(ep)))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var sum float64
		epochStart := time.Now()
		for b := 0; b < len(order) && ctx.Err() == nil; b += cfg.Batch {
			batch := order[b:min(b+cfg.Batch, len(order))]
			sum += t.batch(batch, fit.CosineRate(cfg.Rate, t.opt.Steps, total))
			if status != nil {
				done := b + len(batch)
				rate := float64(done) / time.Since(epochStart).Seconds()
				left := (cfg.Epochs-ep)*len(order) + len(order) - done
				status(Progress{Epoch: ep, Epochs: cfg.Epochs, Done: done, Total: len(order), Rate: rate,
					ETA: time.Duration(float64(left) / rate * float64(time.Second))})
			}
		}
		if ctx.Err() != nil {
			break // a part epoch is neither measured nor kept
		}
		speed := float64(len(order)) / time.Since(epochStart).Seconds()
		e := fit.Epoch{Epoch: ep, Train: sum / float64(len(order)), Valid: math.NaN(), Elapsed: elapsed0 + time.Since(begin)}
		if len(validIdx) > 0 {
			e.Valid, e.Buckets, _ = t.loss(t.opt.Theta, validIdx)
		}
		if res.Add(e) {
			copy(t.best, t.opt.Theta)
		}
		res.Speed = append(res.Speed, speed)
		if cfg.Checkpoint != "" {
			if err := t.save(res); err != nil {
				return err
			}
		}
		if epoch != nil {
			epoch(e, speed)
		}
	}
	return nil
}

// batch takes one Adam step on the records of idx with step size lr and
// returns their summed loss before the step.
func (t *trainer) batch(idx []int32, lr float32) float64 {
	return t.opt.Batch(len(idx), lr, func(s int) float64 {
		lo, hi := fit.ShardRange(s, shards, len(idx))
		th, grad, sc := t.opt.Theta, t.opt.Grads[s], t.scratch[s]
		sum := 0.0
		for _, i := range idx[lo:hi] {
			p := t.recs[i].Board()
			y := t.m.forward(th, &p, sc)
			pr := float32(fit.Sigmoid(float64(y)))
			tg := t.target[i]
			sum += fit.CrossEntropy(float64(pr), float64(tg))
			t.m.backward(th, grad, pr-tg, sc)
		}
		return sum
	})
}

// loss returns the mean loss of the records of idx with the weights th,
// overall and by piece-count bucket (NaN for an empty bucket),
// and the buckets' counts.
func (t *trainer) loss(th []float32, idx []int32) (float64, [fit.NumBuckets]float64, [fit.NumBuckets]int) {
	return t.lossOf(idx, func(s int, p *engine.Position) float64 {
		return float64(t.m.forward(th, p, t.scratch[s]))
	})
}

// lossOf returns the mean loss of the records of idx whose logits (the
// prediction is their sigmoid) logit gives, called by shard s, overall and
// by piece-count bucket (NaN for an empty bucket), and the buckets'
// counts.
func (t *trainer) lossOf(idx []int32, logit func(s int, p *engine.Position) float64) (float64, [fit.NumBuckets]float64, [fit.NumBuckets]int) {
	fit.Parallel(t.cfg.Workers, shards, func(s int) {
		lo, hi := fit.ShardRange(s, shards, len(idx))
		t.buckets[s], t.counts[s] = [fit.NumBuckets]float64{}, [fit.NumBuckets]int{}
		for _, i := range idx[lo:hi] {
			r := &t.recs[i]
			p := r.Board()
			b := fit.RecordBucket(r)
			t.buckets[s][b] += fit.CrossEntropy(fit.Sigmoid(logit(s, &p)), float64(t.target[i]))
			t.counts[s][b]++
		}
	})
	var sum float64
	byBucket, n := fit.SumBuckets(t.buckets[:], t.counts[:])
	for b := range byBucket {
		sum += byBucket[b]
		byBucket[b] /= float64(n[b]) // NaN when empty
	}
	return sum / float64(len(idx)), byBucket, n
}

// centre moves each head's output bias by the mean difference between
// the float and the integer outputs over the records of idx (training
// records), rounded: the rounding of the few output weights to steps of
// 1/64 shifts a head's every output alike, and the bias, with its finer
// steps, takes that back.
func (t *trainer) centre(net *nn.Net, idx []int32) {
	var sums [shards][nn.MaxHeads]float64
	var counts [shards][nn.MaxHeads]int
	fit.Parallel(t.cfg.Workers, shards, func(s int) {
		lo, hi := fit.ShardRange(s, shards, len(idx))
		sc := t.scratch[s]
		for _, i := range idx[lo:hi] {
			p := t.recs[i].Board()
			f := float64(t.m.forward(t.best, &p, sc)) * nn.OutputOne
			sums[s][sc.head] += f - float64(net.Output(&p))
			counts[s][sc.head]++
		}
	})
	for st := range net.Heads {
		var sum float64
		var n int
		for s := range shards {
			sum, n = sum+sums[s][st], n+counts[s][st]
		}
		if n > 0 {
			net.Heads[st].B4 += int32(math.Round(sum / float64(n)))
		}
	}
}

// quantError returns the largest and the mean |float − integer| score, in
// centipawns, of the kept weights and their net over the records of idx.
func (t *trainer) quantError(net *nn.Net, idx []int32) (maxErr, mean float64) {
	var maxes, sums [shards]float64
	cp := float64(net.CPPerUnit)
	fit.Parallel(t.cfg.Workers, shards, func(s int) {
		lo, hi := fit.ShardRange(s, shards, len(idx))
		sc := t.scratch[s]
		for _, i := range idx[lo:hi] {
			p := t.recs[i].Board()
			f := float64(t.m.forward(t.best, &p, sc)) * cp
			d := math.Abs(f - float64(net.Centipawns(net.Output(&p))))
			maxes[s] = max(maxes[s], d)
			sums[s] += d
		}
	})
	var sum float64
	for s := range shards {
		maxErr = max(maxErr, maxes[s])
		sum += sums[s]
	}
	return maxErr, sum / float64(max(len(idx), 1))
}
