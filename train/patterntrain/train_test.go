package patterntrain

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval/evaltest"
	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/train/fit"
	"github.com/nechecb/nechecb/train/positions"
)

// teacher returns weights of model m that stand for a true evaluation:
// global terms and random king-square weights, which random positions show
// often enough to learn, and small random pattern weights, which they do
// not.
func teacher(m pattern.Model, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 3))
	th := make([]float32, m.Params())
	for i := range th {
		th[i] = float32(rng.NormFloat64())
	}
	for k := range m.Knots {
		for sq := range pattern.KingSquares {
			th[m.Param(m.KingsOffset()+sq, k)] = float32(rng.NormFloat64() * 30)
		}
		// From 1× at the first knot to 2× at the last.
		grow := 1 + float32(k)/float32(len(m.Knots)-1)
		for g, v := range [pattern.NumGlobals]float32{100, 150, 40, 60} {
			th[m.Param(pattern.GlobalsOffset+g, k)] = v * grow
		}
		if m.Ending {
			for g := range pattern.NumEnding {
				th[m.Param(pattern.GlobalsOffset+pattern.NumGlobals+g, k)] = float32(rng.NormFloat64() * 3)
			}
		}
	}
	return th
}

// valueOf returns the value of p with the weights th laid out by l, in
// centipawns.
func valueOf(l *layout, th []float32, p *engine.Position) float32 {
	var f pattern.Features
	var a active
	pattern.Extract(p, &f)
	l.gather(&f, &a)
	return a.value(th)
}

// labelled returns n records of random positions whose scores are the
// teacher's values (weights th of model m) and whose results are drawn
// with the probability the teacher gives at scale k.
func labelled(n int, m pattern.Model, th []float32, k float64, seed uint64) []positions.Record {
	rng := rand.New(rand.NewPCG(seed, 4))
	l := newLayout(m, false)
	var out []positions.Record
	for _, p := range evaltest.RandomPositions(n, seed) {
		v := valueOf(&l, th, &p)
		res := uint8(positions.Loss)
		if rng.Float64() < fit.Sigmoid(k*float64(v)/100) {
			res = positions.Win
		}
		out = append(out, positions.NewRecord(&p, res, int(math.Round(float64(v))), uint8(rng.IntN(256))))
	}
	return out
}

func TestFitKFindsTheScale(t *testing.T) {
	recs := labelled(20000, pattern.V1, teacher(pattern.V1, 1), 1.5, 2)
	if k := fit.FitK(recs); math.Abs(k-1.5) > 0.15 {
		t.Errorf("FitK = %.3f, want about 1.5", k)
	}
}

// TestLearnsTheTeacher trains on the teacher's scores alone and wants the
// held-out loss to fall well below the start and the values to move toward
// the teacher's, for version 1 and a version 2 model (three knots, to be
// quick).
func TestLearnsTheTeacher(t *testing.T) {
	for _, m := range []pattern.Model{pattern.V1, {Knots: []int{24, 12, 2}, Ending: true}} {
		th := teacher(m, 5)
		recs := labelled(30000, m, th, 1, 6)
		cfg := Default
		cfg.Model = m
		cfg.Lambda, cfg.K, cfg.Epochs, cfg.Batch, cfg.Rate, cfg.Validation, cfg.Workers = 0, 1, 8, 512, 1, 0.2, 2
		cfg.Tie, cfg.Decay = false, 0.002 // TestTie covers tied knots
		res, err := Train(context.Background(), recs, nil, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		last := res.Epochs[len(res.Epochs)-1]
		if res.Best == 0 || !(last.Valid < res.StartValid-0.01) {
			t.Errorf("%v: held-out loss %.4f at the start, %.4f at the end (best epoch %d)", m, res.StartValid, last.Valid, res.Best)
		}
		n := 0
		for b, c := range res.BucketN {
			n += c
			if c > 0 && !(last.Buckets[b] < res.StartBuckets[b]) {
				t.Errorf("%v: bucket %s: held-out loss %.4f at the start, %.4f at the end", m, fit.BucketName(b), res.StartBuckets[b], last.Buckets[b])
			}
		}
		if n != res.ValidN {
			t.Errorf("%v: the buckets hold %d positions, the held-out split %d", m, n, res.ValidN)
		}
		// Mean distance to the teacher on held-out positions, before and after.
		e := pattern.NewEvaluator(res.Weights)
		l := newLayout(m, false)
		var before, after float64
		n = 0
		for i := range recs {
			if int(recs[i].Fold) >= 51 { // the held-out share 0.2 of 256
				continue
			}
			p := recs[i].Board()
			want := valueOf(&l, th, &p)
			before += math.Abs(float64(want) - float64(p.Material(100, 130)))
			after += math.Abs(float64(want) - e.Raw(&p))
			n++
		}
		t.Logf("%v: held-out loss %.4f -> %.4f; distance to the teacher %.1f -> %.1f", m, res.StartValid, last.Valid, before/float64(n), after/float64(n))
		if n == 0 || after > 0.5*before {
			t.Errorf("%v: mean distance to the teacher on %d held-out positions: %.1f with material, %.1f trained", m, n, before/float64(n), after/float64(n))
		}
	}
}

// TestDeterministic wants the same weights from one worker and from two.
func TestDeterministic(t *testing.T) {
	recs := labelled(4000, pattern.V2, teacher(pattern.V2, 7), 1, 8)
	cfg := Default
	cfg.Epochs, cfg.Batch = 2, 256
	var got []*pattern.Weights
	for _, workers := range []int{1, 2} {
		cfg.Workers = workers
		res, err := Train(context.Background(), recs, nil, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Weights)
	}
	// cmp.Diff is slow on a million weights: compare them apart.
	if !slices.Equal(got[0].W, got[1].W) {
		t.Errorf("one worker and two give different weights")
	}
	got[0].W, got[1].W = nil, nil
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Errorf("one worker vs two (-1 +2):\n%s", diff)
	}
}

