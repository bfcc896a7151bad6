package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/eval/neche"
	"github.com/nechecb/nechecb/internal/cli"
)

func init() {
	register(&command{name: "eval", summary: "evaluate one position (--eval SPEC, --fen FEN; --dot draws a neche network)", run: func(args []string) int { return evalCommand(args, os.Stdout, os.Stderr) }})
}

const evalUsage = `usage: nechecb eval [--eval SPEC] [--fen FEN] [--dot]

Prints "raw <value>" (the model's own output for the side to move) and
"score <int>" (the engine's scale, 100 = one man). SPEC is NAME[:PATH[#SELECTOR]],
for example:
  material
  neche:PATH#LINE, neche:PATH#last, neche:=ACGT..., neche:#g1
  cnn:PATH#ROWNAME
  blondie:PATH
Known kinds: %s.
--dot prints a neche network as a Graphviz drawing instead
(render it with dot -Tsvg).

`

// evalCommand prints an evaluator's raw output and score for one
// position, or with --dot the Graphviz drawing of a neche network.
func evalCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	spec := fs.String("eval", all.DefaultSpec, "evaluator spec NAME[:PATH[#SELECTOR]]")
	fen := fs.String("fen", engine.StartFEN, "position to evaluate")
	dot := fs.Bool("dot", false, "print the Graphviz drawing of a neche network instead")
	header := fmt.Sprintf(evalUsage, strings.Join(eval.Kinds(), ", "))
	if status, ok := parseFlags(fs, args, header, stdout, stderr); !ok {
		return status
	}
	if *dot {
		return cli.Status(stderr, "eval", neche.WriteSpecDOT(stdout, *spec))
	}
	return cli.Status(stderr, "eval", eval.WriteEval(stdout, *spec, *fen))
}
