package console

import (
	"context"
	"fmt"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// Limits says how long the engine thinks. Zero fields are no limit.
type Limits struct {
	Depth    int
	MoveTime time.Duration
	// WTime and BTime are the sides' remaining clock times.
	WTime, BTime time.Duration
	// Infinite searches until the context is cancelled.
	Infinite bool
}

// Info is one progress report of a search.
type Info struct {
	Depth, SelDepth int
	// Score is the value for the side to move, already written for people:
	// "+0.35" (in men) or "win in 7".
	Score      string
	Nodes, NPS uint64
	Time       time.Duration
	PV         []engine.Move
}

// Result is the outcome of a search.
type Result struct {
	Best    engine.Move
	HasMove bool
	Score   string
	PV      []engine.Move
}

// Engine is what the console needs from a search.
type Engine interface {
	// Search searches pos, reached after the positions history (oldest
	// first, pos excluded), until lim is reached or ctx is cancelled,
	// calling progress after each depth.
	Search(ctx context.Context, pos engine.Position, history []engine.Position, lim Limits, progress func(Info)) Result
	// SetEvaluator switches the evaluator.
	SetEvaluator(f eval.Factory)
	// Clear forgets what earlier searches learnt (a new game).
	Clear()
}

// formatCentis writes a score on the 100-per-man scale as men: "+0.35".
func formatCentis(v int) string {
	sign := "+"
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}
