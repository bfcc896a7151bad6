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
	register(&command{name: "bench", summary: "search the fixed bench positions; the node count is the search's signature (--depth, --eval, --profile, --threads)", run: runBench})
}

func runBench(args []string) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	depth := fs.Int("depth", 0, fmt.Sprintf("depth in plies (0: the profile's signature depth, %d for play, %d for plain)", search.BenchDepth, search.PlainBenchDepth))
	profile := player.Play
	fs.Var(&profile, "profile", fmt.Sprintf("search profile %v: play (timed play's) or plain (the learners' full-width alpha-beta)", search.Profiles))
	// The signature is defined with the material evaluator, so that tuning
	// the default evaluator does not change it; --eval measures another.
	spec := fs.String("eval", "material", "evaluator spec NAME[:PATH[#SELECTOR]]")
	threads := fs.Int("threads", 1, "search threads; only 1 gives the signature, more measure the time to the depth")
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	if *depth < 0 || *depth > search.MaxPly-16 {
		fmt.Fprintf(os.Stderr, "nechecb bench: --depth %d is outside 0..%d\n", *depth, search.MaxPly-16)
		return 2
	}
	if *threads < 1 || *threads > search.MaxThreads {
		fmt.Fprintf(os.Stderr, "nechecb bench: --threads %d is outside 1..%d\n", *threads, search.MaxThreads)
		return 2
	}
	if _, _, err := player.Bench(os.Stdout, *depth, *threads, *spec, profile); err != nil {
		fmt.Fprintf(os.Stderr, "nechecb bench: %v\n", err)
		return 2
	}
	return 0
}
