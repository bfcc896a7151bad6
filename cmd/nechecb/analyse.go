package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/analyse"
	"github.com/nechecb/nechecb/internal/cli"
)

func init() {
	for _, name := range []string{"analyse", "analyze"} {
		register(&command{name: name, summary: "annotate every game of a PDN file: scores, database verdicts, ?!/?/?? with the best line (docs/analyse.md)",
			run: func(args []string) int { return analyseCommand(name, args, os.Stdout, os.Stderr) }})
	}
}

const analyseUsage = `usage: nechecb %s IN.pdn [--out OUT.pdn] [--movetime MS | --depth N] [--eval SPEC] [--db DIR] [--threads N] [--resume]

Searches every position of every game of IN.pdn and writes the games
annotated to OUT.pdn (default: IN.analysed.pdn): after each move the score
in men from Black's side over the depth, the endgame database's verdict
where the move changed it, and for a move that lost expected score its
mark (?! ? ??), what it lost, and the best line as a side line; a summary
of each side's marks before the first move. A bad game is skipped and
named. See docs/analyse.md.

flags:
`

// analyseCommand runs nechecb analyse (or analyze, its other spelling).
func analyseCommand(name string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	opts := analyse.Options{Annotator: "nechecb " + version, Stderr: stderr}
	fs.StringVar(&opts.Out, "out", "", "the annotated PDN file to write (default: IN.analysed.pdn)")
	ms := fs.Int("movetime", 0, fmt.Sprintf("milliseconds a position (default %d unless --depth)", analyse.DefaultMoveTime.Milliseconds()))
	fs.IntVar(&opts.Depth, "depth", 0, "search every position to this depth instead of a time")
	fs.StringVar(&opts.Eval, "eval", all.DefaultSpec, "evaluator spec")
	fs.StringVar(&opts.DB, "db", "", "endgame database directory (empty: the built-in one; none: no database)")
	fs.IntVar(&opts.Threads, "threads", 1, "search threads")
	fs.BoolVar(&opts.Resume, "resume", false, "go on from the games already in --out")
	in, rest := inputArg(fs, args)
	if status, ok := parseFlags(fs, rest, fmt.Sprintf(analyseUsage, name), stdout, stderr); !ok {
		return status
	}
	if in == "" {
		fmt.Fprintf(stderr, "nechecb %s: name the PDN file to analyse (nechecb %s -h)\n", name, name)
		return 2
	}
	opts.In, opts.MoveTime = in, time.Duration(*ms)*time.Millisecond
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return cli.Status(stderr, name, analyse.Run(ctx, opts))
}

// inputArg finds the input file among args, the first argument that is
// neither a flag of fs nor a flag's value, and returns it with the other
// arguments.
func inputArg(fs *flag.FlagSet, args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return args[i+1], append(append([]string(nil), args[:i]...), args[i+2:]...)
			}
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return a, append(append([]string(nil), args[:i]...), args[i+1:]...)
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := fs.Lookup(name); f != nil && !hasValue && !isBool(f) {
			i++ // the flag's value
		}
	}
	return "", args
}

// isBool reports whether f is a flag that takes no value.
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
