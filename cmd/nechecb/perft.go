package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nechecb/nechecb/engine"
)

func init() {
	register(&command{name: "perft", summary: "count the move tree of a position (--fen, --depth, --divide, --threads)", run: runPerft})
}

func runPerft(args []string) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fen := fs.String("fen", engine.StartFEN, "position to count from")
	depth := fs.Int("depth", 7, "depth in plies")
	divide := fs.Bool("divide", false, "print the count below each root move")
	threads := fs.Int("threads", 1, "goroutines to spread the root moves over")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(os.Stderr, "nechecb perft: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "nechecb perft: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *depth < 0 || *depth > 64 {
		fmt.Fprintf(os.Stderr, "nechecb perft: --depth %d is outside 0..64\n", *depth)
		return 2
	}
	if *threads < 1 || *threads > 1024 {
		fmt.Fprintf(os.Stderr, "nechecb perft: --threads %d is outside 1..1024\n", *threads)
		return 2
	}
	pos, err := engine.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintf(os.Stderr, "nechecb perft: %v\n", err)
		return 2
	}
	start := time.Now()
	var nodes uint64
	if *divide {
		for _, e := range engine.Divide(&pos, *depth, *threads) {
			fmt.Printf("%s %d\n", e.Move, e.Nodes)
			nodes += e.Nodes
		}
	} else {
		nodes = engine.PerftParallel(&pos, *depth, *threads)
	}
	elapsed := time.Since(start)
	fmt.Printf("nodes %d time %d nps %d\n", nodes, elapsed.Milliseconds(), perSecond(nodes, elapsed))
	return 0
}

// perSecond returns n per second over d, guarding against a zero duration.
func perSecond(n uint64, d time.Duration) uint64 {
	if d <= 0 {
		d = time.Nanosecond
	}
	return uint64(float64(n) / d.Seconds())
}
