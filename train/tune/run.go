package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/train/selfplay"
)

// TexelRun is one run of Texel tuning, from the starting weights to the
// weight file.
type TexelRun struct {
	// From is the heuristic spec whose evaluator plays the data games and
	// whose weights start the fit ("heuristic" or "heuristic:PATH").
	From string
	// Out is the weight file written.
	Out string
	// Data, if set, is a positions file: read when it exists (then no game
	// is played), otherwise written with the games' positions.
	Data string
	// Games says how the data games are played; Fit how the weights are
	// fitted.
	Games DataConfig
	Fit   FitConfig
}

// RunTexel plays the data games (or reads their positions), fits the
// weights and writes them to run.Out, with a header that says how they
// were made. Progress lines go to log (may be nil).
func RunTexel(ctx context.Context, run TexelRun, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	if run.Out == "" {
		return badinput.Mark(errors.New("no weight file to write"))
	}
	spec, err := eval.ParseSpec(run.From)
	if err != nil {
		return badinput.Mark(err)
	}
	if spec.Name != "heuristic" {
		return badinput.Mark(fmt.Errorf("starting evaluator %q: not a heuristic spec", run.From))
	}
	w := heuristic.DefaultWeights()
	if spec.Path != "" {
		if w, err = heuristic.ReadFile(spec.Path); err != nil {
			return badinput.Mark(err)
		}
	}
	cfg := run.Games
	start := time.Now()
	source := fmt.Sprintf("%d games of %s at depth %d (seed %d, up to %d random plies after a 3-move ballot)",
		cfg.Games, run.From, cfg.Game.Depth, cfg.Seed, cfg.RandomPlies)
	records, err := ReadFile(run.Data)
	switch {
	case run.Data != "" && err == nil:
		source = "the positions in " + run.Data
	case run.Data != "" && !errors.Is(err, fs.ErrNotExist):
		return badinput.Mark(err)
	default:
		m := heuristic.NewModel(w)
		if records, err = Generate(ctx, func() eval.Evaluator { return heuristic.NewEvaluator(m) }, cfg, log); err != nil {
			return err
		}
		if run.Data != "" {
			if err := WriteRecordsFile(run.Data, records); err != nil {
				return err
			}
		}
	}
	if len(records) == 0 {
		return badinput.Mark(errors.New("no positions to fit"))
	}
	samples := SamplesOf(records)
	k := FitK(samples, w)
	fmt.Fprintf(log, "%d positions from %s in %v; k = %.4f, loss %.6f\n", len(samples), source, time.Since(start).Round(time.Second), k, Loss(samples, w, k))
	tuned := Fit(ctx, samples, w, k, run.Fit, log)
	header := fmt.Sprintf("nechecb tune texel: start %s; %d quiet positions from %s;\nk %.4f; %d Adam steps, rate %g, prior %g; loss %.6f -> %.6f",
		run.From, len(samples), source, k, run.Fit.Iterations, run.Fit.Rate, run.Fit.Prior, Loss(samples, w, k), Loss(samples, tuned, k))
	return tuned.WriteFile(run.Out, header)
}

// RunSelect runs Select and writes the winning weights to out, with a
// header that says how they were found.
func RunSelect(ctx context.Context, cfg SelectConfig, out string, log io.Writer) error {
	if out == "" {
		return badinput.Mark(errors.New("no weight file to write"))
	}
	w, err := Select(ctx, cfg, log)
	if err != nil {
		return err
	}
	return w.WriteFile(out, fmt.Sprintf("nechecb tune select: population %d, rounds %d, keep %g, depth %d, seed %d",
		cfg.Population, cfg.Rounds, cfg.Keep, cfg.Game.Depth, cfg.Seed))
}

// Comparison is the outcome of Compare.
type Comparison struct {
	// A and B are the evaluator specs; Tally is A's score.
	A, B     string
	Depth    int
	Openings int
	Tally    elo.Tally
	Elapsed  time.Duration
}

// String writes the comparison as one line: the evaluators, the depth and
// openings, A's score and its Elo with the 95% interval.
func (c Comparison) String() string {
	e, lo, hi := c.Tally.Elo()
	return fmt.Sprintf("%s vs %s, depth %d, %d openings x 2 colours: %s, Elo %s %s (%v)",
		c.A, c.B, c.Depth, c.Openings, c.Tally, elo.FormatElo(e), elo.FormatInterval(lo, hi), c.Elapsed.Round(time.Second))
}

// Compare plays the evaluator of spec a against that of spec b from the
// first n standard 3-move ballots (all when n is 0 or more than there
// are), each with both colours, with cfg's depth and adjudication, on
// workers goroutines.
func Compare(ctx context.Context, a, b string, n int, cfg selfplay.Config, workers int) (Comparison, error) {
	fa, err := eval.Load(a)
	if err != nil {
		return Comparison{}, badinput.Mark(err)
	}
	fb, err := eval.Load(b)
	if err != nil {
		return Comparison{}, badinput.Mark(err)
	}
	openings, err := books.Standard("3move")
	if err != nil {
		return Comparison{}, err
	}
	if n > 0 && n < len(openings) {
		openings = openings[:n]
	}
	start := time.Now()
	t, err := selfplay.Match(ctx, fa, fb, openings, cfg, workers)
	return Comparison{A: a, B: b, Depth: cfg.Depth, Openings: len(openings), Tally: t, Elapsed: time.Since(start)}, err
}

// Command is what nechecb tune METHOD asks for: Method is texel, select or
// match; Game, Workers and Seed are every method's (only Game's depth and
// adjudication are set); Out is the weight file of texel and select. Texel
// holds the rest of a texel run (its games' count and random plies, the
// data file, the fit), Select the rest of a select run, and A, B and
// Openings are match's evaluators and number of ballots (0: all).
type Command struct {
	Method   string
	Game     selfplay.Config
	Workers  int
	Seed     uint64
	Out      string
	Texel    TexelRun
	Select   SelectConfig
	A, B     string
	Openings int
}

// Run runs the method: RunTexel, RunSelect, or Compare, whose result it
// writes on stdout; progress goes to log. A depth or a number of workers
// below 1, a texel or select run without Out, or an unknown method is bad
// input (internal/badinput), refused before any work.
func (c Command) Run(ctx context.Context, stdout, log io.Writer) error {
	switch {
	case c.Game.Depth < 1 || c.Workers < 1:
		return badinput.Mark(errors.New("--depth and --workers must be at least 1"))
	case c.Out == "" && c.Method != "match":
		return badinput.Mark(errors.New("--out is required"))
	}
	switch c.Method {
	case "texel":
		run := c.Texel
		run.Out = c.Out
		run.Games.Game, run.Games.Seed, run.Games.Workers = c.Game, c.Seed, c.Workers
		return RunTexel(ctx, run, log)
	case "select":
		cfg := c.Select
		cfg.Game, cfg.Seed, cfg.Workers = c.Game, c.Seed, c.Workers
		return RunSelect(ctx, cfg, c.Out, log)
	case "match":
		cmp, err := Compare(ctx, c.A, c.B, c.Openings, c.Game, c.Workers)
		if err == nil {
			fmt.Fprintln(stdout, cmp)
		}
		return err
	}
	return badinput.Mark(fmt.Errorf("unknown method %q", c.Method))
}
