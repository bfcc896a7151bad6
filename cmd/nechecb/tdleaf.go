package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/heuristic"
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
	inputs := fl.String("inputs", defaultInputNames(), "input features of a new network, NAME[:SCALE] separated by commas")
	hidden := fl.String("hidden", "6,6", "hidden layer sizes of a new network")
	opponent := fl.String("opponent", "self", "evaluator spec of the opponent, or self for self-play")
	fl.IntVar(&cfg.Games, "games", cfg.Games, "training games")
	fl.IntVar(&cfg.Depth, "depth", cfg.Depth, "search depth of every move")
	fl.Float64Var(&cfg.Lambda, "lambda", cfg.Lambda, "TD trace decay")
	fl.Float64Var(&cfg.Alpha, "alpha", cfg.Alpha, "step size")
	fl.IntVar(&cfg.Repetitions, "repetitions", cfg.Repetitions, "occurrences of a position that draw the game (the seed: 3)")
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
	if *out == "" || cfg.Games < 0 || cfg.Depth < 1 || cfg.Repetitions < 2 {
		return fail(badInput(fmt.Errorf("--out is required, --depth must be at least 1 and --repetitions at least 2")))
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
	n, err := tdleaf.ReadFile(*out)
	if errors.Is(err, fs.ErrNotExist) {
		n, err = newNetwork(*inputs, *hidden, cfg.Seed)
	}
	if err != nil {
		return fail(badInput(err))
	}
	cfg.Checkpoint = *out
	cfg.Describe = fmt.Sprintf("nechecb tdleaf-train: opponent %s, depth %d, lambda %g, alpha %g, repetitions %d, lookahead %d, knightcap %v, max plies %d, random plies %d, seed %d",
		*opponent, cfg.Depth, cfg.Lambda, cfg.Alpha, cfg.Repetitions, cfg.Lookahead, cfg.KnightCap, cfg.MaxPlies, cfg.RandomPlies, cfg.Seed)
	fmt.Fprintln(stderr, cfg.Describe)
	if _, err := tdtrain.Run(ctx, n, cfg, stderr); err != nil && !errors.Is(err, context.Canceled) {
		return fail(err)
	}
	return 0
}

func defaultInputNames() string {
	var parts []string
	for _, in := range tdleaf.DefaultInputs {
		parts = append(parts, in.Name()+":"+strconv.FormatFloat(in.Scale, 'g', 4, 64))
	}
	return strings.Join(parts, ",")
}

// newNetwork makes a random network from the --inputs and --hidden flags.
func newNetwork(inputList, hiddenList string, seed uint64) (*tdleaf.Network, error) {
	var inputs []tdleaf.Input
	for _, item := range strings.Split(inputList, ",") {
		name, scaleText, hasScale := strings.Cut(strings.TrimSpace(item), ":")
		in := tdleaf.Input{Feature: -1, Scale: 1}
		for i, f := range heuristic.FeatureNames {
			if f == name {
				in.Feature = i
			}
		}
		if in.Feature < 0 {
			return nil, fmt.Errorf("--inputs: unknown feature %q (features: %s)", name, strings.Join(heuristic.FeatureNames[:], ", "))
		}
		if hasScale {
			v, err := strconv.ParseFloat(scaleText, 64)
			if err != nil {
				return nil, fmt.Errorf("--inputs: bad scale %q for %s", scaleText, name)
			}
			in.Scale = v
		}
		inputs = append(inputs, in)
	}
	var hidden []int
	for _, s := range strings.Split(hiddenList, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("--hidden: bad size %q", s)
		}
		hidden = append(hidden, v)
	}
	return tdleaf.New(inputs, hidden, rand.New(rand.NewPCG(seed, 0x7464)))
}
