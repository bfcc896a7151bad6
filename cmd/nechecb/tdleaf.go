package main

import (
	"context"
	"flag"
	"io"
	"os"
	"os/signal"

	"github.com/nechecb/nechecb/eval/tdleaf"
	"github.com/nechecb/nechecb/internal/cli"
	tdtrain "github.com/nechecb/nechecb/train/tdleaf"
)

func init() {
	register(&command{name: "tdleaf-train", summary: "train a TD-Leaf(lambda) network by playing games (--out, --games, --depth, --opponent, --curve)", run: func(args []string) int { return tdleafTrainCommand(args, os.Stderr) }})
}

func tdleafTrainCommand(args []string, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := tdtrain.Default
	fl := flag.NewFlagSet("tdleaf-train", flag.ContinueOnError)
	out := fl.String("out", "", "network file: read to resume if it exists, written after every game (required)")
	inputs := fl.String("inputs", tdtrain.FormatInputs(tdleaf.DefaultInputs), "input features of a new network, NAME[:SCALE] separated by commas")
	hidden := fl.String("hidden", "6,6", "hidden layer sizes of a new network")
	opponent := fl.String("opponent", "self", "evaluator spec of the opponent, or self for self-play")
	fl.IntVar(&cfg.Games, "games", cfg.Games, "training games")
	fl.IntVar(&cfg.Depth, "depth", cfg.Depth, "search depth of every move")
	fl.Var(&cfg.Search, "search", "search profile of every move, the curve's too: plain (full-width alpha-beta) or play (timed play's search)")
	fl.Float64Var(&cfg.Lambda, "lambda", cfg.Lambda, "TD trace decay")
	fl.Float64Var(&cfg.Alpha, "alpha", cfg.Alpha, "step size")
	fl.IntVar(&cfg.Repetitions, "repetitions", cfg.Repetitions, "occurrences of a position that draw the game: 2, or 3 (the rules, and the seed)")
	fl.IntVar(&cfg.Lookahead, "lookahead", cfg.Lookahead, "temporal differences summed per position, 0 for all (the seed: 12)")
	fl.BoolVar(&cfg.KnightCap, "knightcap", cfg.KnightCap, "ignore positive differences after an unpredicted move")
	fl.IntVar(&cfg.MaxPlies, "max-plies", cfg.MaxPlies, "adjudicate a game as drawn at this length")
	fl.IntVar(&cfg.RandomPlies, "random-plies", cfg.RandomPlies, "at most this many random moves after the opening ballot")
	fl.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed")
	fl.StringVar(&cfg.Curve, "curve", "", "learning-curve file (tab-separated)")
	fl.IntVar(&cfg.CurveEvery, "curve-every", cfg.CurveEvery, "measure the curve every K games")
	fl.IntVar(&cfg.CurveOpenings, "curve-openings", cfg.CurveOpenings, "standard 3-move ballots per measurement (each played with both colours)")
	fl.IntVar(&cfg.CurveDepth, "curve-depth", cfg.CurveDepth, "search depth of the measurement games")
	fl.IntVar(&cfg.CurveWorkers, "curve-workers", cfg.CurveWorkers, "measurement games played at once")
	fl.StringVar(&cfg.CurveOpponentName, "curve-opponent", "material", "evaluator spec of the fixed curve opponent")
	if status, ok := parseFlags(fl, args, "", os.Stdout, stderr); !ok {
		return status
	}
	run := tdtrain.FileRun{Out: *out, Inputs: *inputs, Hidden: *hidden, Opponent: *opponent, Config: cfg}
	return cli.Status(stderr, "tdleaf-train", tdtrain.TrainFile(ctx, run, stderr))
}
