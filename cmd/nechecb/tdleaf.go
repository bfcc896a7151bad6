package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/tdleaf"
	tdtrain "github.com/nechecb/nechecb/train/tdleaf"
)

func init() {
	register(&command{name: "tdleaf-train", summary: "train a TD-Leaf(lambda) network by playing games (--out, --games, --depth, --opponent, --curve)", run: runTDLeafTrain})
}

func runTDLeafTrain(args []string) int { return tdleafTrainCommand(args, os.Stderr) }

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
	fail := func(err error) int {
		fmt.Fprintf(stderr, "nechecb tdleaf-train: %v\n", err)
		return exitStatus(err)
	}
	if fl.NArg() > 0 {
		return fail(badInput(fmt.Errorf("unexpected argument %q", fl.Arg(0))))
	}
	if *out == "" || cfg.Games < 0 || cfg.Depth < 1 || cfg.Repetitions < 2 || cfg.Repetitions > 3 {
		return fail(badInput(fmt.Errorf("--out is required, --depth must be at least 1 and --repetitions 2 or 3")))
	}
	var err error
	if *opponent != "self" {
		if cfg.Opponent, err = eval.Load(*opponent); err != nil {
			return fail(badInput(err))
		}
	}
	if cfg.Curve != "" {
		if cfg.CurveOpponent, err = eval.Load(cfg.CurveOpponentName); err != nil {
			return fail(badInput(err))
		}
	}
	ins, err := tdtrain.ParseInputs(*inputs)
	if err != nil {
		return fail(badInput(fmt.Errorf("--inputs: %w", err)))
	}
	hid, err := tdtrain.ParseHidden(*hidden)
	if err != nil {
		return fail(badInput(fmt.Errorf("--hidden: %w", err)))
	}
	n, err := tdtrain.OpenNetwork(*out, ins, hid, cfg.Seed)
	if err != nil {
		return fail(badInput(err))
	}
	cfg.Checkpoint = *out
	cfg.Describe = cfg.Summary(*opponent)
	fmt.Fprintln(stderr, cfg.Describe)
	if _, err := tdtrain.Run(ctx, n, cfg, stderr); err != nil && !errors.Is(err, context.Canceled) {
		return fail(err)
	}
	return 0
}
