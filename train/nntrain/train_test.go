package nntrain

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval/evaltest"
	"github.com/nechecb/nechecb/eval/nn"
	"github.com/nechecb/nechecb/train/fit"
	"github.com/nechecb/nechecb/train/positions"
)

// tiny is the smallest layout, with four stages.
var tiny = nn.Layout{Stages: 4, Hidden: 16, L2: 32, L3: 32}

// labelled returns n records of random positions scored by material (a
// man 100, a king 150, for the side to move), with results drawn with the
// probability the score gives at K = 1 and a fold per game of 8 positions.
func labelled(n int, seed uint64) []positions.Record {
	rng := rand.New(rand.NewPCG(seed, 5))
	var out []positions.Record
	fold := uint8(0)
	for i, p := range evaltest.RandomPositions(n, seed) {
		if i%8 == 0 {
			fold = uint8(rng.IntN(256))
		}
		own, opp := p.Pieces[p.Side], p.Pieces[p.Side^1]
		score := 100*(bits.OnesCount64(own)-bits.OnesCount64(opp)) + 50*(bits.OnesCount64(own&p.Kings)-bits.OnesCount64(opp&p.Kings))
		res := uint8(positions.Loss)
		if rng.Float64() < fit.Sigmoid(float64(score)/100) {
			res = positions.Win
		}
		out = append(out, positions.NewRecord(&p, res, score, fold))
	}
	return out
}

func tinyConfig() Config {
	cfg := Default
	cfg.Layout, cfg.Epochs, cfg.Batch, cfg.Rate, cfg.K, cfg.Validation = tiny, 3, 64, 0.01, 1, 0.2
	return cfg
}

// TestGradient compares backward's gradient with central differences of
// the loss on a few positions, for every kind of weight, in float64 terms
// of the float32 model (a loose tolerance).
func TestGradient(t *testing.T) {
	for _, lay := range []nn.Layout{tiny, {Stages: 1, SharedFirst: true, Hidden: 16, L2: 32, L3: 32}, {Stages: 4, SplitHeads: true, Hidden: 16, L2: 32, L3: 32}} {
		m := newModel(lay)
		th := m.randomInit(3)
		sc := m.newScratch()
		recs := labelled(12, 4)
		loss := func(th []float32) float64 {
			sum := 0.0
			for i := range recs {
				p := recs[i].Board()
				y := m.forward(th, &p, sc)
				sum += fit.CrossEntropy(fit.Sigmoid(float64(y)), fit.Target(&recs[i], 0.5, 1))
			}
			return sum
		}
		grad := make([]float32, m.n)
		for i := range recs {
			p := recs[i].Board()
			y := m.forward(th, &p, sc)
			m.backward(th, grad, float32(fit.Sigmoid(float64(y))-fit.Target(&recs[i], 0.5, 1)), sc)
		}
		rng := rand.New(rand.NewPCG(5, 6))
		checked, nonzero := 0, 0
		for range 400 {
			j := rng.IntN(m.n)
			if rng.IntN(2) == 0 {
				// Favour weights that carry a gradient.
				for k := range 50 {
					if grad[(j+k)%m.n] != 0 {
						j = (j + k) % m.n
						break
					}
				}
			}
			const h = 1e-3
			save := th[j]
			th[j] = save + h
			up := loss(th)
			th[j] = save - h
			down := loss(th)
			th[j] = save
			num := (up - down) / (2 * h)
			if math.Abs(num-float64(grad[j])) > 2e-3+0.02*math.Abs(num) {
				t.Errorf("%s: weight %d: gradient %.6f, finite differences %.6f", lay, j, grad[j], num)
			}
			checked++
			if grad[j] != 0 {
				nonzero++
			}
		}
		if nonzero < checked/3 {
			t.Errorf("%s: only %d of %d weights checked had a gradient", lay, nonzero, checked)
		}
	}
}

// TestLossFalls fits material on a small set: the held-out loss falls well
// below the random start's.
func TestLossFalls(t *testing.T) {
	recs := labelled(4000, 7)
	cfg := tinyConfig()
	cfg.Epochs, cfg.Lambda = 6, 0
	res, err := Train(context.Background(), recs, nil, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := res.Epochs[len(res.Epochs)-1]
	t.Logf("held-out loss %.4f -> %.4f (kept epoch %d), quantisation error max %.2f mean %.3f cp", res.StartValid, last.Valid, res.Best, res.QuantMax, res.QuantMean)
	if res.Best == 0 || !(res.BestValid() < res.StartValid-0.05) {
		t.Errorf("held-out loss %.4f at the start, %.4f kept", res.StartValid, res.BestValid())
	}
	if res.Clamped != 0 {
		t.Errorf("%d weights clamped in quantisation", res.Clamped)
	}
}

// TestDeterministicAcrossWorkers: the same seed gives the same weights
// with 1, 2 and 5 workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	recs := labelled(600, 8)
	var first *nn.Net
	for _, w := range []int{1, 2, 5} {
		cfg := tinyConfig()
		cfg.Workers = w
		res, err := Train(context.Background(), recs, nil, cfg, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res.Net
			continue
		}
		if !slices.Equal(first.Format(), res.Net.Format()) {
			t.Errorf("%d workers give other weights than 1", w)
		}
	}
}

