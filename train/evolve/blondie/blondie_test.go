package blondie

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval"
	net "github.com/nechecb/nechecb/eval/blondie"
	"github.com/nechecb/nechecb/train/evolve"
	"github.com/nechecb/nechecb/train/evolve/evolvetest"
)

func TestTau(t *testing.T) {
	// The spec's τ = 1/sqrt(2·sqrt(N)) for the 1742 evolving weights of
	// the 1999 network.
	if got, want := Tau(Weights(net.Arch1999)), 1/math.Sqrt(2*math.Sqrt(1742)); math.Abs(got-want) > 1e-15 {
		t.Errorf("Tau(1999) = %v, want %v", got, want)
	}
	if Weights(net.Arch2001) != 5047 {
		t.Errorf("the 2001 network evolves %d weights, want 5047", Weights(net.Arch2001))
	}
}

// The step sizes change by a log-normal factor with spread τ, and each
// weight moves by a normal step of its new step size; K stays in [1, 3].
func TestOffspringFollowsTheLogNormalRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	parent := net.Random(net.Arch1999, rng)
	parent.King = 2.9
	const tau = 0.1
	var logs, steps []float64
	kings := []float64{}
	for range 40 {
		child := Offspring(rng, parent, tau)
		if err := child.Check(); err != nil {
			t.Fatal(err)
		}
		for i := range child.Weights {
			logs = append(logs, math.Log(child.Sigmas[i]/parent.Sigmas[i]))
			steps = append(steps, (child.Weights[i]-parent.Weights[i])/child.Sigmas[i])
		}
		logs = append(logs, math.Log(child.PieceDiffSigma/parent.PieceDiffSigma))
		steps = append(steps, (child.PieceDiff-parent.PieceDiff)/child.PieceDiffSigma)
		kings = append(kings, child.King)
	}
	mean, sd := moments(logs)
	n := float64(len(logs))
	if math.Abs(mean) > 5*tau/math.Sqrt(n) || math.Abs(sd-tau) > 5*tau/math.Sqrt(2*n) {
		t.Errorf("log step-size factors: mean %.5f sd %.5f, want 0 and %v", mean, sd, tau)
	}
	mean, sd = moments(steps)
	if math.Abs(mean) > 5/math.Sqrt(n) || math.Abs(sd-1) > 5/math.Sqrt(2*n) {
		t.Errorf("weight steps over step sizes: mean %.4f sd %.4f, want N(0, 1)", mean, sd)
	}
	clamped := 0
	for _, k := range kings {
		if k < net.MinKing || k > net.MaxKing {
			t.Fatalf("K = %v outside [1, 3]", k)
		}
		if k == net.MaxKing {
			clamped++
		}
	}
	// From 2.9, exp(N/√2) passes 3 for N > √2·ln(3/2.9), about 48% of
	// children.
	if clamped < 8 || clamped > 32 {
		t.Errorf("%d of 40 children have K = 3, want about half", clamped)
	}
}

func moments(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// K drifts within [1, 3] over many generations, reaching both ends.
func TestKingStaysInRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := net.Random(net.Arch1999, rng)
	lo, hi := false, false
	for range 2000 {
		n = Offspring(rng, n, 0)
		if n.King < 1 || n.King > 3 {
			t.Fatalf("K = %v", n.King)
		}
		lo = lo || n.King == 1
		hi = hi || n.King == 3
	}
	if !lo || !hi {
		t.Errorf("in 2000 generations K reached 1: %v, 3: %v", lo, hi)
	}
}

func tiny(mode string) Config {
	c := Default(mode)
	c.Parents, c.Depth, c.MaxPlies, c.KeepEvery = 4, 1, 60, 2
	if mode == Faithful {
		c.Games = 2
	} else {
		c.Pairs, c.Elite = 1, 1
	}
	return c
}

// ladder is the improved mode with every network also playing a ladder of
// both fixed opponents, scores shaped by the piece balance.
const ladder = "improved+ladder"

// modes are the settings the run tests cover: faithful, improved, and
// improved with a ladder and shaping but no population pairs.
var modes = []string{Faithful, Improved, ladder}

