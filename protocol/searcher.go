package protocol

import (
	"context"
	"io"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// Searcher is what the server needs from a search engine. The engine's own
// searcher satisfies it; tests use fakes.
type Searcher interface {
	// SetOptions changes the search options between searches.
	SetOptions(SearchOptions)
	// SetEvaluator replaces the evaluator between searches.
	SetEvaluator(eval.Factory)
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

// Limits says when a search ends; zero fields mean no limit.
type Limits struct {
	Depth                    int
	Nodes                    uint64
	MoveTime                 time.Duration
	WTime, BTime, WInc, BInc time.Duration
	MovesToGo                int
	Infinite, Ponder         bool
	SearchMoves              []engine.Move
}

// SearchOptions configure a Searcher.
type SearchOptions struct {
	HashMB, Threads, MultiPV int
	MoveOverhead             time.Duration
	RandomTies               bool
	Seed                     uint64
}

// Score is a search value for the side to move, 100 = one man; proven wins
// and losses carry their distance in plies.
type Score int32

// winScore and winBound follow the search's encoding: a win in n plies is
// winScore-n.
const (
	winScore Score = 30000
	winBound Score = winScore - 256
)

// IsWin reports a forced win for the side to move.
func (s Score) IsWin() bool { return s >= winBound && s <= winScore }

// IsLoss reports a forced loss for the side to move.
func (s Score) IsLoss() bool { return s <= -winBound && s >= -winScore }

// Plies is the distance to the end of the game for a win or a loss, else 0.
func (s Score) Plies() int {
	switch {
	case s.IsWin():
		return int(winScore - s)
	case s.IsLoss():
		return int(winScore + s)
	}
	return 0
}

// Info reports one finished depth, or one line of it with multi-PV.
type Info struct {
	Depth, SelDepth, MultiPV int
	Score                    Score
	Nodes, NPS               uint64
	Time                     time.Duration
	HashFull                 int
	PV                       []engine.Move
}

// Result is the outcome of a search.
type Result struct {
	Best, Ponder       engine.Move
	HasMove, HasPonder bool
	Score              Score
	Depth              int
	Nodes              uint64
	PV                 []engine.Move
}

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
// the evaluator ev, writing its report lines to w, and returns the nodes
// searched and the time taken.
type BenchFunc func(w io.Writer, depth int, ev eval.Factory) (uint64, time.Duration)
