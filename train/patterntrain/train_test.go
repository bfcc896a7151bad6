package patterntrain

import (
	"bytes"
	"context"
	"encoding/xml"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/eval/evaltest"
	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/train/positions"
)

// teacher returns weights that stand for a true evaluation: global terms
// and random king-square weights, which random positions show often
// enough to learn, and small random pattern weights, which they do not.
func teacher(seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 3))
	th := make([]float32, pattern.NumParams)
	for i := range th {
		th[i] = float32(rng.NormFloat64())
	}
	for ph := range pattern.NumPhases {
		for k := range pattern.KingSquares {
			th[pattern.Param(pattern.KingsOffset+k, ph)] = float32(rng.NormFloat64() * 30)
		}
		for g, v := range [pattern.NumGlobals]float32{100, 150, 40, 60} {
			th[pattern.Param(pattern.GlobalsOffset+g, ph)] = v * float32(1+ph)
		}
	}
	return th
}

// labelled returns n records of random positions whose scores are the
// teacher's values and whose results are drawn with the probability the
// teacher gives at scale k.
func labelled(n int, th []float32, k float64, seed uint64) []positions.Record {
	t := &trainer{theta: th}
	rng := rand.New(rand.NewPCG(seed, 4))
	var f pattern.Features
	var out []positions.Record
	for _, p := range evaltest.RandomPositions(n, seed) {
		pattern.Extract(&p, &f)
		v, _ := t.forward(&f)
		res := uint8(positions.Loss)
		if rng.Float64() < sigmoid(k*float64(v)/100) {
			res = positions.Win
		}
		out = append(out, positions.NewRecord(&p, res, int(math.Round(float64(v))), uint8(rng.IntN(256))))
	}
	return out
}

func TestFitKFindsTheScale(t *testing.T) {
	recs := labelled(20000, teacher(1), 1.5, 2)
	if k := FitK(recs); math.Abs(k-1.5) > 0.15 {
		t.Errorf("FitK = %.3f, want about 1.5", k)
	}
}

// TestLearnsTheTeacher trains on the teacher's scores alone and wants the
// held-out loss to fall well below the start and the values to move toward
// the teacher's.
func TestLearnsTheTeacher(t *testing.T) {
	th := teacher(5)
	recs := labelled(30000, th, 1, 6)
	cfg := Default
	cfg.Lambda, cfg.K, cfg.Epochs, cfg.Batch, cfg.Rate, cfg.Validation, cfg.Workers = 0, 1, 8, 512, 1, 0.2, 2
	res, err := Train(context.Background(), recs, nil, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := res.Curve[len(res.Curve)-1]
	if res.Best == 0 || !(last.Valid < res.StartValid-0.01) {
		t.Errorf("held-out loss %.4f at the start, %.4f at the end (best epoch %d)", res.StartValid, last.Valid, res.Best)
	}
	// Mean distance to the teacher on held-out positions, before and after.
	e := pattern.NewEvaluator(res.Weights)
	teach := &trainer{theta: th}
	var before, after float64
	var f pattern.Features
	n := 0
	for i := range recs {
		if int(recs[i].Fold) >= 51 { // the held-out share 0.2 of 256
			continue
		}
		p := recs[i].Board()
		pattern.Extract(&p, &f)
		want, _ := teach.forward(&f)
		before += math.Abs(float64(want) - float64(p.Material(100, 130)))
		after += math.Abs(float64(want) - e.Raw(&p))
		n++
	}
	t.Logf("held-out loss %.4f -> %.4f; distance to the teacher %.1f -> %.1f", res.StartValid, last.Valid, before/float64(n), after/float64(n))
	if n == 0 || after > 0.5*before {
		t.Errorf("mean distance to the teacher on %d held-out positions: %.1f with material, %.1f trained", n, before/float64(n), after/float64(n))
	}
}

// TestDeterministic wants the same weights from one worker and from two.
func TestDeterministic(t *testing.T) {
	recs := labelled(4000, teacher(7), 1, 8)
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
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Errorf("one worker vs two (-1 +2):\n%s", diff)
	}
}

func TestStartWeights(t *testing.T) {
	// Starting from weights and training with a tiny step leaves them
	// about where they were.
	start, _ := Quantise(teacher(9), 8)
	recs := labelled(2000, teacher(9), 1, 10)
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
	recs := labelled(100, teacher(11), 1, 12)
	for _, c := range []Config{
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
	th := make([]float32, pattern.NumParams)
	th[0], th[1], th[2] = 1.06, -5000, 5000
	w, clipped := Quantise(th, 8)
	if w.W[0] != 8 || w.W[1] != -32767 || w.W[2] != 32767 || clipped != 2 {
		t.Errorf("quantised %v %v %v, clipped %d", w.W[0], w.W[1], w.W[2], clipped)
	}
}

func TestPlotIsXML(t *testing.T) {
	res := &Result{StartValid: 0.5, ValidN: 1, Best: 2, Curve: []Epoch{{Epoch: 1, Train: 0.45, Valid: 0.48}, {Epoch: 2, Train: 0.44, Valid: 0.47}}}
	d := xml.NewDecoder(bytesReader(PlotSVG(res, "a <title> & more")))
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("the plot is not XML: %v", err)
			}
			break
		}
	}
}

// BenchmarkTrain measures training speed: positions/s is the figure, over
// 3 epochs of 200,000 positions with the default batch on the default
// workers (setting up counts in).
func BenchmarkTrain(b *testing.B) {
	recs := labelled(200000, teacher(13), 1, 14)
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

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
