package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
	_ "github.com/nechecb/nechecb/eval/all" // every evaluator kind for --eval
)

func init() {
	register(&command{name: "bench", summary: "search the fixed bench positions; the node count is the search's signature (--depth, --eval)", run: runBench})
}

func runBench(args []string) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	depth := fs.Int("depth", search.BenchDepth, "depth in plies")
	// The signature is defined with the material evaluator, so that tuning
	// the default evaluator does not change it; --eval measures another.
	spec := fs.String("eval", "material", "evaluator spec NAME[:PATH[#SELECTOR]]")
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	if *depth < 1 || *depth > search.MaxPly-16 {
		fmt.Fprintf(os.Stderr, "nechecb bench: --depth %d is outside 1..%d\n", *depth, search.MaxPly-16)
		return 2
	}
	if _, _, err := benchSpec(os.Stdout, *depth, *spec); err != nil {
		fmt.Fprintf(os.Stderr, "nechecb bench: %v\n", err)
		return 2
	}
	return 0
}

// benchSpec runs the search benchmark to depth with the evaluator of spec,
// writing its report to w; the protocol's bench command uses it too.
func benchSpec(w io.Writer, depth int, spec string) (uint64, time.Duration, error) {
	f, err := eval.Load(spec)
	if err != nil {
		return 0, 0, err
	}
	nodes, elapsed := search.Bench(w, depth, func() search.Evaluator { return f() })
	return nodes, elapsed, nil
}
