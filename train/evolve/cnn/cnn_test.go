package cnn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval"
	net "github.com/nechecb/nechecb/eval/cnn"
	"github.com/nechecb/nechecb/train/evolve"
	"github.com/nechecb/nechecb/train/evolve/evolvetest"
)

func numbered(offset float64) net.Weights {
	var w net.Weights
	for i := range w {
		w[i] = offset + float64(i)
	}
	return w
}

func TestCrossoverSplitsAtTheCut(t *testing.T) {
	a, b := numbered(0), numbered(1000)
	for _, x := range []int{1, 2, 100, 246, 247} {
		c1, c2 := Crossover(&a, &b, x)
		for i := range net.NumWeights {
			wantA, wantB := a[i], b[i] // c1 takes a before the cut
			if i >= x {
				wantA, wantB = b[i], a[i]
			}
			if c1[i] != wantA || c2[i] != wantB {
				t.Fatalf("cut %d, weight %d: children %v, %v; want %v, %v", x, i, c1[i], c2[i], wantA, wantB)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	seen := map[int]bool{}
	for range 20000 {
		x := CutPoint(rng)
		if x < 1 || x > net.NumWeights {
			t.Fatalf("cut point %d outside 1..247", x)
		}
		seen[x] = true
	}
	if len(seen) != net.NumWeights {
		t.Errorf("20000 cuts reached %d of the 247 points", len(seen))
	}
}

func TestMutantStaysWithinRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	w := numbered(0)
	sum, n := 0.0, 0
	for range 100 {
		m := Mutant(rng, &w, 0.1)
		for i := range m {
			d := m[i] - w[i]
			if d < -0.1 || d >= 0.1 {
				t.Fatalf("step %v outside [-0.1, 0.1)", d)
			}
			sum += d
			n++
		}
	}
	// Uniform on ±0.1: sd 0.1/√3 per step.
	if mean := sum / float64(n); math.Abs(mean) > 5*0.1/math.Sqrt(3)/math.Sqrt(float64(n)) {
		t.Errorf("mean step %v, want about 0", mean)
	}
}

func TestBreedMakesTheSeedsGeneration(t *testing.T) {
	var survivors []net.Row
	for i := range 16 {
		survivors = append(survivors, net.Row{Name: fmt.Sprintf("Gen14_%04d", 40+i), Weights: numbered(float64(i * 1000))})
	}
	next := Breed(rand.New(rand.NewPCG(3, 3)), survivors, 15, 3, 0.1)
	if len(next) != 1024 {
		t.Fatalf("%d networks, want 16 + 240 + 768 = 1024", len(next))
	}
	for i, r := range next[:16] {
		if r != survivors[i] {
			t.Errorf("survivor %d changed: %s", i, r.Name)
		}
	}
	names := map[string]bool{}
	for i, r := range next[16:] {
		if r.Name != net.RowName(15, i) {
			t.Fatalf("network %d is named %s, want %s", 16+i, r.Name, net.RowName(15, i))
		}
		names[r.Name] = true
	}
	if !names["Gen15_0000"] || !names["Gen15_1007"] || len(names) != 1008 {
		t.Errorf("new names: %d, first and last present: %v %v", len(names), names["Gen15_0000"], names["Gen15_1007"])
	}
	// The first crossover pair mixes survivors 0 and 1 at one cut.
	c1, c2 := next[16].Weights, next[17].Weights
	x := 0
	for x < net.NumWeights && c1[x] == survivors[0].Weights[x] {
		x++
	}
	if want1, want2 := Crossover(&survivors[0].Weights, &survivors[1].Weights, x); c1 != want1 || c2 != want2 {
		t.Errorf("the first children are not a one-point crossover of survivors 0 and 1")
	}
}

// testArena plays no-search games between random networks.
func testArena(t *testing.T, n int, rules evolve.Rules) *arena {
	rng := rand.New(rand.NewPCG(uint64(n), 5))
	ar := &arena{ctx: context.Background(), pool: evolve.NewPool(2, rules), rng: rng, seed: 1}
	for range n {
		w := randomWeights(rng, 1)
		nw := net.New(&w)
		ar.cast = append(ar.cast, func() eval.Evaluator { return nw })
	}
	return ar
}

func field(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func distinct(t *testing.T, what string, xs []int, n int) {
	t.Helper()
	seen := map[int]bool{}
	for _, x := range xs {
		if seen[x] || x < 0 || x >= n {
			t.Fatalf("%s: %v repeats or leaves the field", what, xs)
		}
		seen[x] = true
	}
}

// Each stage of the tournament lets through the number it should.
func TestTournamentStagesSelectTheirNumbers(t *testing.T) {
	for _, rules := range []evolve.Rules{{CaptureDraw: 40, MaxPlies: 400}, {MaxPlies: 1}} { // the second: every game a draw
		ar := testArena(t, 40, rules)
		for _, tc := range []struct {
			in, out int
			stage   func([]int) ([]int, error)
		}{
			{40, 20, ar.eliminationRound},
			{11, 6, ar.eliminationRound},
			{9, 8, func(f []int) ([]int, error) { return ar.playIn(f, 8) }},
			{16, 8, func(f []int) ([]int, error) { return ar.groupRound(f, 4, 2) }},
			{10, 6, func(f []int) ([]int, error) { return ar.groupRound(f, 4, 2) }},
		} {
			got, err := tc.stage(field(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.out {
				t.Errorf("max plies %d: a stage took %d to %d, want %d", rules.MaxPlies, tc.in, len(got), tc.out)
			}
			distinct(t, "stage", got, tc.in)
		}
	}
}

// The seed's tournament takes 1028 (generation 0) and 1024 (later) down to
// 16; tiny versions of it here.
func TestTournamentKeepsSurvivors(t *testing.T) {
	cfg := tiny(Faithful)
	for _, n := range []int{40, 32, 37, 24, 18} {
		cfg.Population = n
		l := &Learner{Base: evolve.Base[Config, *Config]{Cfg: cfg}, pop: make([]net.Row, n)}
		ar := testArena(t, n, cfg.Rules())
		ranked, best, mean, err := l.tournament(ar)
		if err != nil {
			t.Fatal(err)
		}
		if len(ranked) != cfg.Survivors || best < mean {
			t.Errorf("%d networks: %d survivors (want %d), best %v mean %v", n, len(ranked), cfg.Survivors, best, mean)
		}
		distinct(t, "survivors", ranked, n)
	}
}

func tiny(mode string) Config {
	c := Default(mode)
	c.Population, c.Survivors, c.Mutants, c.MaxPlies = 24, 3, 1, 120
	if mode == Faithful {
		c.Rounds, c.Field = 2, 8
	} else {
		c.Pairs, c.Depth = 1, 1
	}
	return c
}

func newRun(t *testing.T, dir string, cfg Config, resume bool) *Learner {
	t.Helper()
	if err := evolve.Prepare(dir, resume, cfg); err != nil {
		t.Fatal(err)
	}
	l, err := New(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Every generation is a CSV in the seed's layout that the cnn loader
// reads, rows named GenG_IIII; the survivors file gives cnn:RUN.
func TestFiles(t *testing.T) {
	for _, mode := range evolvetest.Sample([]string{Faithful, Improved}, 0) {
		cfg := tiny(mode)
		dir := t.TempDir()
		evolvetest.Run(t, dir, newRun(t, dir, cfg, false), 1, 2, 2)
		for gen := range 3 {
			tab, err := net.ReadFile(net.GenFile(dir, gen))
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Rows) != cfg.Size(gen) {
				t.Errorf("%s generation %d: %d rows, want %d", mode, gen, len(tab.Rows), cfg.Size(gen))
			}
			last := tab.Rows[len(tab.Rows)-1].Name
			if want := net.RowName(gen, cfg.Size(gen)-1-map[bool]int{true: 0, false: cfg.Survivors}[gen == 0]); last != want {
				t.Errorf("%s generation %d: last row %s, want %s", mode, gen, last, want)
			}
			if _, err := eval.Load("cnn:" + net.GenFile(dir, gen) + "#" + last); err != nil {
				t.Errorf("cnn:FILE#%s: %v", last, err)
			}
		}
		best, err := net.ReadFile(net.BestFile(dir, 1))
		if err != nil || len(best.Rows) != cfg.Survivors {
			t.Fatalf("%s: survivors of generation 1: %v", mode, err)
		}
		if _, err := eval.Load("cnn:" + dir); err != nil {
			t.Errorf("%s: cnn:RUN: %v", mode, err)
		}
		if _, err := eval.Load("cnn:" + dir + "#" + best.Rows[0].Name); err != nil && strings.HasPrefix(best.Rows[0].Name, "Gen1_") {
			t.Errorf("%s: cnn:RUN#%s: %v", mode, best.Rows[0].Name, err)
		}
	}
}

func TestSameFilesWhateverTheWorkers(t *testing.T) {
	for _, mode := range evolvetest.Sample([]string{Faithful, Improved}, 1) {
		a, b := t.TempDir(), t.TempDir()
		evolvetest.Run(t, a, newRun(t, a, tiny(mode), false), 1, 2, 1)
		evolvetest.Run(t, b, newRun(t, b, tiny(mode), false), 1, 2, 3)
		evolvetest.SameFolders(t, mode+": 1 and 3 workers", a, b)
	}
}

func TestResumeAfterStopMidGeneration(t *testing.T) {
	for _, mode := range evolvetest.Sample([]string{Faithful, Improved}, 2) {
		cfg := tiny(mode)
		whole, dir := t.TempDir(), t.TempDir()
		evolvetest.Run(t, whole, newRun(t, whole, cfg, false), 1, 3, 2)
		evolvetest.Run(t, dir, newRun(t, dir, cfg, false), 1, 1, 2)
		l := newRun(t, dir, cfg, true)
		if done, err := l.Open(); err != nil || done != 1 {
			t.Fatalf("%d done, %v", done, err)
		}
		evolvetest.StepStopped(t, l, 1, 5)
		evolvetest.Run(t, dir, newRun(t, dir, cfg, true), 1, 3, 1)
		evolvetest.SameFolders(t, mode+": resumed and whole", whole, dir)
	}
}

func TestBadPopulation(t *testing.T) {
	cfg := tiny(Faithful)
	dir := t.TempDir()
	evolvetest.Run(t, dir, newRun(t, dir, cfg, false), 1, 1, 2)
	data, _ := os.ReadFile(net.GenFile(dir, 1))
	lines := strings.Split(string(data), "\n")
	short := lines[3][:strings.LastIndex(lines[3], ",")]
	lines[3] = short
	os.WriteFile(net.GenFile(dir, 1), []byte(strings.Join(lines, "\n")), 0o644)
	l, _ := New(dir, cfg)
	want := fmt.Sprintf("Gen1.csv:4:%d: row", len(short)+1)
	if _, err := l.Open(); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "has 246 weights") {
		t.Errorf("a short row: %v, want %q", err, want)
	}
	os.WriteFile(net.GenFile(dir, 1), []byte(strings.Join(append(lines[:3], lines[4:]...), "\n")), 0o644)
	if _, err := l.Open(); err == nil || !strings.Contains(err.Error(), "17 networks, generation 1 has 18") {
		t.Errorf("a missing row: %v", err)
	}
}
