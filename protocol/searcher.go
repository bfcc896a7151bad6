package protocol

import (
	"context"
	"io"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
)

// Searcher is what the server needs from a search engine. The engine's own
// searcher satisfies it; tests use fakes.
type Searcher interface {
	// SetOptions changes the search options between searches.
	SetOptions(SearchOptions)
	// LoadEvaluator switches to the evaluator of spec between searches; on
	// an error the evaluator in force stays.
	LoadEvaluator(spec string) error
	// Evaluate returns the evaluator's own output for p and its score on
	// the engine's scale, both for the side to move.
	Evaluate(p *engine.Position) (raw float64, score int)
	// Clear forgets everything learnt from earlier searches (hash table,
	// move-ordering history), as for a new game.
	Clear()
	// Search searches root, whose earlier game positions are history (oldest
	// first, root excluded), within limits, and returns when a limit is
	// reached or ctx is cancelled. progress (never nil here) is called from
	// the search goroutine after each finished depth or multi-PV line; the
	// server's progress function never blocks.
	Search(ctx context.Context, root engine.Position, history []engine.Position, limits Limits, progress func(Info)) Result
	// PonderHit turns a running ponder search into a normal one; it may be
	// called from another goroutine while Search runs.
	PonderHit()
}

// The boundary's types, so that *player.Engine satisfies Searcher.
type (
	// Limits says when a search ends; zero fields mean no limit.
	Limits = player.Limits
	// SearchOptions configure a Searcher.
	SearchOptions = player.Options
	// Score is a search value for the side to move, 100 = one man; proven
	// wins and losses carry their distance in plies.
	Score = player.Score
	// Info reports one finished depth, or one line of it with multi-PV.
	Info = player.Info
	// Result is the outcome of a search.
	Result = player.Result
)

// BookProber finds an opening-book move. level is the Book option (1 all
// book moves, 2 good ones, 3 the best only); ok is false when the book does
// not know the position.
type BookProber interface {
	Probe(pos engine.Position, history []engine.Position, level int) (m engine.Move, ok bool)
}

// BookOpener loads the book named by the BookFile option ("" means the
// built-in book).
type BookOpener func(file string) (BookProber, error)

// BenchFunc runs the search benchmark to depth (0: its default depth) with
// the evaluator of spec, writing its report lines to w, and returns the nodes
// searched and the time taken.
type BenchFunc func(w io.Writer, depth int, spec string) (uint64, time.Duration, error)

var _ Searcher = (*player.Engine)(nil)
