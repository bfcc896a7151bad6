package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/player"
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

// ballotSets returns the ballots named by --ballots.
func ballotSets(name string) ([]books.Ballot, error) {
	switch name {
	case "2move":
		return books.TwoMove(), nil
	case "3move":
		return books.ThreeMove(), nil
	case "both":
		return append(books.TwoMove(), books.ThreeMove()...), nil
	}
	return nil, fmt.Errorf("--ballots %q: want 2move, 3move or both", name)
}

// run builds the book by searching each legal move of every ballot position
// on its own (SearchMoves), so every move gets a score of the same depth.
func (sb *searchBuild) run(out string, text bool) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(os.Stderr, "\nnechecb book build: %v\n", err)
		return code
	}
	if (*sb.depth > 0) == (*sb.movetime > 0) {
		return fail(2, errors.New("give exactly one of --depth N and --movetime MS"))
	}
	ballots, err := ballotSets(*sb.ballots)
	if err != nil {
		return fail(2, err)
	}
	positions, err := books.BallotPositions(ballots)
	if err != nil {
		return fail(2, err)
	}
	factory, err := eval.Load(*sb.spec)
	if err != nil {
		return fail(2, err)
	}
	book := books.New()
	if *sb.resume {
		book, err = books.ReadFile(out)
		if errors.Is(err, fs.ErrNotExist) {
			book, err = books.New(), nil
		}
		if err != nil {
			return fail(2, err)
		}
	} else if _, err := os.Stat(out); err == nil {
		return fail(2, fmt.Errorf("%s exists: use --resume to continue it, or another file", out))
	}
	s := player.New(player.Options{HashMB: *sb.hashMB, Threads: 1, MultiPV: 1}, factory, "")
	limits := player.Limits{Depth: *sb.depth, MoveTime: time.Duration(*sb.movetime) * time.Millisecond}
	score := func(p engine.Position) ([]books.MoveEntry, error) {
		var moves []books.MoveEntry
		for _, m := range p.LegalMoves() {
			lim := limits
			lim.SearchMoves = []engine.Move{m}
			r := s.Search(context.Background(), p, nil, lim, nil)
			moves = append(moves, books.MoveEntry{Move: m, Score: books.ClampScore(r.Score.Value)})
		}
		return moves, nil
	}
	began := time.Now()
	err = books.BuildFromSearch(book, positions, score, books.SearchOptions{
		Progress: func(done, total int, p engine.Position) {
			fmt.Fprintf(os.Stderr, "\rposition %d/%d  %.0f s  %s\x1b[K", done, total, time.Since(began).Seconds(), p.FEN())
		},
		Checkpoint:      func(b *books.Book) error { return b.Save(out, text) },
		CheckpointEvery: 10,
	})
	if err != nil {
		return fail(1, err)
	}
	fmt.Fprintf(os.Stderr, "\nnechecb book build: %d positions written to %s\n", book.Len(), out)
	return 0
}
