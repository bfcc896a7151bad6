package evolve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/cputime"
	"github.com/nechecb/nechecb/internal/fileio"
)

// Learner is one evolutionary method as Run drives it. It owns its files
// in the run folder; Run owns the settings file, the curve and the report.
type Learner interface {
	// Open reads what the run folder holds and returns the number of
	// complete generations: 0 for a new run. It refuses a population file
	// it cannot read, naming the file, line and column.
	Open() (done int, err error)
	// Step runs generation gen, the first one not complete: plays its
	// games on pool, writes the next population and then the record that
	// completes gen, each file atomically, and returns the generation's
	// figures. A cancelled ctx stops it before that record is written.
	Step(ctx context.Context, gen int, pool *Pool) (Stats, error)
	// Best returns the best individual of complete generation gen.
	Best(gen int) (eval.Factory, error)
	// Rules are the rules of the learner's games, which the curve games
	// follow too (the run's depth).
	Rules() Rules
}

// Config says how long a run goes and what Run measures and reports.
type Config struct {
	// Dir is the run folder.
	Dir string
	// Generations is the number of complete generations at which the run
	// stops (a resumed run counts those already done).
	Generations int
	// Seed is the run's seed (the curve games' seeds derive from it).
	Seed uint64
	// Workers is the number of games played at once.
	Workers int
	// CurveEvery measures the curve at every generation that is a multiple
	// of it (0: no curve). CurveOpenings is how many standard 3-move
	// ballots each measurement plays, with both colours (0: all 157).
	CurveEvery, CurveOpenings int
	// Extra opponents join the curve's fixed ones (G1, the heuristic,
	// generation 0's best), each under its name.
	Extra []Opponent
	// Plot, when set, is the SVG chart of the curve, rewritten after every
	// measurement.
	Plot string
	// Title heads the chart.
	Title string
	// Progress, when set, is called after every generation.
	Progress func(Progress)
	// Remote, when set, plays the run's games instead of the local
	// workers (Pool.SetRemote).
	Remote Remote
}

// Progress reports one finished generation.
type Progress struct {
	// Gen is the generation just completed; Games the games it played,
	// GamesPerSec their rate and Elapsed the generation's time (the
	// curve's games not counted).
	Gen         int
	Games       int
	GamesPerSec float64
	Elapsed     time.Duration
	// Best and Mean are the generation's fitness figures (Stats).
	Best, Mean float64
	// Curve holds the latest curve point (one row per opponent), nil
	// before the first; CurveNow says it was measured at this generation.
	Curve    []CurveRow
	CurveNow bool
}

// Run runs learner l in cfg.Dir from its last complete generation up to
// cfg.Generations: each generation's step, then, at every multiple of
// cfg.CurveEvery, the curve (the generation's best against G1, the tuned
// heuristic, cfg.Extra and the best of generation 0), rewriting curve.tsv
// and the chart. A curve point missed by an interrupted run is measured on resume.
// When ctx ends, Run stops and returns ctx's error; what was complete stays
// on disk and --resume goes on from there.
func Run(ctx context.Context, l Learner, cfg Config) error {
	done, err := l.Open()
	if err != nil {
		return err
	}
	pool := NewPool(cfg.Workers, l.Rules())
	pool.SetRemote(cfg.Remote)
	curvePath := filepath.Join(cfg.Dir, CurveFile)
	rows, err := ReadCurveFile(curvePath)
	if err != nil {
		return err
	}
	c := &curve{l: l, cfg: cfg, pool: pool, path: curvePath}
	// Keep only the rows of complete generations: a later one cannot be
	// there unless the folder was tampered with.
	for _, r := range rows {
		if r.Gen < done {
			c.rows = append(c.rows, r)
		}
	}
	if done > 0 {
		if _, err := c.due(ctx, done-1); err != nil {
			return err
		}
	}
	for gen := done; gen < cfg.Generations; gen++ {
		start := time.Now()
		st, err := l.Step(ctx, gen, pool)
		if err != nil {
			return err
		}
		elapsed := time.Since(start)
		now, err := c.due(ctx, gen)
		if err != nil {
			return err
		}
		if cfg.Progress != nil {
			cfg.Progress(Progress{Gen: gen, Games: st.Games, GamesPerSec: float64(st.Games) / max(elapsed.Seconds(), 1e-9),
				Elapsed: elapsed, Best: st.Best, Mean: st.Mean, Curve: c.latest(), CurveNow: now})
		}
	}
	return ctx.Err()
}

