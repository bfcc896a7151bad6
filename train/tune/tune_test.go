package tune

import (
	"bytes"
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/train/selfplay"
)

// syntheticSamples draws random feature vectors and labels each with the
// probability that the logistic model with weights w and constant k gives.
func syntheticSamples(n int, w heuristic.Weights, k float64) []Sample {
	rng := rand.New(rand.NewPCG(5, 6))
	out := make([]Sample, n)
	for i := range out {
		s := &out[i]
		for f := range s.Features {
			if f <= heuristic.Mobility { // a few features, the rest stay 0
				s.Features[f] = float64(rng.IntN(7) - 3)
			}
		}
		s.Opening = rng.Float64()
		s.Result = sigmoid(k * model(&w, s) / 100)
	}
	return out
}

func TestFitKFindsTheConstant(t *testing.T) {
	w := heuristic.DefaultWeights()
	samples := syntheticSamples(2000, w, 0.7)
	if k := FitK(samples, w); math.Abs(k-0.7) > 1e-3 {
		t.Errorf("FitK = %v, want 0.7", k)
	}
}

func TestFitRecoversWeights(t *testing.T) {
	var truth heuristic.Weights
	for f := heuristic.Men; f <= heuristic.Mobility; f++ {
		truth.Opening[f] = float64(10 * (f - 4))
		truth.Endgame[f] = float64(-7 * (f - 5))
	}
	truth.Opening[heuristic.Men] = 100
	samples := syntheticSamples(800, truth, 1)
	start := heuristic.Weights{}
	start.Opening[heuristic.Men] = 100
	got := Fit(context.Background(), samples, start, 1, FitConfig{Iterations: 2000, Rate: 1}, nil)
	if diff := cmp.Diff(truth, got, cmpopts.EquateApprox(0, 0.5)); diff != "" {
		t.Errorf("Fit did not recover the weights (-want +got):\n%s", diff)
	}
	if l := Loss(samples, got, 1); l > 1e-6 {
		t.Errorf("loss after the fit %v", l)
	}
}

func TestGenerate(t *testing.T) {
	f, err := eval.Load("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	records, err := Generate(context.Background(), f, DataConfig{Games: 2, Game: selfplay.Config{Depth: 2, MaxPlies: 80}, RandomPlies: 2, Seed: 3, Workers: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) < 20 {
		t.Fatalf("2 games gave %d positions", len(records))
	}
	for _, r := range records {
		if r.Result != 0 && r.Result != 0.5 && r.Result != 1 {
			t.Fatalf("result %v", r.Result)
		}
		if r.Position.HasCapture() {
			t.Fatalf("%s: a position with a capture to make", r.Position.FEN())
		}
	}
	for i, s := range SamplesOf(records) {
		p := records[i].Position
		if s.Result != records[i].Result || s.Features != heuristic.Features(&p) || s.Opening != heuristic.BlendFactor(bits.OnesCount64(p.Occupied())) {
			t.Fatalf("sample %d does not match its record", i)
		}
	}
	// The same seed gives the same positions with one worker.
	alone, err := Generate(context.Background(), f, DataConfig{Games: 2, Game: selfplay.Config{Depth: 2, MaxPlies: 80}, RandomPlies: 2, Seed: 3, Workers: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(alone) != len(records) {
		t.Fatalf("one worker gave %d positions, two gave %d", len(alone), len(records))
	}
	for i := range alone {
		if alone[i] != records[i] {
			t.Fatalf("record %d differs between one and two workers", i)
		}
	}
	// The records survive the positions file.
	again, err := Read(bytes.NewReader(FormatRecords(records)), "data")
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(records) {
		t.Fatalf("read back %d records of %d", len(again), len(records))
	}
	for i := range again {
		if again[i].Result != records[i].Result || !again[i].Position.SameBoard(&records[i].Position) {
			t.Fatalf("record %d reads back as %v %s", i, again[i].Result, again[i].Position.FEN())
		}
	}
}

func TestSelectIsReproducibleAndInRange(t *testing.T) {
	cfg := SelectConfig{Population: 6, Rounds: 2, Keep: 0.2, Game: selfplay.Config{Depth: 1, MaxPlies: 60}, Seed: 9, Workers: 1}
	a, err := Select(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Select(context.Background(), cfg, nil)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs with one seed differ (-first +second):\n%s", diff)
	}
	for i := range a.Opening {
		if math.Abs(a.Opening[i]) > 100 || math.Abs(a.Endgame[i]) > 100 {
			t.Fatalf("weight outside [-100, 100]: %+v", a)
		}
	}
}

// antiMaterial is material counting negated: it throws pieces away.
type antiMaterial struct{ eval.Material }

func (a antiMaterial) Evaluate(p *engine.Position) int { return -a.Material.Evaluate(p) }

func TestPlayPair(t *testing.T) {
	openings, _ := books.Standard("3move")
	material := func() eval.Evaluator { return eval.Material{} }
	weak := func() eval.Evaluator { return antiMaterial{} }
	cfg := selfplay.Config{Depth: 2, MaxPlies: 200}
	if w, n := playPair(context.Background(), material, weak, openings[0], cfg); w != 1 || n != 1 {
		t.Errorf("material against its negation: winner %d after %d games, want 1 after 1", w, n)
	}
	if w, _ := playPair(context.Background(), weak, material, openings[0], cfg); w != -1 {
		t.Errorf("negated material against material: winner %d, want -1", w)
	}
	// Games adjudicated after 8 plies are drawn both ways: the pair is tied
	// after 2 games.
	if w, n := playPair(context.Background(), material, material, openings[0], selfplay.Config{Depth: 1, MaxPlies: 8}); w != 0 || n != 2 {
		t.Errorf("adjudicated games: winner %d after %d games, want 0 after 2", w, n)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"# c\n2 B:W21:B1\n", "d.txt:2: bad result \"2\""},
		{"1\n", "d.txt:1: no position after the result"},
		{"0.5 X:W21:B1\n", "d.txt:1: "},
	} {
		if _, err := Read(strings.NewReader(tc.text), "d.txt"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add("1 B:W21,22:B1,K2\n0.5 W:WK32:B5\n# x\n0 B:W30:B3\n")
	f.Add("0 W:W:B\n")
	f.Fuzz(func(t *testing.T, text string) {
		recs, err := Read(strings.NewReader(text), "fuzz")
		if err != nil {
			return
		}
		again, err := Read(bytes.NewReader(FormatRecords(recs)), "again")
		if err != nil {
			t.Fatalf("written records do not read back: %v", err)
		}
		if len(again) != len(recs) {
			t.Fatalf("%d records read back as %d", len(recs), len(again))
		}
		for i := range recs {
			if again[i].Result != recs[i].Result || !again[i].Position.SameBoard(&recs[i].Position) {
				t.Fatalf("record %d changed: %v %s", i, again[i].Result, again[i].Position.FEN())
			}
		}
	})
}
