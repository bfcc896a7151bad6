// Package player is the one boundary between nechecb's front ends (the
// protocol server, the console, the training game loop, the CheckerBoard
// plugin) and the search. It owns the types that cross that boundary
// (Limits, Options, Info, Result, Score) and the one adapter, Engine, that
// puts engine/search behind them. Front ends declare the small interface
// they need in these types; Engine satisfies all of them.
package player

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
)

// Limits says when a search ends. Zero values mean "no limit"; with no
// limit at all the search runs until its context is cancelled.
type Limits struct {
	// Depth is the deepest iteration, in plies.
	Depth int
	// Nodes stops the search after about this many nodes.
	Nodes uint64
	// MoveTime is the time for this move.
	MoveTime time.Duration
	// WTime and BTime are White's and Black's remaining clock time; WInc and
	// BInc their increments; MovesToGo the moves until the next time control
	// (0: the rest of the game).
	WTime, BTime, WInc, BInc time.Duration
	MovesToGo                int
	// Infinite searches until the context is cancelled.
	Infinite bool
	// Ponder searches without time limits until PonderHit (then the limits
	// apply from that moment) or until the context is cancelled.
	Ponder bool
	// SearchMoves restricts the root to these moves; empty means all.
	SearchMoves []engine.Move
}

// Options configure an Engine. Zero fields take the search's defaults.
type Options struct {
	// HashMB is the transposition table's size in megabytes.
	HashMB int
	// Threads is the number of search threads.
	Threads int
	// MultiPV is the number of best root moves to report, each with its line.
	MultiPV int
	// MoveOverhead is kept back from every time limit for communication.
	MoveOverhead time.Duration
	// RandomTies picks at random among root moves of exactly equal score.
	RandomTies bool
	// Seed seeds the random choices (RandomTies).
	Seed uint64
	// QuietDraw, when positive, makes the search score as a draw a position
	// reached after more than QuietDraw plies without a capture or a
	// promotion (neche's 20-ply rule); 0 leaves the rules' draws.
	QuietDraw int
	// MoverView judges every leaf from the side to move, even for an
	// evaluator that asks for the root player's view (search.RootViewer).
	MoverView bool
	// SharePV lets Result.PV share the search's storage until the next
	// search instead of being a copy (no allocation per search).
	SharePV bool
	// Experiment holds the search's selective features, for A/B matches.
	// The zero value means the search's defaults.
	Experiment Experiment
}

// Experiment switches the search's selective features, so that a match can
// measure each one. Fields left at zero keep the defaults.
type Experiment = search.Tuning

// Score is a search value for the side to move.
type Score struct {
	// Value orders every score, larger is better for the side to move: on
	// the scale where 100 is one man, with forced results beyond every
	// evaluation (a win in n plies is the search's win score less n) and,
	// between the two, the wins an endgame database settled (20000 plus
	// the evaluation; losses the negative).
	Value int
	// Win and Loss mark a forced result Plies plies away.
	Win, Loss bool
	Plies     int
}

// IsWin reports whether the side to move has a forced win.
func (s Score) IsWin() bool { return s.Win }

// IsLoss reports whether the side to move has a forced loss.
func (s Score) IsLoss() bool { return s.Loss }

// String writes a forced result as "win N" or "loss N" (N in plies) and any
// other score as a signed number of hundredths of a man.
func (s Score) String() string {
	switch {
	case s.Win:
		return fmt.Sprintf("win %d", s.Plies)
	case s.Loss:
		return fmt.Sprintf("loss %d", s.Plies)
	}
	return fmt.Sprintf("%+d", s.Value)
}

// Info reports one finished depth, or one line of it with multi-PV.
type Info struct {
	Depth, SelDepth, MultiPV int
	Score                    Score
	Nodes, NPS               uint64
	Time                     time.Duration
	// HashFull is the table's fill in permille.
	HashFull int
	// TBHits counts the positions the endgame database settled.
	TBHits uint64
	PV     []engine.Move
}

// Result is the outcome of a search.
type Result struct {
	// Best is the move to play, valid when HasMove (there is no move when
	// the side to move has lost).
	Best engine.Move
	// Ponder is the expected reply, valid when HasPonder.
	Ponder             engine.Move
	HasMove, HasPonder bool
	Score              Score
	// Depth is the last depth completed.
	Depth int
	Nodes uint64
	// TBHits counts the positions the endgame database settled.
	TBHits uint64
	// Known is the endgame database's verdict on the root for the side to
	// move (DBUnknown without one or beyond its pieces).
	Known Outcome
	PV    []engine.Move
}

// Engine is the search behind the boundary: one search.Searcher with the
// evaluator it plays with. Search may not run twice at once on one Engine;
// PonderHit may be called at any time.
type Engine struct {
	s       *search.Searcher
	opts    Options
	factory eval.Factory
	eval    string
	dbase   database
}

