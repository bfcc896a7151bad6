package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/nechecb/nechecb/engine"
)

func init() {
	register(&command{name: "perft", summary: "count the move tree of a position (--fen, --depth, --divide, --threads)", run: runPerft})
}

func runPerft(args []string) int { return perftCommand(args, os.Stdout, os.Stderr) }

// perftCommand runs nechecb perft with args, writing the counts to stdout
// and a one-line error to stderr; it returns the exit status.
func perftCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fen := fs.String("fen", engine.StartFEN, "position to count from")
	depth := fs.Int("depth", 7, "depth in plies")
	divide := fs.Bool("divide", false, "print the count below each root move")
	threads := fs.Int("threads", 1, "goroutines to share the tree between")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "nechecb perft: "+format+"\n", a...)
		return 2
	}
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	if *depth < 0 || *depth > engine.MaxPerftDepth {
		return fail("--depth %d is outside 0..%d", *depth, engine.MaxPerftDepth)
	}
	if *threads < 1 || *threads > 1024 {
		return fail("--threads %d is outside 1..1024", *threads)
	}
	pos, err := engine.ParseFEN(*fen)
	if err != nil {
		return fail("%v", err)
	}
	engine.WritePerft(stdout, &pos, *depth, *threads, *divide)
	return 0
}