// tinyOf returns the small settings of a test mode.
func tinyOf(mode string) Config {
	if mode != ladder {
		return tiny(mode)
	}
	c := tiny(Improved)
	c.Pairs, c.Ladder, c.LadderBallots, c.Shaping = 0, []string{evolve.OpponentG1, evolve.OpponentHeuristic}, 1, 0.5
	c.InitSigma = 0.01
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

// Generations write blondie24 v1 files with step sizes, the selection
// keeps the number of parents, and blondie:RUN loads the last best.
func TestFiles(t *testing.T) {
	for _, mode := range evolvetest.Sample(modes, 0) {
		cfg := tinyOf(mode)
		dir := t.TempDir()
		l := newRun(t, dir, cfg, false)
		evolvetest.Run(t, dir, l, cfg.Seed, 3, 2)
		for gen := range 3 {
			n, err := net.ReadFile(net.RunBestFile(dir, gen))
			if err != nil || n.Sigmas == nil || n.PieceDiffSigma <= 0 {
				t.Fatalf("%s: best of generation %d: %v (step sizes %v)", mode, gen, err, n != nil && n.Sigmas != nil)
			}
		}
		first, err := net.ReadFile(ParentPath(dir, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		want := net.InitSigma
		if cfg.InitSigma > 0 {
			want = cfg.InitSigma
		}
		if first.Sigmas[0] != want || first.Sigmas[len(first.Sigmas)-1] != want || first.PieceDiffSigma != net.InitSigma {
			t.Errorf("%s: generation 0 step sizes %v ... %v, piece difference %v; want %v and %v", mode, first.Sigmas[0], first.Sigmas[len(first.Sigmas)-1], first.PieceDiffSigma, want, net.InitSigma)
		}
		// Kept: 0 and 2 (multiples of keep-every) and 3 (the next one).
		for gen, kept := range []bool{true, false, true, true} {
			if evolve.Exists(ParentPath(dir, gen, 0)) != kept {
				t.Errorf("%s: parents of generation %d kept: %v, want %v", mode, gen, !kept, kept)
			}
		}
		entries, _ := os.ReadDir(filepath.Dir(ParentPath(dir, 3, 0)))
		if len(entries) != cfg.Parents {
			t.Errorf("%s: %d parents, want %d", mode, len(entries), cfg.Parents)
		}
		if _, err := eval.Load("blondie:" + dir); err != nil {
			t.Errorf("%s: blondie:RUN: %v", mode, err)
		}
	}
}

func TestSameFilesWhateverTheWorkers(t *testing.T) {
	for _, mode := range evolvetest.Sample(modes, 1) {
		a, b := t.TempDir(), t.TempDir()
		evolvetest.Run(t, a, newRun(t, a, tinyOf(mode), false), 1, 2, 1)
		evolvetest.Run(t, b, newRun(t, b, tinyOf(mode), false), 1, 2, 3)
		evolvetest.SameFolders(t, mode+": 1 and 3 workers", a, b)
	}
}

func TestResumeAfterStopMidGeneration(t *testing.T) {
	for _, mode := range evolvetest.Sample(modes, 2) {
		cfg := tinyOf(mode)
		whole, dir := t.TempDir(), t.TempDir()
		evolvetest.Run(t, whole, newRun(t, whole, cfg, false), cfg.Seed, 3, 2)
		evolvetest.Run(t, dir, newRun(t, dir, cfg, false), cfg.Seed, 1, 2)
		l := newRun(t, dir, cfg, true)
		if done, err := l.Open(); err != nil || done != 1 {
			t.Fatalf("%d done, %v", done, err)
		}
		evolvetest.StepStopped(t, l, 1, 2)
		evolvetest.Run(t, dir, newRun(t, dir, cfg, true), cfg.Seed, 3, 1)
		evolvetest.SameFolders(t, mode+": resumed and whole", whole, dir)
	}
}

// The (μ+λ) selection keeps exactly Parents networks, the fittest; in
// improved mode the elites first parents survive whatever they score.
func TestSurvivors(t *testing.T) {
	fitness := []float64{-2, 5, 1, 0, 3, 3, -4, 2}
	l := &Learner{Base: evolve.Base[Config, *Config]{Cfg: tiny(Faithful)}}
	if got := l.survivors(fitness); len(got) != 4 || got[0] != 1 || got[1] != 4 || got[2] != 5 || got[3] != 7 {
		t.Errorf("faithful survivors %v, want [1 4 5 7]", got)
	}
	l.Cfg = tiny(Improved)
	l.Cfg.Elite = 1
	if got := l.survivors(fitness); len(got) != 4 || got[0] != 1 || got[1] != 4 || got[2] != 5 || got[3] != 0 {
		t.Errorf("improved survivors %v, want [1 4 5 0] (parent 0 an elite)", got)
	}
}

func TestBadPopulation(t *testing.T) {
	cfg := tiny(Faithful)
	dir := t.TempDir()
	evolvetest.Run(t, dir, newRun(t, dir, cfg, false), cfg.Seed, 1, 1)
	path := ParentPath(dir, 1, 2)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "king ", "king x", 1)), 0o644)
	l, _ := New(dir, cfg)
	if _, err := l.Open(); err == nil || !strings.Contains(err.Error(), path+":3:6: king value \"x") {
		t.Errorf("a bad king value: %v", err)
	}
	os.Remove(path)
	if _, err := l.Open(); err == nil || !strings.Contains(err.Error(), "has no parent 2") {
		t.Errorf("a missing parent: %v", err)
	}
	bad := cfg
	bad.Arch = 1998
	if _, err := New(dir, bad); err == nil {
		t.Error("arch 1998 accepted")
	}
}

