package protocol

import (
	"context"
	"io"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
)

// Searcher is what the server needs from a search engine, in the types of
// the boundary between front ends and the search (internal/player).
// *player.Engine satisfies it; tests use fakes. The engine's options are not
// part of it: the binary's option setters configure the engine.
type Searcher interface {
	// Evaluator names the evaluator in force.
	Evaluator() string
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
	Search(ctx context.Context, root engine.Position, history []engine.Position, limits player.Limits, progress func(player.Info)) player.Result
	// PonderHit turns a running ponder search into a normal one; it may be
	// called from another goroutine while Search runs.
	PonderHit()
	// Prepare does the work a first search would otherwise do on its clock;
	// the server calls it on isready (Hub: init), when no search runs.
	Prepare()
}

// Book is the opening-book hook. Before each search that may end by itself
// (not ponder, not infinite) the server asks it for a move; ok is false when
// the book has none or is switched off. The binary's Book options configure
// it. It is called from the server's loop only.
type Book interface {
	Probe(pos engine.Position, history []engine.Position) (m engine.Move, ok bool)
}

// BenchFunc runs the search benchmark to depth (0: its default depth) with
// the evaluator in force, writing its report lines to w, and returns the
// nodes searched and the time taken.
type BenchFunc func(w io.Writer, depth int) (uint64, time.Duration, error)

var _ Searcher = (*player.Engine)(nil)
