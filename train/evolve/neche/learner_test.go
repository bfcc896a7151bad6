package neche

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval"
	genome "github.com/nechecb/nechecb/eval/neche"
	"github.com/nechecb/nechecb/train/evolve"
	"github.com/nechecb/nechecb/train/evolve/evolvetest"
)

// tiny returns settings small enough for go test -short.
func tiny(mode string) Config {
	c := Default(mode)
	c.Population, c.Genes, c.Depth, c.MaxPlies = 8, 12, 1, 120
	if mode == Improved {
		c.Opponents, c.Elite, c.Hall, c.LadderBallots = 3, 2, 1, 1
	}
	return c
}

// run runs generations of cfg in dir on workers workers.
func run(t *testing.T, dir string, cfg Config, generations, workers int) {
	t.Helper()
	if err := evolve.Prepare(dir, false, cfg); err != nil {
		t.Fatal(err)
	}
	l, err := New(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := evolve.Run(context.Background(), l, evolve.Config{Dir: dir, Generations: generations, Seed: cfg.Seed, Workers: workers}); err != nil {
		t.Fatal(err)
	}
}

// folder returns every file under dir by its relative path.
func folder(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameFolders(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("%s: %d files and %d files", what, len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s: %s differs", what, name)
		}
	}
}

// The files are neche's: best_networks.txt with a line per generation,
// nechedbg/N_nets.txt with the population; nechecb's loaders read them,
// and neche:RUN is the last best genome.
func TestFilesAreNeches(t *testing.T) {
	for _, mode := range evolvetest.Sample([]string{Faithful, Improved}, 0) {
		cfg := tiny(mode)
		dir := t.TempDir()
		run(t, dir, cfg, 3, 2)
		best, err := os.ReadFile(filepath.Join(dir, genome.RunBestFile))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(best), "\n")
		if len(lines) != 4 || lines[3] != "" {
			t.Fatalf("%s: best_networks.txt has %d pieces, want 3 lines each ending in a newline", mode, len(lines))
		}
		for gen := 0; gen <= 3; gen++ {
			pop, err := ReadPopulation(PopulationPath(dir, gen), cfg.Population, cfg.Genes)
			if err != nil {
				t.Fatalf("%s generation %d: %v", mode, gen, err)
			}
			for i, g := range pop {
				if !g.Viable() || len(g.String()) != cfg.Genes*16 {
					t.Errorf("%s generation %d genome %d: viable %v, %d letters", mode, gen, i+1, g.Viable(), len(g.String()))
				}
			}
			if gen < 3 && !strings.Contains(string(readFile(t, PopulationPath(dir, gen))), lines[gen]+"\n") {
				t.Errorf("%s: the best of generation %d is not in its population", mode, gen)
			}
		}
		g, err := genome.FromSpec(dir, "")
		if err != nil || g.String() != lines[2] {
			t.Errorf("%s: neche:RUN gives %v; want the last line of best_networks.txt", mode, err)
		}
		if _, err := eval.Load("neche:" + dir); err != nil {
			t.Errorf("%s: eval.Load(neche:RUN): %v", mode, err)
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// variants returns the settings the determinism and resume tests run: each
// mode's tiny settings, and improved mode with every optional setting on
// (per-letter rates, narrow initial weights, a layer mix, a two-rung ladder, full
// shaping).
func variants() map[string]Config {
	all := tiny(Improved)
	all.LetterRates = []float64{0.01, 0.01, 0.01, 0.02, 0.02, 0.02, 0.001, 0.002, 0.05, 0.05, 0.05, 0.01, 0, 0, 0, 0.3}
	all.InitWeight, all.Shaping, all.Ladder, all.LayerMix = 2, 1, []string{evolve.OpponentG1, evolve.OpponentHeuristic}, []float64{1, 1, 6}
	return map[string]Config{Faithful: tiny(Faithful), Improved: tiny(Improved), "improved, all options": all}
}

func TestSameFilesWhateverTheWorkers(t *testing.T) {
	vs := variants()
	for _, mode := range evolvetest.Sample(slices.Sorted(maps.Keys(vs)), 1) {
		cfg := vs[mode]
		a, b := t.TempDir(), t.TempDir()
		run(t, a, cfg, 2, 1)
		run(t, b, cfg, 2, 3)
		sameFolders(t, mode+": 1 worker and 3 workers", folder(t, a), folder(t, b))
	}
}

// A run stopped during a generation and resumed ends with the files of a
// run that was never stopped.
func TestResumeAfterStopMidGeneration(t *testing.T) {
	vs := variants()
	for _, mode := range evolvetest.Sample(slices.Sorted(maps.Keys(vs)), 2) {
		cfg := vs[mode]
		whole := t.TempDir()
		run(t, whole, cfg, 3, 2)

		dir := t.TempDir()
		run(t, dir, cfg, 1, 2)
		// Generation 1, stopped after a few games.
		l, err := New(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if done, err := l.Open(); err != nil || done != 1 {
			t.Fatalf("open after one generation: %d, %v", done, err)
		}
		evolvetest.StepStopped(t, l, 1, 3)
		if err := evolve.Prepare(dir, true, cfg); err != nil {
			t.Fatal(err)
		}
		l, err = New(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := evolve.Run(context.Background(), l, evolve.Config{Dir: dir, Generations: 3, Seed: cfg.Seed, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		sameFolders(t, mode+": resumed and whole", folder(t, whole), folder(t, dir))
	}
}

// A genome from neche's own sample file, put into a population, survives a
// generation unchanged when it is kept as an elite.
func TestSampleGenomeSurvivesAsElite(t *testing.T) {
	f, err := genome.ReadFile("testdata/best_networks_line1.txt")
	if err != nil {
		t.Fatal(err)
	}
	sample, err := f.Select("1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := tiny(Improved)
	cfg.Genes, cfg.Depth, cfg.Opponents, cfg.Elite = len(sample), 2, 4, 2
	dir := t.TempDir()
	if err := evolve.Prepare(dir, false, cfg); err != nil {
		t.Fatal(err)
	}
	l, err := New(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Open(); err != nil {
		t.Fatal(err)
	}
	pop, err := l.initial()
	if err != nil {
		t.Fatal(err)
	}
	pop[3] = sample // among the opponents, and the best of them: G1 counts material
	l.SetPopulation(pop)
	if _, err := l.Step(context.Background(), 0, evolve.NewPool(2, l.Rules())); err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(readFile(t, "testdata/best_networks_line1.txt")))
	next := strings.Split(string(readFile(t, PopulationPath(dir, 1))), "\n")
	if next[0] != want {
		t.Errorf("the first elite of generation 1 is not the sample genome letter for letter")
	}
	if best := strings.Split(string(readFile(t, filepath.Join(dir, genome.RunBestFile))), "\n")[0]; best != want {
		t.Errorf("the best of generation 0 is not the sample genome")
	}
}

func TestBadPopulationFiles(t *testing.T) {
	cfg := tiny(Faithful)
	good := RandomGenome(evolve.Rand(1, 0, 99), cfg.Genes).String()
	lines := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = good
		}
		return out
	}
	badLetter := lines(8)
	badLetter[2] = good[:16] + "X" + good[17:]
	short := lines(8)
	short[4] = good[:len(good)-16]
	long := lines(8)
	long[1] = good + good[:16]
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"bad letter", badLetter, "0_nets.txt:3:17: bad letter 'X'"},
		{"short genome", short, "0_nets.txt:5:177: the genome has 11 genes"},
		{"long genome", long, "0_nets.txt:2:193: the genome has 13 genes"},
		{"length not whole genes", append(lines(7), good[:20]), "0_nets.txt:8: length 20 is not a multiple of 16"},
		{"too few genomes", lines(7), "0_nets.txt:8: 7 genomes, the run's population is 8"},
		{"too many genomes", lines(9), "0_nets.txt:9: 9 genomes"},
	} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, DebugDir), 0o755)
		os.WriteFile(PopulationPath(dir, 0), []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644)
		l, err := New(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Open(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Open gave %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// The ranking round puts every genome somewhere exactly once, and plays
// fewer games than a round robin.
func TestQuicksortRoundIsAPermutation(t *testing.T) {
	cfg := tiny(Faithful)
	cfg.Population = 16
	l, _ := New(t.TempDir(), cfg)
	pop, err := l.initial()
	if err != nil {
		t.Fatal(err)
	}
	cast := make([]eval.Factory, len(pop))
	for i, g := range pop {
		n := genome.Compile(g)
		cast[i] = func() eval.Evaluator { return n }
	}
	order, games, err := quicksortRound(context.Background(), evolve.NewPool(2, cfg.Rules()), cast, 1, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, i := range order {
		seen[i] = true
	}
	if len(order) != 16 || len(seen) != 16 {
		t.Errorf("order %v is not a permutation of 16", order)
	}
	if games < 15 || games > 16*15/2 {
		t.Errorf("%d games to sort 16", games)
	}
}

// partition puts the losers to the pivot first, then those that drew with
// it and the pivot, then the winners, and sorts on only the losers and the
// winners.
func TestPartition(t *testing.T) {
	order := []int{10, 11, 12, 13, 14, 15}
	s := segment{0, 6}
	res := []float64{1, 0, 0.5, 0, 1} // elements 0,1,3,4,5 against pivot 2
	var comps []comparison
	k := 0
	for i := range 6 {
		if i == 2 {
			continue
		}
		comps = append(comps, comparison{seg: s, elem: i, pivot: 2, resultForElm: res[k]})
		k++
	}
	next := partition(order, []segment{s}, comps, evolve.Rand(1, 0, 1))
	if got := order[:2]; got[0] != 11 || got[1] != 14 {
		t.Errorf("losers first: %v", order)
	}
	mid := map[int]bool{order[2]: true, order[3]: true}
	if !mid[12] || !mid[13] || order[4] != 10 || order[5] != 15 {
		t.Errorf("order after partition %v", order)
	}
	if len(next) != 2 || next[0] != (segment{0, 2}) || next[1] != (segment{4, 6}) {
		t.Errorf("segments to sort %v", next)
	}
}

// Improved mode with a ladder plays LadderBallots pairs against each rung
// besides the population's own opponents; a ladder name it does not know
// is refused.
func TestLadderGames(t *testing.T) {
	cfg := tiny(Improved)
	cfg.Hall, cfg.Ladder, cfg.LadderBallots = 0, []string{evolve.OpponentG1, evolve.OpponentHeuristic}, 2
	l, err := New(t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Open(); err != nil {
		t.Fatal(err)
	}
	st, err := l.Step(context.Background(), 0, evolve.NewPool(1, l.Rules()))
	if err != nil {
		t.Fatal(err)
	}
	// Each genome: a pair against each of the first Opponents genomes but
	// itself, and 2 pairs against each of the 2 rungs.
	peers := cfg.Opponents*cfg.Population - cfg.Opponents
	if want := 2 * (peers + cfg.Population*2*2); st.Games != want {
		t.Errorf("%d games, want %d", st.Games, want)
	}
	cfg.Ladder = []string{"nobody"}
	if _, err := New(t.TempDir(), cfg); err == nil || !strings.Contains(err.Error(), "nobody") {
		t.Errorf("an unknown ladder opponent: %v", err)
	}
	cfg.Ladder, cfg.LadderBallots = []string{evolve.OpponentG1}, 0
	if _, err := New(t.TempDir(), cfg); err == nil {
		t.Errorf("a ladder with no ballots was accepted")
	}
}

// The learner mutates by LetterRates when they are set: with every letter
// rate 0 (and no translocation), a child's every gene is a gene of the
// previous generation at the same place, although PointRate is high.
func TestLearnerUsesLetterRates(t *testing.T) {
	cfg := tiny(Improved)
	cfg.PointRate, cfg.TranslocationRate, cfg.LetterRates = 0.5, 0, make([]float64, genome.GeneLen)
	l, err := New(t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Open(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Step(context.Background(), 0, evolve.NewPool(1, l.Rules())); err != nil {
		t.Fatal(err)
	}
	prev, err := ReadPopulation(PopulationPath(l.Dir, 0), cfg.Population, cfg.Genes)
	if err != nil {
		t.Fatal(err)
	}
	for c, child := range l.Population() {
		for i, x := range child {
			found := false
			for _, p := range prev {
				found = found || p[i] == x
			}
			if !found {
				t.Fatalf("gene %d of child %d (%v) is no parent's gene %d", i, c, x, i)
			}
		}
	}
	// The same run with the point rate alone does mutate.
	cfg.LetterRates = nil
	l, _ = New(t.TempDir(), cfg)
	l.Open()
	if _, err := l.Step(context.Background(), 0, evolve.NewPool(1, l.Rules())); err != nil {
		t.Fatal(err)
	}
	mutated := 0
	for _, child := range l.Population()[cfg.Elite:] {
		for i, x := range child {
			found := false
			for _, p := range prev {
				found = found || p[i] == x
			}
			if !found {
				mutated++
			}
		}
	}
	if mutated == 0 {
		t.Errorf("a point rate of 0.5 mutated no gene")
	}
}

// With BothSides the run judges its genomes from both sides: the best
// genome it reports is such a network, and the run's files are the same
// neche files, with other games than without.
func TestBothSidesRun(t *testing.T) {
	cfg := tiny(Improved)
	cfg.BothSides = false
	plainDir, bothDir := t.TempDir(), t.TempDir()
	run(t, plainDir, cfg, 2, 1)
	cfg.BothSides = true
	run(t, bothDir, cfg, 2, 1)
	l, err := New(bothDir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Open(); err != nil {
		t.Fatal(err)
	}
	f, err := l.Best(1)
	if err != nil {
		t.Fatal(err)
	}
	if kind, _, _ := f().(eval.Describer).Describe(); kind != genome.BothKind {
		t.Errorf("the best genome is described as %q, want %q", kind, genome.BothKind)
	}
	plain, both := folder(t, plainDir), folder(t, bothDir)
	if bytes.Equal(plain[genome.RunBestFile], both[genome.RunBestFile]) {
		t.Error("judging from both sides chose the same best genomes as the plain run")
	}
}