// firstGeneration plays generation 0 of a new run with cfg and returns
// its statistics.
func firstGeneration(t *testing.T, cfg Config) evolve.Stats {
	t.Helper()
	dir := t.TempDir()
	l := newRun(t, dir, cfg, false)
	if _, err := l.Open(); err != nil {
		t.Fatal(err)
	}
	st, err := l.Step(context.Background(), 0, evolve.NewPool(2, l.Rules()))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A faithful generation plays Games games per network, each network
// (parents and children) the first mover in its own.
func TestFaithfulGames(t *testing.T) {
	cfg := tiny(Faithful)
	st := firstGeneration(t, cfg)
	if st.Games != 2*cfg.Parents*cfg.Games {
		t.Errorf("%d games, want %d", st.Games, 2*cfg.Parents*cfg.Games)
	}
	if st.Best > float64(cfg.Games) || st.Mean < -2*float64(cfg.Games) {
		t.Errorf("fitness best %v mean %v outside the payoffs' range", st.Best, st.Mean)
	}
}

// The 2001 network evolves the same way, its step sizes kept for all 5046
// weights.
func TestArch2001(t *testing.T) {
	cfg := tiny(Faithful)
	cfg.Arch, cfg.Parents, cfg.Games, cfg.MaxPlies = 2001, 2, 1, 30
	dir := t.TempDir()
	evolvetest.Run(t, dir, newRun(t, dir, cfg, false), 1, 1, 2)
	n, err := net.ReadFile(net.RunBestFile(dir, 0))
	if err != nil {
		t.Fatal(err)
	}
	if n.Arch != net.Arch2001 || len(n.Sigmas) != 5046 {
		t.Errorf("best of generation 0: arch %s, %d step sizes", n.Arch, len(n.Sigmas))
	}
	if got, want := cfg.tau(), 1/math.Sqrt(2*math.Sqrt(5047)); math.Abs(got-want) > 1e-15 {
		t.Errorf("tau %v, want %v", got, want)
	}
}

// Improved mode plays Pairs pairs per network against the others and
// LadderBallots pairs per network against each ladder opponent.
func TestImprovedGames(t *testing.T) {
	cfg := tiny(Improved)
	cfg.Pairs, cfg.Ladder, cfg.LadderBallots = 1, []string{evolve.OpponentG1}, 2
	st := firstGeneration(t, cfg)
	networks := 2 * cfg.Parents
	if want := networks*2*cfg.Pairs + networks*2*cfg.LadderBallots; st.Games != want {
		t.Errorf("%d games, want %d", st.Games, want)
	}
	if st.Best > 1 || st.Mean < 0 {
		t.Errorf("fitness best %v mean %v outside [0, 1]", st.Best, st.Mean)
	}
}

// flat returns a 1999 network whose only non-zero weight is the
// piece-difference weight pd: it plays for material (pd > 0) or against
// it (pd < 0).
func flat(pd float64) *net.Net {
	return &net.Net{Arch: net.Arch1999, King: 2, PieceDiff: pd, PieceDiffSigma: net.InitSigma,
		Weights: make([]float64, net.Arch1999.NumWeights())}
}

// Against a ladder of G1 with shaped scores, a network that plays for
// material scores above one that throws its pieces away; the ladder's
// fitness counts only the networks, never the fixed opponent.
func TestLadderScoresMaterial(t *testing.T) {
	cfg := tiny(Improved)
	cfg.Parents, cfg.Depth, cfg.MaxPlies = 2, 2, 120
	cfg.Pairs, cfg.Ladder, cfg.LadderBallots, cfg.Shaping = 0, []string{evolve.OpponentG1}, 3, 0.5
	l, err := New(t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cast := make([]eval.Factory, 2)
	for i, pd := range []float64{1, -1} {
		c, err := net.Compile(flat(pd))
		if err != nil {
			t.Fatal(err)
		}
		cast[i] = func() eval.Evaluator { return c }
	}
	fitness, games, err := l.playImproved(context.Background(), evolve.NewPool(2, l.Rules()), cast, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(fitness) != 2 || games != 2*2*cfg.LadderBallots {
		t.Fatalf("%d fitness values, %d games", len(fitness), games)
	}
	t.Logf("shaped score against G1: material %.3f, anti-material %.3f", fitness[0], fitness[1])
	if !(fitness[0] > fitness[1]) || fitness[1] > 0.25 {
		t.Errorf("shaped score against G1: material %v, anti-material %v; want the first above and the second a rout", fitness[0], fitness[1])
	}
}

// Ladder and shaping settings that cannot work are refused.
func TestLadderSettings(t *testing.T) {
	for name, change := range map[string]func(c *Config){
		"unknown rung":      func(c *Config) { c.Ladder = []string{"cake"} },
		"no ballots":        func(c *Config) { c.Ladder, c.LadderBallots = []string{evolve.OpponentG1}, 0 },
		"shaping above 1":   func(c *Config) { c.Shaping = 1.5 },
		"negative sigma":    func(c *Config) { c.InitSigma = -0.01 },
		"no games":          func(c *Config) { c.Pairs, c.Ladder = 0, nil },
		"faithful + ladder": func(c *Config) { *c = tiny(Faithful); c.Ladder, c.LadderBallots = []string{evolve.OpponentG1}, 1 },
	} {
		c := tinyOf(ladder)
		change(&c)
		if err := c.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	c := tinyOf(ladder)
	if err := c.Check(); err != nil {
		t.Errorf("a ladder of g1 and the heuristic: %v", err)
	}
}
