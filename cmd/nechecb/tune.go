package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/eval/heuristic/tune"
	"github.com/nechecb/nechecb/eval/selfplay"
)

func init() {
	register(&command{name: "tune", summary: "tune heuristic weights (tune texel|hill) or play a fixed-depth match (tune match)", run: runTune})
}

const tuneUsage = `usage:
  nechecb tune texel [--from SPEC] [--games N] [--depth D] [--random-plies R] [--iterations I] [--seed S] [--workers W] --out FILE
  nechecb tune hill  [--population P] [--rounds R] [--keep F] [--depth D] [--seed S] [--workers W] --out FILE
  nechecb tune match [--a SPEC] [--b SPEC] [--depth D] [--openings N] [--workers W]
`

func runTune(args []string) int { return tuneCommand(args, os.Stdout, os.Stderr) }

func tuneCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, tuneUsage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fs := flag.NewFlagSet("tune "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	depth := fs.Int("depth", 6, "search depth of every move, in plies")
	maxPlies := fs.Int("max-plies", selfplay.DefaultMaxPlies, "adjudicate a game as drawn after this many plies")
	workers := fs.Int("workers", runtime.NumCPU(), "games played at once")
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("out", "", "weight file to write")
	var run func() error
	switch args[0] {
	case "texel":
		from := fs.String("from", "heuristic", "evaluator that plays the games and whose weights start the fit (a heuristic spec)")
		games := fs.Int("games", 2000, "self-play games")
		randomPlies := fs.Int("random-plies", 6, "at most this many random moves after the ballot")
		iterations := fs.Int("iterations", tune.DefaultFit.Iterations, "Adam steps")
		run = func() error {
			return runTexel(ctx, *from, *out, tune.DataConfig{
				Games: *games, Game: selfplay.Config{Depth: *depth, MaxPlies: *maxPlies},
				RandomPlies: *randomPlies, Seed: *seed, Workers: *workers,
			}, *iterations, stderr)
		}
	case "hill":
		cfg := tune.DefaultHill
		fs.IntVar(&cfg.Population, "population", cfg.Population, "weight sets per round")
		fs.IntVar(&cfg.Rounds, "rounds", cfg.Rounds, "elimination tournaments")
		fs.Float64Var(&cfg.Keep, "keep", cfg.Keep, "share of the population that survives a tournament")
		*depth = cfg.Game.Depth
		*maxPlies = cfg.Game.MaxPlies
		run = func() error {
			cfg.Game = selfplay.Config{Depth: *depth, MaxPlies: *maxPlies}
			cfg.Seed, cfg.Workers = *seed, *workers
			if *out == "" {
				return fmt.Errorf("--out is required")
			}
			w, err := tune.Hill(ctx, cfg, stderr)
			if err != nil {
				return err
			}
			return w.WriteFile(*out, fmt.Sprintf("nechecb tune hill: population %d, rounds %d, keep %g, depth %d, seed %d",
				cfg.Population, cfg.Rounds, cfg.Keep, cfg.Game.Depth, cfg.Seed))
		}
	case "match":
		a := fs.String("a", all.DefaultSpec, "first evaluator")
		b := fs.String("b", "material", "second evaluator")
		n := fs.Int("openings", 0, "play only the first N standard 3-move ballots (0: all)")
		run = func() error {
			return runTuneMatch(ctx, *a, *b, *n, selfplay.Config{Depth: *depth, MaxPlies: *maxPlies}, *workers, stdout)
		}
	default:
		fmt.Fprintf(stderr, "nechecb tune: unknown method %q\n%s", args[0], tuneUsage)
		return 2
	}
	if err := fs.Parse(args[1:]); err != nil {
		fmt.Fprintf(stderr, "nechecb tune %s: %v\n%s", args[0], err, tuneUsage)
		return 2
	}
	if fs.NArg() > 0 || *depth < 1 || *workers < 1 {
		fmt.Fprintf(stderr, "nechecb tune %s: bad arguments (depth and workers must be at least 1)\n%s", args[0], tuneUsage)
		return 2
	}
	if err := run(); err != nil {
		fmt.Fprintf(stderr, "nechecb tune %s: %v\n", args[0], err)
		return 2
	}
	return 0
}

// runTexel plays the data games, fits the weights and writes them.
func runTexel(ctx context.Context, from, out string, cfg tune.DataConfig, iterations int, log io.Writer) error {
	if out == "" {
		return fmt.Errorf("--out is required")
	}
	spec, err := eval.ParseSpec(from)
	if err != nil {
		return err
	}
	if spec.Name != "heuristic" {
		return fmt.Errorf("--from must be a heuristic spec, got %q", from)
	}
	w := heuristic.DefaultWeights()
	if spec.Path != "" {
		if w, err = heuristic.ReadWeightsFile(spec.Path); err != nil {
			return err
		}
	}
	m := heuristic.NewModel(w)
	start := time.Now()
	samples, err := tune.Generate(ctx, func() eval.Evaluator { return heuristic.NewEvaluator(m) }, cfg, log)
	if err != nil {
		return err
	}
	if len(samples) == 0 {
		return fmt.Errorf("the games gave no positions")
	}
	k := tune.FitK(samples, w)
	fmt.Fprintf(log, "%d positions from %d games in %v; k = %.4f, loss %.6f\n", len(samples), cfg.Games, time.Since(start).Round(time.Second), k, tune.Loss(samples, w, k))
	fit := tune.DefaultFit
	fit.Iterations = iterations
	tuned := tune.Fit(ctx, samples, w, k, fit, log)
	header := fmt.Sprintf("nechecb tune texel: from %s; %d games at depth %d (seed %d, up to %d random plies after a 3-move ballot),\n%d quiet positions; k %.4f; %d Adam steps, rate %g, L2 %g; loss %.6f -> %.6f",
		from, cfg.Games, cfg.Game.Depth, cfg.Seed, cfg.RandomPlies, len(samples), k, fit.Iterations, fit.Rate, fit.L2,
		tune.Loss(samples, w, k), tune.Loss(samples, tuned, k))
	return tuned.WriteFile(out, header)
}

// runTuneMatch plays a against b from the standard 3-move ballots, both
// colours each, and prints the score.
func runTuneMatch(ctx context.Context, a, b string, n int, cfg selfplay.Config, workers int, stdout io.Writer) error {
	fa, err := eval.Load(a)
	if err != nil {
		return err
	}
	fb, err := eval.Load(b)
	if err != nil {
		return err
	}
	openings, err := books.Standard("3move")
	if err != nil {
		return err
	}
	if n > 0 && n < len(openings) {
		openings = openings[:n]
	}
	start := time.Now()
	s, err := selfplay.Match(ctx, fa, fb, openings, cfg, workers)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s vs %s, depth %d, %d openings x 2 colours: %s, Elo %+.0f (%v)\n",
		a, b, cfg.Depth, len(openings), s, s.Elo(), time.Since(start).Round(time.Second))
	return nil
}
