package unitplay

import (
	"context"
	"testing"

	_ "github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/train/evolve"
	"github.com/nechecb/nechecb/train/evolve/blondie"
	"github.com/nechecb/nechecb/train/evolve/cnn"
	"github.com/nechecb/nechecb/train/evolve/evolvetest"
	"github.com/nechecb/nechecb/train/evolve/neche"
)

// tinyNeche returns settings of a neche run small enough for -short.
func tinyNeche() neche.Config {
	c := neche.Default(neche.Improved)
	c.Population, c.Genes, c.Depth, c.MaxPlies = 6, 12, 1, 80
	c.Opponents, c.Elite, c.Hall = 2, 2, 1
	c.Seed = 7
	return c
}

// runNeche runs generations of a tiny neche run in dir, its games played
// by remote (nil: the pool's own workers), with a curve point at every
// generation (one ballot: the heuristic and G1 travel too).
func runNeche(t testing.TB, dir string, remote evolve.Remote, generations int) {
	t.Helper()
	cfg := tinyNeche()
	if err := evolve.Prepare(dir, false, cfg); err != nil {
		t.Fatal(err)
	}
	l, err := neche.New(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	run := evolve.Config{Dir: dir, Generations: generations, Seed: cfg.Seed, Workers: 2, CurveEvery: 1, CurveOpenings: 1, Remote: remote}
	if err := evolve.Run(context.Background(), l, run); err != nil {
		t.Fatal(err)
	}
}

// counting is a Runner that counts the units and games it plays.
type counting struct {
	Runner
	units, games int
}

func (c *counting) Run(ctx context.Context, units []*workunit.Unit) ([]*workunit.Result, error) {
	c.units += len(units)
	for _, u := range units {
		c.games += len(u.Games)
	}
	return c.Runner.Run(ctx, units)
}

func newExecutor(t testing.TB) *Executor {
	t.Helper()
	x, err := NewExecutor()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// TestUnitsGiveThePoolsFiles plays a run's games as units in process, in
// batches of 3 games, and checks that every file is the one the pool
// itself writes, and that every game went through a unit.
func TestUnitsGiveThePoolsFiles(t *testing.T) {
	want, got := t.TempDir(), t.TempDir()
	runNeche(t, want, nil, 2)
	r := &counting{Runner: &Local{Exec: newExecutor(t), Workers: 2}}
	runNeche(t, got, &Remote{Runner: r, Batch: 3}, 2)
	evolvetest.SameFolders(t, "units against pool", want, got)
	if r.units == 0 || r.units < r.games/3 {
		t.Errorf("%d units for %d games in batches of 3", r.units, r.games)
	}
}

// TestBlondieAndCNNThroughUnits runs tiny Blondie24 and seed-CNN runs (the
// CNN's faithful mode plays without search) with every game in a unit:
// the files must be the pool's, and the networks must have travelled.
func TestBlondieAndCNNThroughUnits(t *testing.T) {
	b := blondie.Default(blondie.Faithful)
	b.Parents, b.Depth, b.MaxPlies, b.KeepEvery, b.Games = 4, 1, 60, 2, 2
	c := cnn.Default(cnn.Faithful)
	c.Population, c.Survivors, c.Mutants, c.MaxPlies, c.Rounds, c.Field = 24, 3, 1, 120, 2, 8
	for _, tc := range []struct {
		name     string
		settings any
		learner  func(dir string) (evolve.Learner, error)
	}{
		{"blondie", b, func(dir string) (evolve.Learner, error) { return blondie.New(dir, b) }},
		{"cnn", c, func(dir string) (evolve.Learner, error) { return cnn.New(dir, c) }},
	} {
		var dirs [2]string
		r := &counting{Runner: &Local{Exec: newExecutor(t), Workers: 2}}
		for i, remote := range []evolve.Remote{nil, &Remote{Runner: r}} {
			dirs[i] = t.TempDir()
			if err := evolve.Prepare(dirs[i], false, tc.settings); err != nil {
				t.Fatal(err)
			}
			l, err := tc.learner(dirs[i])
			if err != nil {
				t.Fatal(err)
			}
			if err := evolve.Run(context.Background(), l, evolve.Config{Dir: dirs[i], Generations: 2, Seed: 1, Workers: 2, Remote: remote}); err != nil {
				t.Fatal(err)
			}
		}
		evolvetest.SameFolders(t, tc.name+" through units against pool", dirs[0], dirs[1])
		if r.games == 0 {
			t.Errorf("%s: no game went through a unit", tc.name)
		}
	}
}

func TestUnitSizes(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 2}, {1, 2}, {7, 1}, {100, 2}, {2788, 2}, {2788, 1}, {50000, 8}, {300, 100}} {
		sizes := UnitSizes(c.n, c.workers)
		sum := 0
		for i, k := range sizes {
			sum += k
			if k < 1 || k > MaxUnit || (k < MinUnit && i != len(sizes)-1) {
				t.Errorf("UnitSizes(%d, %d): unit %d has %d games: %v", c.n, c.workers, i, k, sizes)
			}
			if i > 0 && k > sizes[i-1] {
				t.Errorf("UnitSizes(%d, %d): unit %d (%d games) is larger than the one before: %v", c.n, c.workers, i, k, sizes)
			}
		}
		if sum != c.n {
			t.Errorf("UnitSizes(%d, %d) covers %d games: %v", c.n, c.workers, sum, sizes)
		}
	}
	// A neche improved generation on two workers: fewer units than at 64
	// games each, and a last unit far smaller than the first.
	sizes := UnitSizes(2788, 2)
	if len(sizes) >= 44 || sizes[0] != MaxUnit || sizes[len(sizes)-1] > MinUnit {
		t.Errorf("UnitSizes(2788, 2) = %v: want fewer than 44 units, the first %d games, the last at most %d", sizes, MaxUnit, MinUnit)
	}
}
