package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"

	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/train/patterntrain"
)

func init() {
	register(&command{name: "pattern-train", summary: "fit pattern evaluator weights to training positions (--data, --out, --plot)", run: func(args []string) int {
		return patternTrainCommand(args, os.Stdout, os.Stderr)
	}})
}

const patternTrainUsage = `usage: nechecb pattern-train --data FILE[,FILE...] --out FILE [--from FILE] [--plot FILE.svg] [flags]

Fits the pattern evaluator's weights to the positions of the files (made by
nechecb datagen) by logistic regression on a blend of each position's game
result and search score, holding out a share of the games, and writes the
weights of the epoch with the best held-out loss. The same data, flags and
seed give the same weights.

flags:
`

func patternTrainCommand(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := patterntrain.Default
	cfg.Workers = runtime.NumCPU()
	fl := flag.NewFlagSet("pattern-train", flag.ContinueOnError)
	data := fl.String("data", "", "positions files, separated by commas (required)")
	out := fl.String("out", "", "weight file to write (required)")
	from := fl.String("from", "", "weight file to start from (default: material only)")
	plot := fl.String("plot", "", "write the loss curve and the loss by piece count to this SVG file")
	model := fl.String("model", "v2", "model: v1 (two phases) or v2 (knots by piece count, ending terms)")
	knots := fl.String("knots", "", "v2: the knots' piece counts, descending, separated by commas (default 24,16,12,9,6,2)")
	fl.BoolVar(&cfg.Tie, "tie", cfg.Tie, "train each term as a base shared by all knots plus a part per knot")
	drop := fl.String("drop", "", "global or ending terms held at zero, separated by commas (to measure a term's worth)")
	bucketWeights := fl.String("bucket-weights", "", "a weight for each piece-count bucket (2-6, 7-10, 11-14, 15-19, 20-24 pieces), separated by commas (default: all 1)")
	fl.Float64Var(&cfg.Lambda, "lambda", cfg.Lambda, "share of the game result in the target (the search score has the rest)")
	fl.Float64Var(&cfg.K, "k", cfg.K, "score scale: s centipawns win with probability sigmoid(k*s/100); 0 fits it to the data")
	fl.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "passes over the training positions")
	fl.IntVar(&cfg.Batch, "batch", cfg.Batch, "positions per step")
	fl.Float64Var(&cfg.Rate, "rate", cfg.Rate, "first step size, in centipawns (decays along a cosine)")
	fl.Float64Var(&cfg.Decay, "decay", cfg.Decay, "weight decay of the pattern and king weights, per unit of step")
	fl.Float64Var(&cfg.Validation, "validation", cfg.Validation, "share of the games held out")
	fl.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed (the order of the positions)")
	fl.IntVar(&cfg.Workers, "workers", cfg.Workers, "goroutines")
	fl.IntVar(&cfg.Scale, "scale", cfg.Scale, "weight units per centipawn in the file")
	if status, ok := parseFlags(fl, args, patternTrainUsage, stdout, stderr); !ok {
		return status
	}
	var dataFiles []string
	if *data != "" {
		dataFiles = strings.Split(*data, ",")
	}
	if *drop != "" {
		cfg.Drop = strings.Split(*drop, ",")
	}
	var err error
	if cfg.BucketWeights, err = patterntrain.ParseBucketWeights(*bucketWeights); err != nil {
		fmt.Fprintf(stderr, "nechecb pattern-train: --bucket-weights: %v\n", err)
		return 2
	}
	if cfg.Model, err = patterntrain.ParseModel(*model, *knots); err != nil {
		fmt.Fprintf(stderr, "nechecb pattern-train: %v\n", err)
		return 2
	}
	files := patterntrain.Files{Data: dataFiles, Out: *out, From: *from, Plot: *plot, Config: cfg, Log: stderr}
	return cli.Status(stderr, "pattern-train", patterntrain.TrainFiles(ctx, files))
}