// New makes an Engine with opts and the evaluator f, named name in
// messages (nil f: material).
func New(opts Options, f eval.Factory, name string) *Engine {
	e := &Engine{s: search.New(searchOptions(opts), nil), opts: opts}
	e.SetEvaluator(f, name)
	return e
}

// Load makes an Engine with opts and the evaluator of spec (see eval.Load).
func Load(opts Options, spec string) (*Engine, error) {
	f, err := eval.Load(spec)
	if err != nil {
		return nil, err
	}
	return New(opts, f, spec), nil
}

func searchOptions(o Options) search.Options {
	return search.Options{HashMB: o.HashMB, Threads: o.Threads, MultiPV: o.MultiPV,
		MoveOverhead: o.MoveOverhead, RandomTies: o.RandomTies, Seed: o.Seed, QuietDraw: o.QuietDraw,
		MoverView: o.MoverView, SharePV: o.SharePV, Tuning: o.Experiment}
}

// SetOptions changes the options between searches. The hash table is
// cleared only when its size changes.
func (e *Engine) SetOptions(o Options) {
	e.opts = o
	e.s.SetOptions(searchOptions(o))
}

// Options returns the options last set.
func (e *Engine) Options() Options { return e.opts }

// SetEvaluator replaces the evaluator between searches; name is how
// messages refer to it (nil f: material).
func (e *Engine) SetEvaluator(f eval.Factory, name string) {
	if f == nil {
		f, name = func() eval.Evaluator { return eval.Material{} }, "material"
	}
	e.factory, e.eval = f, name
	e.s.SetEvaluator(func() search.Evaluator { return f() })
}

// LoadEvaluator switches to the evaluator of spec. When spec does not load,
// the error names what was wrong and the evaluator in force stays.
func (e *Engine) LoadEvaluator(spec string) error {
	f, err := eval.Load(spec)
	if err != nil {
		return err
	}
	e.SetEvaluator(f, spec)
	return nil
}

// Evaluator returns the name of the evaluator in force.
func (e *Engine) Evaluator() string { return e.eval }

// Evaluate returns the evaluator's own output for p and its score on the
// engine's scale, both for the side to move.
func (e *Engine) Evaluate(p *engine.Position) (raw float64, score int) {
	ev := e.factory()
	return ev.Raw(p), ev.Evaluate(p)
}

// Clear forgets everything learnt from earlier searches (hash table,
// move-ordering history), as for a new game.
func (e *Engine) Clear() { e.s.Clear() }

// PonderHit turns a running ponder search into a normal one.
func (e *Engine) PonderHit() { e.s.PonderHit() }

// Search searches root, whose earlier game positions are history (oldest
// first, root excluded), within limits, and returns when a limit is reached
// or ctx is cancelled. progress (may be nil) is called from the search after
// each finished depth or multi-PV line and must return quickly.
func (e *Engine) Search(ctx context.Context, root engine.Position, history []engine.Position, limits Limits, progress func(Info)) Result {
	var report func(search.Info)
	if progress != nil {
		report = func(in search.Info) {
			progress(Info{Depth: in.Depth, SelDepth: in.SelDepth, MultiPV: in.MultiPV, Score: score(in.Score),
				Nodes: in.Nodes, NPS: in.NPS, Time: in.Time, HashFull: in.HashFull, TBHits: in.TBHits, PV: in.PV})
		}
	}
	r := e.s.Search(ctx, root, history, search.Limits(limits), report)
	return Result{Best: r.Best, Ponder: r.Ponder, HasMove: r.HasMove, HasPonder: r.HasPonder,
		Score: score(r.Score), Depth: r.Depth, Nodes: r.Nodes, TBHits: r.TBHits, Known: r.Known, PV: r.PV}
}

// score unpacks the search's score.
func score(s search.Score) Score {
	return Score{Value: int(s), Win: s.IsWin(), Loss: s.IsLoss(), Plies: s.Plies()}
}

// Mover is a play.Player (engine/play's game loop) that searches with
// Engine within Limits, the game's earlier positions counting for
// repetitions. It keeps the result of its last search.
type Mover struct {
	Engine *Engine
	Limits Limits
	// Last is the result of the last search.
	Last Result
}

// Move searches g's current position and returns the best move.
func (m *Mover) Move(ctx context.Context, g *engine.Game) (engine.Move, error) {
	pos := g.Positions()
	m.Last = m.Engine.Search(ctx, g.Current(), pos[:len(pos)-1], m.Limits, nil)
	if !m.Last.HasMove {
		return engine.Move{}, errors.New("searched and found no move")
	}
	return m.Last.Best, nil
}
