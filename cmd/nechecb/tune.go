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
	"github.com/nechecb/nechecb/internal/player"
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
  nechecb tune texel [--from SPEC] [--games N] [--depth D] [--random-plies R] [--data FILE] [--iterations I] [--prior P] [--seed S] [--workers W] [--search P] --out FILE
  nechecb tune select [--population P] [--rounds R] [--keep F] [--depth D] [--seed S] [--workers W] [--search P] --out FILE
                     (truncation selection with random refill; it was called "hill")
  nechecb tune match [--a SPEC] [--b SPEC] [--depth D] [--openings N] [--workers W] [--search P]

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
	c := tune.Command{Method: method}
	fl.IntVar(&c.Game.Depth, "depth", 6, "search depth of every move, in plies")
	fl.IntVar(&c.Game.MaxPlies, "max-plies", selfplay.DefaultMaxPlies, "adjudicate a game as drawn after this many plies")
	// match compares evaluators at a fixed depth with the plain profile,
	// measured as fast again with the same verdict (docs/training.md);
	// texel's and select's games keep timed play's search.
	c.Game.Search = player.Play
	if method == "match" {
		c.Game.Search = player.Plain
	}
	fl.Var(&c.Game.Search, "search", "search profile of every move: plain (full-width alpha-beta) or play (timed play's search)")
	fl.IntVar(&c.Workers, "workers", runtime.NumCPU(), "games played at once")
	fl.Uint64Var(&c.Seed, "seed", 1, "random seed")
	fl.StringVar(&c.Out, "out", "", "weight file to write")
	switch method {
	case "texel":
		c.Texel.Fit = tune.DefaultFit
		fl.StringVar(&c.Texel.From, "from", "heuristic", "evaluator that plays the games and whose weights start the fit (a heuristic spec)")
		fl.IntVar(&c.Texel.Games.Games, "games", 2000, "self-play games")
		fl.IntVar(&c.Texel.Games.RandomPlies, "random-plies", 6, "at most this many random moves after the ballot")
		fl.IntVar(&c.Texel.Fit.Iterations, "iterations", c.Texel.Fit.Iterations, "Adam steps")
		fl.Float64Var(&c.Texel.Fit.Prior, "prior", c.Texel.Fit.Prior, "pull toward the starting weights (loss units per weight squared)")
		fl.StringVar(&c.Texel.Data, "data", "", "positions file: read it if it exists (no games are played), else write the games' positions to it")
	case "select":
		c.Select = tune.DefaultSelect
		fl.IntVar(&c.Select.Population, "population", c.Select.Population, "weight sets per round")
		fl.IntVar(&c.Select.Rounds, "rounds", c.Select.Rounds, "elimination tournaments")
		fl.Float64Var(&c.Select.Keep, "keep", c.Select.Keep, "share of the population that survives a tournament")
		// select's own defaults, although the help shows the shared ones
		c.Game.Depth, c.Game.MaxPlies = c.Select.Game.Depth, c.Select.Game.MaxPlies
	case "match":
		fl.StringVar(&c.A, "a", all.DefaultSpec, "first evaluator")
		fl.StringVar(&c.B, "b", "material", "second evaluator")
		fl.IntVar(&c.Openings, "openings", 0, "play only the first N standard 3-move ballots (0: all)")
	default:
		fmt.Fprintf(stderr, "nechecb tune: unknown method %q\n", method)
		return 2
	}
	if status, ok := parseFlags(fl, args, tuneUsage, stdout, stderr); !ok {
		return status
	}
	return cli.Status(stderr, "tune "+method, c.Run(ctx, stdout, stderr))
}
