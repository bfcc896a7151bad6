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

	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/train/patterntrain"
	"github.com/nechecb/nechecb/train/positions"
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
	plot := fl.String("plot", "", "write the loss curve to this SVG file")
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
	fail := func(err error) int {
		fmt.Fprintf(stderr, "nechecb pattern-train: %v\n", err)
		return exitStatus(err)
	}
	if *data == "" || *out == "" {
		return fail(badInput(fmt.Errorf("--data and --out are required")))
	}
	var recs []positions.Record
	var names []string
	for _, path := range strings.Split(*data, ",") {
		f, err := positions.ReadFile(path)
		if err != nil {
			return fail(badInput(err))
		}
		recs = append(recs, f.Records...)
		names = append(names, fmt.Sprintf("%s (%d positions)", path, len(f.Records)))
	}
	var start *pattern.Weights
	if *from != "" {
		var err error
		if start, err = pattern.ReadFile(*from); err != nil {
			return fail(badInput(err))
		}
	}
	fmt.Fprintf(stderr, "training on %d positions from %s\n", len(recs), strings.Join(names, ", "))
	res, err := patterntrain.Train(ctx, recs, start, cfg, func(e patterntrain.Epoch) {
		fmt.Fprintf(stderr, "epoch %d: training loss %.6f, held-out loss %.6f (%s)\n", e.Epoch, e.Train, e.Valid, e.Elapsed.Round(1e8))
	})
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stderr, "k %.4f; %d training and %d held-out positions; held-out loss %.6f at the start; kept epoch %d\n",
		res.K, res.TrainN, res.ValidN, res.StartValid, res.Best)
	if res.Clipped > 0 {
		fmt.Fprintf(stderr, "warning: %d weights clipped to the file's range\n", res.Clipped)
	}
	fromText := "material"
	if *from != "" {
		fromText = *from
	}
	res.Weights.Note = fmt.Sprintf("nechecb pattern-train --from %s --lambda %g --k %g (fitted %.4f) --epochs %d --batch %d --rate %g --decay %g --validation %g --seed %d on %s; kept epoch %d",
		fromText, cfg.Lambda, cfg.K, res.K, cfg.Epochs, cfg.Batch, cfg.Rate, cfg.Decay, cfg.Validation, cfg.Seed, strings.Join(names, ", "), res.Best)
	if len(res.Weights.Note) > pattern.MaxNote {
		res.Weights.Note = res.Weights.Note[:pattern.MaxNote]
	}
	if err := res.Weights.WriteFile(*out); err != nil {
		return fail(err)
	}
	if *plot != "" {
		if err := fileio.WriteAtomic(*plot, patterntrain.PlotSVG(res, "pattern-train: "+*out)); err != nil {
			return fail(err)
		}
	}
	return 0
}