// TestResume stops a fit after its first epoch (a run of 1 epoch of 3 has
// another cosine, so the stop is made by cancelling) and resumes it from
// the checkpoint: the net is the uninterrupted run's.
func TestResume(t *testing.T) {
	recs := labelled(600, 9)
	cfg := tinyConfig()
	whole, err := Train(context.Background(), recs, nil, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Checkpoint = filepath.Join(t.TempDir(), "ck")
	ctx, cancel := context.WithCancel(context.Background())
	part, err := Train(ctx, recs, nil, cfg, nil, func(e fit.Epoch, _ float64) {
		if e.Epoch == 1 {
			cancel()
		}
	})
	if err != nil || len(part.Epochs) != 1 {
		t.Fatalf("the stopped fit: %v, %d epochs", err, len(part.Epochs))
	}
	if _, err := Train(context.Background(), recs, nil, cfg, nil, nil); err == nil {
		t.Errorf("a fit without --resume overwrote the checkpoint")
	}
	cfg.Resume = true
	res, err := Train(context.Background(), recs, nil, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resumed != 1 || len(res.Epochs) != 3 || res.Best != whole.Best || !slices.Equal(whole.Net.Format(), res.Net.Format()) {
		t.Errorf("resumed at %d, %d epochs, kept %d (uninterrupted %d): the nets differ or the curve does", res.Resumed, len(res.Epochs), res.Best, whole.Best)
	}
	// Another fit's settings are refused, and so is a damaged file, with
	// its offset.
	other := cfg
	other.Seed = 2
	if _, err := Train(context.Background(), recs, nil, other, nil, nil); err == nil || !strings.Contains(err.Error(), "another fit") {
		t.Errorf("a checkpoint of seed 1 resumed a fit of seed 2: %v", err)
	}
	good, err := os.ReadFile(cfg.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"flipped":   append(append([]byte(nil), good[:100]...), append([]byte{good[100] ^ 1}, good[101:]...)...),
		"truncated": good[:len(good)/2],
		"empty":     nil,
	} {
		if err := os.WriteFile(cfg.Checkpoint, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Train(context.Background(), recs, nil, cfg, nil, nil); err == nil || !strings.Contains(err.Error(), "offset") {
			t.Errorf("%s checkpoint: %v, want an error naming the offset", name, err)
		}
	}
}

// TestQuantisedMatchesFloat: the written net's integer outputs are within
// a few centipawns of the float model's, and a net read back as the
// starting weights gives the same integer outputs.
func TestQuantisedMatchesFloat(t *testing.T) {
	recs := labelled(1500, 10)
	cfg := tinyConfig()
	res, err := Train(context.Background(), recs, nil, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.QuantN == 0 || res.QuantMax > 40 || res.QuantMean > 4 {
		t.Errorf("quantisation error max %.2f mean %.2f cp over %d positions", res.QuantMax, res.QuantMean, res.QuantN)
	}
	// The rounding report starts from the kept epoch's float weights, and
	// rounding a layer moves the loss a little.
	if math.Abs(res.FloatLoss-res.BestValid()) > 1e-9 || len(res.Rounding) != 4 {
		t.Errorf("float loss %v, kept epoch's held-out loss %v, %d layers reported", res.FloatLoss, res.BestValid(), len(res.Rounding))
	}
	moved := false
	for _, r := range res.Rounding {
		d := math.Abs(r.Loss - res.FloatLoss)
		moved = moved || d > 0
		if d > 0.01 {
			t.Errorf("rounding the %s layer moved the loss by %v", r.Layer, d)
		}
	}
	if !moved {
		t.Errorf("rounding no layer moved the loss: %+v", res.Rounding)
	}
	path := filepath.Join(t.TempDir(), "n.nn")
	if err := res.Net.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	net, err := nn.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(net.Layout)
	th := m.dequantise(net)
	back, clamped := m.quantise(th, net.CPPerUnit)
	if clamped != 0 || !slices.Equal(back.Format(), net.Format()) {
		t.Errorf("dequantised and quantised again, the net changed (%d clamped)", clamped)
	}
	sc := m.newScratch()
	worst := 0.0
	for i := range recs {
		p := recs[i].Board()
		f := float64(m.forward(th, &p, sc)) * float64(net.CPPerUnit)
		worst = max(worst, math.Abs(f-float64(net.Centipawns(net.Output(&p)))))
	}
	if worst > 40 {
		t.Errorf("the file's net is %.2f cp from its float weights", worst)
	}
	if res.K != 1 || net.CPPerUnit != 100 {
		t.Errorf("k %v, %v cp per unit, want 1 and 100", res.K, net.CPPerUnit)
	}
}

// BenchmarkEpoch measures training speed on the default layout, one
// worker: positions/s is the epoch's training rate over 50,000 positions
// (Result.Speed; the held-out pass and the quantisation do not count).
func BenchmarkEpoch(b *testing.B) {
	recs := labelled(50000, 11)
	cfg := Default
	cfg.Epochs, cfg.Workers, cfg.K, cfg.Validation = 1, 1, 1, 0.02
	b.ResetTimer()
	speed := 0.0
	for range b.N {
		res, err := Train(context.Background(), recs, nil, cfg, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		speed += res.Speed[0]
	}
	b.ReportMetric(speed/float64(b.N), "positions/s")
}

// TestNoAllocation: a position's forward and backward passes allocate
// nothing.
func TestNoAllocation(t *testing.T) {
	m := newModel(Default.Layout)
	th, grad := m.randomInit(1), make([]float32, m.n)
	sc := m.newScratch()
	recs := labelled(16, 12)
	i := 0
	if n := testing.AllocsPerRun(100, func() {
		p := recs[i%len(recs)].Board()
		i++
		y := m.forward(th, &p, sc)
		m.backward(th, grad, y-0.5, sc)
	}); n != 0 {
		t.Errorf("%v allocations per position", n)
	}
}
