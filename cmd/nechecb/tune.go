package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/train/selfplay"
	"github.com/nechecb/nechecb/train/tune"
)

func init() {
	register(&command{name: "tune", summary: "tune heuristic weights (tune texel|select) or play a fixed-depth match (tune match)", subs: []*command{
		{name: "match", summary: "play two evaluators at a fixed depth from the 3-move ballots", run: tuneMethod("match")},
		{name: "select", summary: "truncation selection of heuristic weights with random refill", run: tuneMethod("select")},
		{name: "texel", summary: "fit the heuristic weights to self-play results (Texel's method)", run: tuneMethod("texel")},
	}})
}

const tuneUsage = `usage:
  nechecb tune texel [--from SPEC] [--games N] [--depth D] [--random-plies R] [--data FILE] [--iterations I] [--prior P] [--seed S] [--workers W] --out FILE
  nechecb tune select [--population P] [--rounds R] [--keep F] [--depth D] [--seed S] [--workers W] --out FILE
                     (truncation selection with random refill; it was called "hill")
  nechecb tune match [--a SPEC] [--b SPEC] [--depth D] [--openings N] [--workers W]

flags:
`

// tuneMethod returns the run function of `nechecb tune METHOD`.
func tuneMethod(method string) func(args []string) int {
	return func(args []string) int { return tuneCommand(method, args, os.Stdout, os.Stderr) }
}

// tuneCommand runs `nechecb tune METHOD args...` and returns the exit status.
func tuneCommand(method string, args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fl := flag.NewFlagSet("tune "+method, flag.ContinueOnError)
	depth := fl.Int("depth", 6, "search depth of every move, in plies")
	maxPlies := fl.Int("max-plies", selfplay.DefaultMaxPlies, "adjudicate a game as drawn after this many plies")
	workers := fl.Int("workers", runtime.NumCPU(), "games played at once")
	seed := fl.Uint64("seed", 1, "random seed")
	out := fl.String("out", "", "weight file to write")
	var run func() error
	switch method {
	case "texel":
		from := fl.String("from", "heuristic", "evaluator that plays the games and whose weights start the fit (a heuristic spec)")
		games := fl.Int("games", 2000, "self-play games")
		randomPlies := fl.Int("random-plies", 6, "at most this many random moves after the ballot")
		fit := tune.DefaultFit
		fl.IntVar(&fit.Iterations, "iterations", fit.Iterations, "Adam steps")
		fl.Float64Var(&fit.Prior, "prior", fit.Prior, "pull toward the starting weights (loss units per weight squared)")
		data := fl.String("data", "", "positions file: read it if it exists (no games are played), else write the games' positions to it")
		run = func() error {
			return tune.RunTexel(ctx, tune.TexelRun{From: *from, Out: *out, Data: *data, Fit: fit, Games: tune.DataConfig{
				Games: *games, Game: selfplay.Config{Depth: *depth, MaxPlies: *maxPlies},
				RandomPlies: *randomPlies, Seed: *seed, Workers: *workers,
			}}, stderr)
		}
	case "select":
		cfg := tune.DefaultSelect
		fl.IntVar(&cfg.Population, "population", cfg.Population, "weight sets per round")
		fl.IntVar(&cfg.Rounds, "rounds", cfg.Rounds, "elimination tournaments")
		fl.Float64Var(&cfg.Keep, "keep", cfg.Keep, "share of the population that survives a tournament")
		*depth = cfg.Game.Depth
		*maxPlies = cfg.Game.MaxPlies
		run = func() error {
			cfg.Game = selfplay.Config{Depth: *depth, MaxPlies: *maxPlies}
			cfg.Seed, cfg.Workers = *seed, *workers
			return tune.RunSelect(ctx, cfg, *out, stderr)
		}
	case "match":
		a := fl.String("a", all.DefaultSpec, "first evaluator")
		b := fl.String("b", "material", "second evaluator")
		n := fl.Int("openings", 0, "play only the first N standard 3-move ballots (0: all)")
		run = func() error {
			c, err := tune.Compare(ctx, *a, *b, *n, selfplay.Config{Depth: *depth, MaxPlies: *maxPlies}, *workers)
			if err == nil {
				fmt.Fprintln(stdout, c)
			}
			return err
		}
	default:
		fmt.Fprintf(stderr, "nechecb tune: unknown method %q\n", method)
		return 2
	}
	if status, ok := parseFlags(fl, args, tuneUsage, stdout, stderr); !ok {
		return status
	}
	err := tune.CheckCommand(method, *depth, *workers, *out)
	if err == nil {
		err = run()
	}
	return cli.Status(stderr, "tune "+method, err)
}
