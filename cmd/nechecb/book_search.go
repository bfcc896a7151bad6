package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/train/booksearch"
)

// searchBuild holds the flags of `nechecb book build --ballots`.
type searchBuild struct {
	ballots  *string
	depth    *int
	movetime *int
	spec     *string
	hashMB   *int
	resume   *bool
}

func addSearchBuildFlags(fs *flag.FlagSet) *searchBuild {
	return &searchBuild{
		ballots:  fs.String("ballots", "", "build by searching every position on the way through these ballots: 2move, 3move or both"),
		depth:    fs.Int("depth", 0, "with --ballots: search each move to this depth"),
		movetime: fs.Int("movetime", 0, "with --ballots: milliseconds of search for each move"),
		spec:     fs.String("eval", all.DefaultSpec, "with --ballots: evaluator spec"),
		hashMB:   fs.Int("hash", 64, "with --ballots: transposition table in MB"),
		resume:   fs.Bool("resume", false, "with --ballots: continue the partial book in -o"),
	}
}

func (sb *searchBuild) requested() bool { return *sb.ballots != "" }

// run builds the book by searching the ballots (train/booksearch).
func (sb *searchBuild) run(out string, text bool) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(os.Stderr, "nechecb book build: %v\n", err)
		return code
	}
	if (*sb.depth > 0) == (*sb.movetime > 0) {
		return fail(2, errors.New("give exactly one of --depth N and --movetime MS"))
	}
	n, err := booksearch.BuildFile(context.Background(), booksearch.FileBuild{
		Ballots: *sb.ballots, Spec: *sb.spec, HashMB: *sb.hashMB, Out: out, Resume: *sb.resume, Text: text,
		Limits: player.Limits{Depth: *sb.depth, MoveTime: time.Duration(*sb.movetime) * time.Millisecond},
	}, os.Stderr)
	if err != nil {
		return fail(exitStatus(err), err)
	}
	fmt.Fprintf(os.Stderr, "nechecb book build: %d positions written to %s\n", n, out)
	return 0
}
