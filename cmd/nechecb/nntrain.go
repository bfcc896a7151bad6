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

	_ "github.com/nechecb/nechecb/eval/all" // every evaluator kind for --compare
	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/train/nntrain"
)

func init() {
	register(&command{name: "nn-train", summary: "fit neural evaluator weights to training positions (--data, --out, --init, --plot)", run: func(args []string) int {
		return nnTrainCommand(args, os.Stdout, os.Stderr)
	}})
}

const nnTrainUsage = `usage: nechecb nn-train --data FILE[,FILE...] --out FILE [--init FILE] [--checkpoint FILE [--resume]] [--plot FILE.svg] [--compare SPEC[,SPEC...]] [flags]
       nechecb nn-train --data FILE[,FILE...] --init FILE --epochs 0 [--compare SPEC[,SPEC...]] [flags]
       nechecb nn-train --annotate FILE --remark TEXT --out FILE2

Fits the neural evaluator's weights (nn) to the positions of the files (made
by nechecb datagen): the sigmoid of the net's output against a blend of each
position's game result and search score, by Adam in minibatches, holding out
a share of the games and keeping the epoch with the best held-out loss. The
written net's note carries the note of --init (or --lineage) and adds this
fit's paragraph. The same data, flags and seed give the same weights,
whatever --workers.

--compare reports, next to the net's, the held-out loss of each evaluator
spec (such as pattern): its score s in centipawns predicts sigmoid(k*s/100)
against the same target on the same held-out positions. --epochs 0 with
--init fits nothing and writes nothing: it measures the net (and the
--compare evaluators) on the held-out positions.

--annotate FILE adds --remark TEXT as a line at the end of FILE's note and
writes the net to --out FILE2, its weights unchanged (a round's gate line).

--layout takes comma-separated stages=1|4, hidden=N, l2=N, l3=N, shared
(one first layer for all stages) and split (two heads a stage: one for
even material, one for the rest); unset keys keep the default
4x(120-128x2-32-32-1), or --init's layout. A hidden=N above --init's
widens that net: its units keep their weights, and the new ones start with
random first-layer weights and second-layer weights of 0. split on an
--init without it starts both heads of a stage from that stage's head.
Either way the fit starts from what --init computes.

flags:
`

func nnTrainCommand(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := nntrain.Default
	cfg.Workers = runtime.NumCPU()
	fl := flag.NewFlagSet("nn-train", flag.ContinueOnError)
	data := fl.String("data", "", "positions files, separated by commas (required)")
	out := fl.String("out", "", "weight file to write (required)")
	init := fl.String("init", "", "weight file to start from, whose note the new one carries (default: seeded random weights)")
	lineage := fl.String("lineage", "", "weight file whose note the new one carries instead of --init's")
	remark := fl.String("remark", "", "text added to this fit's paragraph of the note (a round's data seed, its gate line)")
	plot := fl.String("plot", "", "write the loss curve and the loss by piece count to this SVG file")
	layout := fl.String("layout", "", "net shape: stages=1|4,hidden=N,l2=N,l3=N,shared,split (see above)")
	fl.StringVar(&cfg.Checkpoint, "checkpoint", "", "write the float state here after every epoch")
	fl.BoolVar(&cfg.Resume, "resume", false, "resume from --checkpoint when it exists")
	fl.Float64Var(&cfg.Lambda, "lambda", cfg.Lambda, "share of the game result in the target (the search score has the rest)")
	fl.Float64Var(&cfg.K, "k", cfg.K, "score scale: s centipawns win with probability sigmoid(k*s/100); 0 takes --init's, or fits it to the data")
	fl.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "passes over the training positions")
	fl.IntVar(&cfg.Batch, "batch", cfg.Batch, "positions per step")
	fl.Float64Var(&cfg.Rate, "lr", cfg.Rate, "Adam's first step size (decays along a cosine)")
	fl.Float64Var(&cfg.Validation, "validation", cfg.Validation, "share of the games held out")
	fl.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed (the starting weights and the order of the positions)")
	fl.IntVar(&cfg.Workers, "workers", cfg.Workers, "goroutines (the weights do not depend on them)")
	compare := fl.String("compare", "", "evaluator specs, separated by commas, whose held-out loss is reported next to the net's")
	annotate := fl.String("annotate", "", "weight file to add --remark to, written to --out with its weights unchanged (no data, no fit)")
	maxPositions := fl.Int("max-positions", 0, "use only the first so many positions (0: all)")
	if status, ok := parseFlags(fl, args, nnTrainUsage, stdout, stderr); !ok {
		return status
	}
	if *annotate != "" {
		return annotateCommand(fl, *annotate, *out, *remark, stderr)
	}
	files := nntrain.Files{Out: *out, Init: *init, Lineage: *lineage, Plot: *plot, MaxPositions: *maxPositions,
		Command: "nechecb nn-train " + strings.Join(args, " "), Remark: *remark, Log: stderr, Status: stderr}
	if *data != "" {
		files.Data = strings.Split(*data, ",")
	}
	if *compare != "" {
		files.Compare = strings.Split(*compare, ",")
	}
	files.Config, files.Layout = cfg, *layout
	return cli.Status(stderr, "nn-train", nntrain.TrainFiles(ctx, files))
}

// annotateCommand runs nn-train --annotate, which takes no flag but
// --remark and --out.
func annotateCommand(fl *flag.FlagSet, in, out, remark string, stderr io.Writer) int {
	if extra := cli.SetExcept(fl, "annotate", "remark", "out"); len(extra) > 0 {
		fmt.Fprintf(stderr, "nechecb nn-train: --annotate takes only --remark and --out (no data, no fit), not %s\n", strings.Join(extra, ", "))
		return 2
	}
	return cli.Status(stderr, "nn-train", nntrain.Annotate(in, out, remark))
}