func TestStartWeights(t *testing.T) {
	// Starting from weights and training with a tiny step leaves them
	// about where they were.
	start, _ := Quantise(pattern.V2, teacher(pattern.V2, 9), 8)
	recs := labelled(2000, pattern.V2, teacher(pattern.V2, 9), 1, 10)
	cfg := Default
	cfg.Epochs, cfg.Rate, cfg.Decay, cfg.Validation = 1, 1e-6, 0, 0
	res, err := Train(context.Background(), recs, start, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	diff := 0
	for i := range start.W {
		if d := int(start.W[i]) - int(res.Weights.W[i]); d > 1 || d < -1 {
			diff++
		}
	}
	if diff > 0 {
		t.Errorf("%d weights moved from the start", diff)
	}
}

func TestRefuses(t *testing.T) {
	recs := labelled(100, pattern.V1, teacher(pattern.V1, 11), 1, 12)
	for _, c := range []Config{
		func() Config { c := Default; c.Model = pattern.Model{Knots: []int{2, 24}}; return c }(),
		func() Config { c := Default; c.Drop = []string{"nonsense"}; return c }(),
		func() Config { c := Default; c.Model, c.Drop = pattern.V1, []string{"mobility"}; return c }(),
		func() Config { c := Default; c.Lambda = 2; return c }(),
		func() Config { c := Default; c.Epochs = 0; return c }(),
		func() Config { c := Default; c.Scale = 0; return c }(),
		func() Config { c := Default; c.Validation = 1; return c }(),
	} {
		if _, err := Train(context.Background(), recs, nil, c, nil); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if _, err := Train(context.Background(), nil, nil, Default, nil); err == nil {
		t.Errorf("no positions: no error")
	}
}

func TestQuantise(t *testing.T) {
	th := make([]float32, pattern.V1.Params())
	th[0], th[1], th[2] = 1.06, -5000, 5000
	w, clipped := Quantise(pattern.V1, th, 8)
	if w.W[0] != 8 || w.W[1] != -32767 || w.W[2] != 32767 || clipped != 2 {
		t.Errorf("quantised %v %v %v, clipped %d", w.W[0], w.W[1], w.W[2], clipped)
	}
}

// BenchmarkTrain measures training speed: positions/s is the figure, over
// 3 epochs of 200,000 positions with the default batch on the default
// workers (setting up counts in).
func BenchmarkTrain(b *testing.B) {
	recs := labelled(200000, pattern.V2, teacher(pattern.V2, 13), 1, 14)
	cfg := Default
	cfg.Epochs, cfg.Validation, cfg.K = 3, 0, 1
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Train(context.Background(), recs, nil, cfg, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cfg.Epochs*len(recs))*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

// TestCarryOver starts a version 2 fit from version 1 weights: every
// position keeps its value, since the knots 24 and 2 are among V2's.
func TestCarryOver(t *testing.T) {
	v1, _ := Quantise(pattern.V1, teacher(pattern.V1, 15), 8)
	theta := make([]float32, pattern.V2.Params())
	carryOver(v1, pattern.V2, theta)
	e := pattern.NewEvaluator(v1)
	l := newLayout(pattern.V2, false)
	for _, p := range evaltest.RandomPositions(2000, 16) {
		if got, want := float64(valueOf(&l, theta, &p)), e.Raw(&p); math.Abs(got-want) > 1e-3*(1+math.Abs(want)) {
			t.Fatalf("%s: %v carried over, %v with version 1", p.FEN(), got, want)
		}
	}
}

// TestDrop holds a term at zero: its weights stay 0 in every knot.
func TestDrop(t *testing.T) {
	m := pattern.V2
	recs := labelled(3000, m, teacher(m, 17), 1, 18)
	cfg := Default
	cfg.Epochs, cfg.Batch, cfg.Drop = 2, 256, []string{"mobility", "runaways"}
	res, err := Train(context.Background(), recs, nil, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	other := 0
	for k := range m.Knots {
		for _, off := range []int{pattern.GlobalsOffset + pattern.GlobalRunaways, pattern.GlobalsOffset + pattern.NumGlobals + pattern.EndMobility} {
			if w := res.Weights.W[m.Param(off, k)]; w != 0 {
				t.Errorf("knot %d, term %d: weight %d, want 0", k, off, w)
			}
		}
		if res.Weights.W[m.Param(pattern.GlobalsOffset+pattern.NumGlobals+pattern.EndTempo, k)] != 0 {
			other++
		}
	}
	if other == 0 {
		t.Errorf("the tempo weights, not dropped, stayed 0 too")
	}
}

// TestTie checks the tied parameters: a position's value from the base and
// the knots' slots is the value of the folded weights, and a tied fit
// learns the teacher too.
func TestTie(t *testing.T) {
	m := pattern.Model{Knots: []int{24, 12, 6, 2}, Ending: true}
	tied, plain := newLayout(m, true), newLayout(m, false)
	rng := rand.New(rand.NewPCG(19, 1))
	theta := make([]float32, m.Terms()*tied.slots)
	for i := range theta {
		theta[i] = float32(rng.NormFloat64() * 10)
	}
	folded := tied.fold(theta)
	if len(folded) != m.Params() {
		t.Fatalf("folded %d weights, want %d", len(folded), m.Params())
	}
	for _, p := range evaltest.RandomPositions(1000, 20) {
		if got, want := valueOf(&tied, theta, &p), valueOf(&plain, folded, &p); math.Abs(float64(got-want)) > 1e-3*(1+math.Abs(float64(want))) {
			t.Fatalf("%s: tied %v, folded %v", p.FEN(), got, want)
		}
	}
	recs := labelled(20000, m, teacher(m, 21), 1, 22)
	cfg := Default
	cfg.Model, cfg.Tie = m, true
	cfg.Lambda, cfg.K, cfg.Epochs, cfg.Batch, cfg.Rate, cfg.Validation = 0, 1, 4, 512, 1, 0.2
	res, err := Train(context.Background(), recs, nil, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if last := res.Epochs[len(res.Epochs)-1]; !(last.Valid < res.StartValid-0.01) {
		t.Errorf("tied: held-out loss %.4f at the start, %.4f at the end", res.StartValid, last.Valid)
	}
}

// TestBucketWeights checks that a bucket of weight 0 takes no part in a fit
// (its positions' labels can be anything: the weights come out the same),
// that the held-out loss overall is the buckets' losses weighted, and that
// bad weights are refused.
func TestBucketWeights(t *testing.T) {
	m := pattern.V1
	recs := labelled(4000, m, teacher(m, 23), 1, 24)
	cfg := Default
	cfg.Model, cfg.Tie, cfg.K, cfg.Epochs, cfg.Batch, cfg.Validation = m, false, 1, 2, 256, 0.2
	cfg.BucketWeights = []float64{1, 0, 2, 1, 1}
	flipped := append([]positions.Record(nil), recs...)
	changed := 0
	for i := range flipped {
		r := &flipped[i]
		if fit.RecordBucket(r) == 1 {
			r.Result, r.Score = positions.Win-r.Result, -r.Score+300
			changed++
		}
	}
	if changed == 0 {
		t.Fatal("no position has 7-10 pieces")
	}
	a, err := Train(context.Background(), recs, nil, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(context.Background(), flipped, nil, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a.Weights.W, b.Weights.W); diff != "" {
		t.Errorf("the labels of a bucket of weight 0 changed the fit (-kept +flipped):\n%s", diff)
	}
	e := a.Epochs[0]
	var sum, weight float64
	for i, w := range cfg.BucketWeights {
		sum += w * e.Buckets[i] * float64(a.BucketN[i])
		weight += w * float64(a.BucketN[i])
	}
	if want := sum / weight; math.Abs(e.Valid-want) > 1e-9 {
		t.Errorf("held-out loss %v, want the weighted mean of the buckets %v", e.Valid, want)
	}
	cfg.BucketWeights = nil
	c, err := Train(context.Background(), recs, nil, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(a.Weights.W, c.Weights.W) {
		t.Errorf("the bucket weights did not change the fit")
	}
	for _, w := range [][]float64{{1, 1, 1, 1}, {1, 1, -1, 1, 1}, {0, 0, 0, 0, 0}, {1, 1, math.NaN(), 1, 1}} {
		cfg.BucketWeights = w
		if _, err := Train(context.Background(), recs, nil, cfg, nil); err == nil {
			t.Errorf("bucket weights %v: no error", w)
		}
	}
	// Weights that no position counts under: only 7-10 pieces weigh, and
	// those positions are taken out.
	var rest []positions.Record
	for i := range recs {
		if fit.RecordBucket(&recs[i]) != 1 {
			rest = append(rest, recs[i])
		}
	}
	cfg.BucketWeights = []float64{0, 1, 0, 0, 0}
	if _, err := Train(context.Background(), rest, nil, cfg, nil); err == nil {
		t.Errorf("bucket weights %v, no position with 7-10 pieces: no error", cfg.BucketWeights)
	}
}
