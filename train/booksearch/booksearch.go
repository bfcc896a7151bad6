// Package booksearch builds opening books by searching: every position on
// the way through a set of ballots gets an entry with each legal move
// scored by a search of its own, so that every move's score has the same
// depth. The partial book is written as it grows, so that an interrupted
// build resumes where it stopped. The built-in book was made this way.
package booksearch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/player"
)

// Ballots returns the ballot set named: "2move", "3move" or "both".
func Ballots(name string) ([]books.Ballot, error) {
	switch name {
	case "2move":
		return books.TwoMove(), nil
	case "3move":
		return books.ThreeMove(), nil
	case "both":
		return append(books.TwoMove(), books.ThreeMove()...), nil
	}
	return nil, fmt.Errorf("ballot set %q: want 2move, 3move or both", name)
}

// ErrExists is wrapped by Open's error for a file that exists when no
// resume was asked for.
var ErrExists = errors.New("the book file exists")

// Open returns the book a build writes to path: empty, or with resume the
// partial book already there (empty if there is none). Without resume an
// existing file is refused (ErrExists), so that no book is overwritten.
func Open(path string, resume bool) (*books.Book, error) {
	if !resume {
		if _, err := os.Stat(path); err == nil {
			return nil, fmt.Errorf("%s: %w", path, ErrExists)
		}
		return books.New(), nil
	}
	b, err := books.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return books.New(), nil
	}
	return b, err
}

// Config says how a book is searched.
type Config struct {
	// Ballots are the ballots whose positions the book covers.
	Ballots []books.Ballot
	// Limits bound each move's search (a depth or a move time).
	Limits player.Limits
	// Eval is the evaluator (nil: material) and HashMB the table size.
	Eval   eval.Factory
	HashMB int
	// Out is the file the book is written to, every CheckpointEvery new
	// positions (0: 10) and at the end; Text picks the text format.
	Out             string
	Text            bool
	CheckpointEvery int
}

// Progress is where a build stands after a position.
type Progress struct {
	// Done counts the positions done (those already in the book included)
	// out of Total; Position is the last one.
	Done, Total int
	Position    engine.Position
	Elapsed     time.Duration
}

// String writes p as one status line.
func (p Progress) String() string {
	return fmt.Sprintf("position %d/%d  %.0f s  %s", p.Done, p.Total, p.Elapsed.Seconds(), p.Position.FEN())
}

// Build adds to book an entry for every position of cfg.Ballots that it
// does not hold yet, searching each legal move on its own (SearchMoves)
// within cfg.Limits, and writes the book to cfg.Out. progress, if not nil,
// is called after every position. A cancelled ctx ends the searches early
// and the build with ctx's error.
func Build(ctx context.Context, book *books.Book, cfg Config, progress func(Progress)) error {
	if cfg.Limits.Depth <= 0 && cfg.Limits.MoveTime <= 0 && cfg.Limits.Nodes == 0 {
		return errors.New("no search limit: give a depth, a move time or a node count")
	}
	positions, err := books.BallotPositions(cfg.Ballots)
	if err != nil {
		return err
	}
	e := player.New(player.Options{HashMB: max(cfg.HashMB, 1), Threads: 1, MultiPV: 1}, cfg.Eval, "")
	score := func(p engine.Position) ([]books.MoveEntry, error) {
		var moves []books.MoveEntry
		for _, m := range p.LegalMoves() {
			lim := cfg.Limits
			lim.SearchMoves = []engine.Move{m}
			r := e.Search(ctx, p, nil, lim, nil)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			moves = append(moves, books.MoveEntry{Move: m, Score: books.ClampScore(int(r.Score))})
		}
		return moves, nil
	}
	began := time.Now()
	opt := books.SearchOptions{
		Checkpoint:      func(b *books.Book) error { return b.Save(cfg.Out, cfg.Text) },
		CheckpointEvery: cfg.CheckpointEvery,
	}
	if opt.CheckpointEvery <= 0 {
		opt.CheckpointEvery = 10
	}
	if progress != nil {
		opt.Progress = func(done, total int, p engine.Position) {
			progress(Progress{Done: done, Total: total, Position: p, Elapsed: time.Since(began)})
		}
	}
	return books.BuildFromSearch(book, positions, score, opt)
}
