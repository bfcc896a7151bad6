package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nechecb/nechecb/engine/search"
	_ "github.com/nechecb/nechecb/eval/all" // every evaluator kind for --eval
	"github.com/nechecb/nechecb/internal/player"
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
	if _, _, err := player.Bench(os.Stdout, *depth, *spec); err != nil {
		fmt.Fprintf(os.Stderr, "nechecb bench: %v\n", err)
		return 2
	}
	return 0
}
