package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/nechecb/nechecb/engine"
)

func init() {
	register(&command{name: "perft", summary: "count the move tree of a position (--fen, --depth, --divide, --threads)", run: func(args []string) int { return perftCommand(args, os.Stdout, os.Stderr) }})
}

// perftCommand runs nechecb perft with args, writing the counts to stdout
// and a one-line error to stderr; it returns the exit status.
func perftCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fen := fs.String("fen", engine.StartFEN, "position to count from")
	depth := fs.Int("depth", 7, "depth in plies")
	divide := fs.Bool("divide", false, "print the count below each root move")
	threads := fs.Int("threads", 1, "goroutines to share the tree between")
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	if err := engine.WritePerftFEN(stdout, *fen, *depth, *threads, *divide); err != nil {
		fmt.Fprintf(stderr, "nechecb perft: %v\n", err)
		return 2
	}
	return 0
}
