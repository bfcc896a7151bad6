package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/train/selfplay"
	"github.com/nechecb/nechecb/train/tune"
)

func init() {
	register(&command{name: "tune", summary: "tune heuristic weights (tune texel|hill) or play a fixed-depth match (tune match)", run: runTune})
}

const tuneUsage = `usage:
  nechecb tune texel [--from SPEC] [--games N] [--depth D] [--random-plies R] [--data FILE] [--iterations I] [--prior P] [--seed S] [--workers W] --out FILE
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
	fl := flag.NewFlagSet("tune "+args[0], flag.ContinueOnError)
	depth := fl.Int("depth", 6, "search depth of every move, in plies")
	maxPlies := fl.Int("max-plies", selfplay.DefaultMaxPlies, "adjudicate a game as drawn after this many plies")
	workers := fl.Int("workers", runtime.NumCPU(), "games played at once")
	seed := fl.Uint64("seed", 1, "random seed")
	out := fl.String("out", "", "weight file to write")
	var run func() error
	switch args[0] {
	case "texel":
		from := fl.String("from", "heuristic", "evaluator that plays the games and whose weights start the fit (a heuristic spec)")
		games := fl.Int("games", 2000, "self-play games")
		randomPlies := fl.Int("random-plies", 6, "at most this many random moves after the ballot")
		fit := tune.DefaultFit
		fl.IntVar(&fit.Iterations, "iterations", fit.Iterations, "Adam steps")
		fl.Float64Var(&fit.Prior, "prior", fit.Prior, "pull toward the starting weights (loss units per weight squared)")
		data := fl.String("data", "", "positions file: read it if it exists (no games are played), else write the games' positions to it")
		run = func() error {
			return runTexel(ctx, *from, *out, *data, tune.DataConfig{
				Games: *games, Game: selfplay.Config{Depth: *depth, MaxPlies: *maxPlies},
				RandomPlies: *randomPlies, Seed: *seed, Workers: *workers,
			}, fit, stderr)
		}
	case "hill":
		cfg := tune.DefaultHill
		fl.IntVar(&cfg.Population, "population", cfg.Population, "weight sets per round")
		fl.IntVar(&cfg.Rounds, "rounds", cfg.Rounds, "elimination tournaments")
		fl.Float64Var(&cfg.Keep, "keep", cfg.Keep, "share of the population that survives a tournament")
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
		a := fl.String("a", all.DefaultSpec, "first evaluator")
		b := fl.String("b", "material", "second evaluator")
		n := fl.Int("openings", 0, "play only the first N standard 3-move ballots (0: all)")
		run = func() error {
			return runTuneMatch(ctx, *a, *b, *n, selfplay.Config{Depth: *depth, MaxPlies: *maxPlies}, *workers, stdout)
		}
	default:
		fmt.Fprintf(stderr, "nechecb tune: unknown method %q\n%s", args[0], tuneUsage)
		return 2
	}
	if status, ok := parseFlags(fl, args[1:], tuneUsage, stdout, stderr); !ok {
		return status
	}
	if *depth < 1 || *workers < 1 {
		fmt.Fprintf(stderr, "nechecb tune %s: --depth and --workers must be at least 1\n", args[0])
		return 2
	}
	if err := run(); err != nil {
		fmt.Fprintf(stderr, "nechecb tune %s: %v\n", args[0], err)
		return 2
	}
	return 0
}

// runTexel plays the data games (or reads their positions), fits the
// weights and writes them.
func runTexel(ctx context.Context, from, out, data string, cfg tune.DataConfig, fit tune.FitConfig, log io.Writer) error {
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
	start := time.Now()
	source := fmt.Sprintf("%d games of %s at depth %d (seed %d, up to %d random plies after a 3-move ballot)",
		cfg.Games, from, cfg.Game.Depth, cfg.Seed, cfg.RandomPlies)
	records, err := tune.ReadRecordsFile(data)
	switch {
	case data != "" && err == nil:
		source = "the positions in " + data
	case data != "" && !errors.Is(err, fs.ErrNotExist):
		return err
	default:
		m := heuristic.NewModel(w)
		if records, err = tune.Generate(ctx, func() eval.Evaluator { return heuristic.NewEvaluator(m) }, cfg, log); err != nil {
			return err
		}
		if data != "" {
			if err := tune.WriteRecordsFile(data, records); err != nil {
				return err
			}
		}
	}
	if len(records) == 0 {
		return fmt.Errorf("no positions to fit")
	}
	samples := tune.SamplesOf(records)
	k := tune.FitK(samples, w)
	fmt.Fprintf(log, "%d positions from %s in %v; k = %.4f, loss %.6f\n", len(samples), source, time.Since(start).Round(time.Second), k, tune.Loss(samples, w, k))
	tuned := tune.Fit(ctx, samples, w, k, fit, log)
	header := fmt.Sprintf("nechecb tune texel: start %s; %d quiet positions from %s;\nk %.4f; %d Adam steps, rate %g, prior %g; loss %.6f -> %.6f",
		from, len(samples), source, k, fit.Iterations, fit.Rate, fit.Prior, tune.Loss(samples, w, k), tune.Loss(samples, tuned, k))
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
	e, lo, hi := s.Elo()
	fmt.Fprintf(stdout, "%s vs %s, depth %d, %d openings x 2 colours: %s, Elo %s [%s, %s] (%v)\n",
		a, b, cfg.Depth, len(openings), s, elo.FormatElo(e), elo.FormatElo(lo), elo.FormatElo(hi), time.Since(start).Round(time.Second))
	return nil
}
