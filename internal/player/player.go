// Package player is the one boundary between nechecb's front ends (the
// protocol server, the console, the training game loop, the CheckerBoard
// plugin) and the search. It names the types that cross that boundary
// (Limits, Options, Tuning, Profile, Info, Result, Score: the search's own) and holds
// the one adapter, Engine, that puts engine/search and an endgame database
// behind them. Front ends declare the small interface they need in these
// types; Engine satisfies all of them. The engine session
// (internal/session) owns an Engine with its options, book and database.
package player

import (
	"context"
	"errors"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
)

// The types that cross the boundary are the search's own, named here so
// that front ends need not import engine/search: what a search is limited
// by, how it is configured (Options, whose Tuning holds the selective
// features an A/B match switches), what it reports after each depth, what it
// returns, and its scores (IsWin, IsLoss, Plies; IsKnownWin and IsKnownLoss
// for the results an endgame database settled).
type (
	Limits  = search.Limits
	Options = search.Options
	Tuning  = search.Tuning
	Info    = search.Info
	Result  = search.Result
	Score   = search.Score
	// Profile names the search settings of a workload (search.Profile).
	Profile = search.Profile
)

// The search profiles: Plain, the learners' full-width alpha-beta, and
// Play, the default of timed play (search.Plain, search.Play).
const (
	Plain = search.Plain
	Play  = search.Play
)

// DefaultOptions are the search's defaults, the engine option table's
// defaults too.
var DefaultOptions = search.DefaultOptions

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
	e := &Engine{s: search.New(opts, nil), opts: opts}
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

// SetOptions changes the options between searches. The hash table is
// cleared only when its size changes.
func (e *Engine) SetOptions(o Options) {
	e.opts = o
	e.s.SetOptions(o)
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

// Prepare does now the work the first search after an option change would
// otherwise do on its clock (mapping a new hash table). Front ends call it
// when the options are in force and no search is running.
func (e *Engine) Prepare() { e.s.Prepare() }

// Search searches root, whose earlier game positions are history (oldest
// first, root excluded), within limits, and returns when a limit is reached
// or ctx is cancelled. progress (may be nil) is called from the search after
// each finished depth or multi-PV line and must return quickly.
func (e *Engine) Search(ctx context.Context, root engine.Position, history []engine.Position, limits Limits, progress func(Info)) Result {
	return e.s.Search(ctx, root, history, limits, progress)
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