// curve keeps a run's curve rows and measures new points.
type curve struct {
	l        Learner
	cfg      Config
	pool     *Pool
	path     string
	rows     []CurveRow
	opps     []Opponent
	openings []engine.Position
}

// due measures the curve at generation gen when gen is a multiple of
// CurveEvery and has no point yet, and reports whether it did.
func (c *curve) due(ctx context.Context, gen int) (bool, error) {
	if c.cfg.CurveEvery <= 0 || gen%c.cfg.CurveEvery != 0 {
		return false, nil
	}
	for _, r := range c.rows {
		if r.Gen == gen {
			return false, nil
		}
	}
	if c.openings == nil {
		var err error
		if c.openings, err = Openings(c.cfg.CurveOpenings); err != nil {
			return false, err
		}
		c.opps = append(FixedOpponents(), c.cfg.Extra...)
	}
	opps := c.opps
	if gen > 0 {
		gen0, err := c.l.Best(0)
		if err != nil {
			return false, err
		}
		opps = append(opps[:len(opps):len(opps)], Opponent{OpponentGen0, gen0})
	}
	best, err := c.l.Best(gen)
	if err != nil {
		return false, err
	}
	rows, err := MeasureCurve(ctx, c.pool, c.cfg.Seed, gen, best, opps, c.openings)
	if err != nil {
		return false, err
	}
	c.rows = append(c.rows, rows...)
	if err := WriteCurve(c.path, c.rows); err != nil {
		return false, err
	}
	if c.cfg.Plot != "" {
		title := c.cfg.Title
		if title == "" {
			title = "best of each generation against fixed opponents"
		}
		if err := fileio.WriteAtomic(c.cfg.Plot, PlotCurve(c.rows, title)); err != nil {
			return false, err
		}
	}
	return true, nil
}

// latest returns the rows of the last measured generation.
func (c *curve) latest() []CurveRow {
	if len(c.rows) == 0 {
		return nil
	}
	last := c.rows[len(c.rows)-1].Gen
	i := len(c.rows)
	for i > 0 && c.rows[i-1].Gen == last {
		i--
	}
	return c.rows[i:]
}

// BenchRow is one measurement of Bench. CPU is the process's CPU time
// over the generations (0 where the system cannot tell): on a machine
// shared with other work it says what the generations cost when the wall
// clock cannot.
type BenchRow struct {
	Workers     int
	Generations int
	Games       int
	Elapsed     time.Duration
	CPU         time.Duration
}

// PerGeneration returns the mean time of a generation.
func (b BenchRow) PerGeneration() time.Duration {
	return b.Elapsed / time.Duration(max(b.Generations, 1))
}

// GamesPerSec returns the rate of games.
func (b BenchRow) GamesPerSec() float64 { return float64(b.Games) / max(b.Elapsed.Seconds(), 1e-9) }

// Bench times generations of a learner: for each worker count, a fresh
// learner made by newLearner in a new temporary folder runs generations
// generations, with no curve. The folders are removed afterwards.
func Bench(ctx context.Context, newLearner func(dir string) (Learner, error), generations int, workers []int) ([]BenchRow, error) {
	var out []BenchRow
	for _, w := range workers {
		dir, err := os.MkdirTemp("", "nechecb-evolve-bench-")
		if err != nil {
			return nil, err
		}
		row, err := benchOnce(ctx, newLearner, dir, generations, w)
		os.RemoveAll(dir)
		if err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

func benchOnce(ctx context.Context, newLearner func(dir string) (Learner, error), dir string, generations, workers int) (BenchRow, error) {
	l, err := newLearner(dir)
	if err != nil {
		return BenchRow{}, err
	}
	done, err := l.Open()
	if err != nil {
		return BenchRow{}, err
	}
	if done != 0 {
		return BenchRow{}, fmt.Errorf("evolve: bench folder %s is not new", dir)
	}
	pool := NewPool(workers, l.Rules())
	row := BenchRow{Workers: workers, Generations: generations}
	start := time.Now()
	cpu0, cpuOK := cputime.Self()
	for gen := range generations {
		st, err := l.Step(ctx, gen, pool)
		if err != nil {
			return row, err
		}
		row.Games += st.Games
	}
	row.Elapsed = time.Since(start)
	if cpu1, ok := cputime.Self(); ok && cpuOK {
		row.CPU = cpu1 - cpu0
	}
	return row, nil
}
