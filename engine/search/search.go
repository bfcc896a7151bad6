// Package search owns the engine's game-tree search: iterative-deepening
// principal-variation alpha-beta with aspiration windows, a shared
// transposition table, move ordering by hash move, killers and history,
// capture resolution at the horizon, the game's draw and loss rules inside
// the tree, the use of an endgame database through the Oracle interface,
// time management, pondering, multi-PV, Lazy SMP threads, and the bench run
// that is the search's signature.
package search

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nechecb/nechecb/engine"
)

// Evaluator is what the search needs from an evaluation: the value of a
// quiet position for the side to move on the scale where 100 is one man,
// within ±10000 so that it never reaches the scores of forced results. An
// instance may keep scratch state; each search thread has its own.
type Evaluator interface {
	Evaluate(p *engine.Position) int
}

// RootViewer is an Evaluator that may ask to judge every leaf from the
// root player's side instead of the side to move's. Negamax asks for the
// side to move's value, which for an evaluator whose value for one side is
// not minus its value for the other (a network with an offset that depends
// on the side it looks from, as neche genomes, Blondie24 nets and the seed
// CNN have) swings with the parity of each line, and the swing can swamp
// material. Judged from the root player's side at every leaf, as neche's
// own search does, the offset is the same everywhere and cancels when the
// root's moves are compared. The search asks once per search; such values
// go into the table under keys of their own for each root side.
type RootViewer interface {
	Evaluator
	RootView() bool
}

// EvaluatorFactory makes a fresh Evaluator for one search thread. It is
// called from the goroutine that configures the Searcher.
type EvaluatorFactory func() Evaluator

// Material is the rules' material count as an evaluator (engine.Material):
// the search uses it when it is given none, so the bench signature depends
// on it.
type Material = engine.Material

// Limits says when a search ends. Zero values mean "no limit"; with no limit
// at all the search runs to MaxPly or until its context is cancelled.
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

// Options configure a Searcher.
type Options struct {
	// HashMB is the transposition table's size in megabytes.
	HashMB int
	// Threads is the number of search threads (Lazy SMP).
	Threads int
	// MultiPV is the number of best root moves to report, each with its line.
	MultiPV int
	// MoveOverhead is kept back from every time limit for communication.
	MoveOverhead time.Duration
	// RandomTies picks at random among root moves of exactly equal score.
	RandomTies bool
	// Seed seeds the random choice of RandomTies.
	Seed uint64
	// QuietDraw, when positive, scores as a draw every position reached
	// after more than QuietDraw plies without a capture or a promotion, the
	// game's earlier plies counting (neche's search used 20). 0 leaves only
	// the rules' draws.
	QuietDraw int
	// MoverView judges every leaf from the side to move even when the
	// evaluator asks for the root player's view (RootViewer).
	MoverView bool
	// SharePV makes Result.PV share the searcher's storage, valid until the
	// next Search, instead of a copy: a caller that reads the line at once
	// (a training game) saves an allocation per search.
	SharePV bool
	// Tuning switches the selective features; the zero value plays.
	Tuning Tuning
}

// MaxThreads is the most search threads a Searcher is given by its front
// ends.
const MaxThreads = 256

// DefaultOptions are the options a Searcher starts with when given zeros,
// and the engine's defaults. MoveOverhead covers the delay between the
// search's stop and the move reaching a local client: through a pipe, a
// stop's bestmove arrives a median 0.35 ms after the stop, at most 3 ms
// on a loaded 2-core machine (BenchmarkProtocolStop in cmd/nechecb).
var DefaultOptions = Options{HashMB: 64, Threads: 1, MultiPV: 1, MoveOverhead: 6 * time.Millisecond}

// Info reports one finished depth (or one line of it with multi-PV).
type Info struct {
	Depth, SelDepth, MultiPV int
	Score                    Score
	Nodes, NPS               uint64
	Time                     time.Duration
	// HashFull is the table's fill in permille.
	HashFull int
	// TBHits counts the positions the oracle (endgame database) settled.
	TBHits uint64
	PV     []engine.Move
}

// Result is the outcome of a search.
type Result struct {
	// Best is the move to play, valid when HasMove (there is no move when the
	// side to move has lost).
	Best engine.Move
	// Ponder is the expected reply, valid when HasPonder.
	Ponder             engine.Move
	HasMove, HasPonder bool
	// Score is Best's value for the side to move.
	Score Score
	// Depth is the last depth completed.
	Depth int
	Nodes uint64
	// TBHits counts the positions the oracle settled.
	TBHits uint64
	// Known is the oracle's verdict on the root for the side to move
	// (Unknown without an oracle or beyond its pieces).
	Known Outcome
	PV    []engine.Move
}

// Searcher searches positions. Search may not run twice at once on one
// Searcher; PonderHit may be called at any time.
type Searcher struct {
	opts    Options
	factory EvaluatorFactory
	tt      *table
	workers []*worker
	rng     *rand.Rand
	pcg     *rand.PCG
	moves   []rootMove // the root moves of the last search, reused
	pv      []engine.Move
	done    <-chan struct{} // the search's context's Done channel
	helpers sync.WaitGroup  // the helper threads of a running search

	stop       atomic.Bool
	pondering  atomic.Bool
	ponderHit  chan struct{}
	hitOnce    sync.Once
	clockStart atomic.Int64 // unix nanoseconds from which time limits count
	start      time.Time    // when Search was called
	limits     Limits
	soft, hard time.Duration // time budget, when timed
	timed      bool
	rootSide   engine.Color
	mu         sync.Mutex // guards ponderHit and hitOnce between searches
	tune       Tuning
	oracle     Oracle
	// rootOutcome is the oracle's verdict on the root (Unknown without one).
	rootOutcome Outcome
	// probeRoot is the root as the oracle sees it: a field, so that passing
	// it to the interface does not move Search's argument to the heap.
	probeRoot engine.Position
}

// Tuning holds the switches of the search's selective parts, so that a
// match can measure each one (the protocol exposes them as hidden options).
// The zero value is what plays.
type Tuning struct {
	// NoLMR switches late-move reductions off.
	NoLMR bool
	// LMRDepth is the least depth at which late moves are reduced (0: 3).
	LMRDepth int
	// LMRMoves is how many moves are searched in full before reductions
	// start (0: 3).
	LMRMoves int
	// NoThreat switches the threat search off: at the horizon, the quiet
	// moves of a position whose side to move has no capture but whose
	// opponent has one are searched instead of evaluating it, at most
	// ThreatPlies times on a path.
	NoThreat bool
	// ThreatPlies is how many threat searches a path may hold (0: 1).
	ThreatPlies int
	// SingleReply searches the only legal move of a position one ply
	// deeper (on paths shorter than twice the iteration's depth).
	SingleReply bool
	// Crown extends crowning: 1 searches a move that crowns a man one ply
	// deeper, 2 also a man's step onto the row before its crowning row (on
	// paths shorter than twice the iteration's depth; 0: off).
	Crown int
	// HistLMR reduces a late quiet move one ply more when its history
	// score is below zero: it has failed more often than it cut off.
	HistLMR bool
	// KingLMR lets late-move reductions take a late king's step at a
	// non-PV node too (by default king moves are never reduced).
	KingLMR bool
	// LMRLog, when above 0, sizes late-move reductions by the logarithms of
	// the depth and the move's slot: ln(depth)·ln(slot)·10/LMRLog plies,
	// rounded, at least 1 (0: the fixed 1 or 2 plies).
	LMRLog int
	// LMP, when above 0, skips the late quiet men's moves of a non-PV node
	// of depth 1 to 3: those after the first LMP·depth moves that neither
	// crown nor offer the opponent a capture (0: off).
	LMP int
	// NoTrunc switches eval-distance truncation off. It shortens the
	// search of a non-PV node where neither side has a capture by a ply per
	// TruncStep centipawns its static evaluation lies outside the window, when
	// that is more than Trunc centipawns (at most 3 plies; the node keeps a
	// ply); a node back within Trunc of the window gets the path's
	// truncated plies back.
	NoTrunc bool
	// Trunc is the truncation's threshold in centipawns (0: 100).
	Trunc int
	// TruncStep is how many centipawns outside the window cost a ply
	// (0: 64).
	TruncStep int
	// NoPVExt switches the PV extension off: a PV node above the horizon
	// owes half a ply of extension, so every second PV node on a path is
	// searched a ply deeper (on paths shorter than twice the iteration's
	// depth).
	NoPVExt bool
	// Futility, when above 0, returns the static evaluation of a non-PV
	// node of depth at most 3 where neither side has a capture, when it
	// beats beta by Futility + 16·depth centipawns (0: off).
	Futility int
}

// withDefaults fills the zero fields of t.
func (t Tuning) withDefaults() Tuning {
	if t.LMRDepth <= 0 {
		t.LMRDepth = 3
	}
	if t.LMRMoves <= 0 {
		t.LMRMoves = 3
	}
	if t.NoThreat {
		t.ThreatPlies = 0
	} else if t.ThreatPlies <= 0 {
		t.ThreatPlies = 1
	}
	if t.NoTrunc {
		t.Trunc = 0
	} else if t.Trunc <= 0 {
		t.Trunc = 100
	}
	if t.TruncStep <= 0 {
		t.TruncStep = 64
	}
	return t
}

// New makes a Searcher with opts (zero fields take DefaultOptions) and the
// evaluator ev (nil: Material).
func New(opts Options, ev EvaluatorFactory) *Searcher {
	s := &Searcher{}
	s.SetEvaluator(ev)
	s.SetOptions(opts)
	return s
}

// SetOptions changes the options between searches. The table is reallocated
// (and so cleared) only if HashMB changed.
func (s *Searcher) SetOptions(opts Options) {
	if opts.HashMB <= 0 {
		opts.HashMB = DefaultOptions.HashMB
	}
	opts.Threads = max(opts.Threads, 1)
	opts.MultiPV = max(opts.MultiPV, 1)
	opts.MoveOverhead = max(opts.MoveOverhead, 0)
	if s.tt == nil {
		s.tt = newTable(opts.HashMB)
	} else if opts.HashMB != s.opts.HashMB {
		s.tt.resize(opts.HashMB)
	}
	if s.rng == nil {
		s.pcg = rand.NewPCG(opts.Seed, rngStream)
		s.rng = rand.New(s.pcg)
	} else if opts.Seed != s.opts.Seed {
		s.pcg.Seed(opts.Seed, rngStream) // in place: a new seed per game costs nothing
	}
	s.opts = opts
	s.tune = opts.Tuning.withDefaults()
	for len(s.workers) < opts.Threads {
		s.workers = append(s.workers, &worker{s: s, id: len(s.workers), ev: s.factory()})
	}
	s.workers = s.workers[:opts.Threads]
}

// rngStream is the second word of the random-tie generator's seed.
const rngStream = 0x6e65636865636221

// Options returns the options in force.
func (s *Searcher) Options() Options { return s.opts }

// SetEvaluator changes the evaluator between searches; nil means Material.
func (s *Searcher) SetEvaluator(ev EvaluatorFactory) {
	if ev == nil {
		ev = func() Evaluator { return Material{} }
	}
	s.factory = ev
	for _, w := range s.workers {
		w.ev = ev()
	}
}

// Clear forgets the previous game: the table, killers and history.
func (s *Searcher) Clear() {
	s.tt.clear()
	for _, w := range s.workers {
		w.clear()
	}
}

// Prepare maps the hash table's memory if a new size left it unmapped. A
// front end calls it when its options are in force and it waits for the
// first search (UCI isready), so that the search does not spend its time on
// it; otherwise the next search maps the table after its clock has started.
func (s *Searcher) Prepare() { s.tt.mapPages() }

// PonderHit turns a Ponder search into a normal one: its time limits count
// from now. It does nothing when no ponder search is running.
func (s *Searcher) PonderHit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ponderHit == nil || !s.pondering.Load() {
		return
	}
	s.clockStart.Store(time.Now().UnixNano())
	s.pondering.Store(false)
	s.hitOnce.Do(func() { close(s.ponderHit) })
}

// Search searches root and returns the best move. history holds the game's
// earlier positions, oldest first and root excluded, so that repetitions of
// them count as draws. progress (may be nil) is called from the search after
// each finished depth and each multi-PV line; it must return quickly. Search
// returns when a limit is reached or ctx is cancelled; an Infinite or Ponder
// search returns only when ctx is cancelled (a Ponder search also follows its
// limits after PonderHit).
func (s *Searcher) Search(ctx context.Context, root engine.Position, history []engine.Position, limits Limits, progress func(Info)) Result {
	s.start = time.Now()
	s.limits = limits
	s.rootSide = root.Side
	s.stop.Store(false)
	s.done = ctx.Done()
	s.mu.Lock()
	if limits.Ponder {
		s.ponderHit = make(chan struct{})
		s.hitOnce = sync.Once{}
	}
	s.pondering.Store(limits.Ponder)
	s.clockStart.Store(s.start.UnixNano())
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.pondering.Store(false)
		s.ponderHit = nil
		s.mu.Unlock()
	}()

	s.tt.newSearch()
	s.rootOutcome = Unknown
	if s.oracle != nil && popcount(root.Pieces[0]|root.Pieces[1]) <= s.oracle.Pieces() {
		s.probeRoot = root
		s.rootOutcome = s.oracle.Probe(&s.probeRoot)
	}
	s.moves = rootMoves(&root, limits.SearchMoves, s.moves[:0])
	moves := s.moves
	s.planTime(len(moves))
	if len(moves) == 0 {
		s.waitForEnd(ctx)
		return Result{Score: LossIn(0), Known: s.rootOutcome}
	}
	for _, w := range s.workers {
		w.newSearch()
		w.setRoot(&root, history, moves)
	}
	for _, w := range s.workers[1:] {
		s.helpers.Add(1)
		go func() {
			defer s.helpers.Done()
			w.iterate(nil)
		}()
	}
	main := s.workers[0]
	main.iterate(progress)
	s.waitForEnd(ctx)
	s.stop.Store(true)
	s.helpers.Wait()
	return s.result(main)
}

// waitForEnd blocks an Infinite search, or a Ponder search before its
// PonderHit, until ctx is cancelled, as the protocol requires: such a search
// only ends on stop.
func (s *Searcher) waitForEnd(ctx context.Context) {
	if s.limits.Infinite {
		<-ctx.Done()
		return
	}
	if s.pondering.Load() {
		select {
		case <-ctx.Done():
		case <-s.ponderHit:
		}
	}
}

// rootMoves appends the legal moves of root to out, restricted to only if
// non-empty. If none of only is legal, the restriction is dropped rather
// than reporting a lost position.
func rootMoves(root *engine.Position, only []engine.Move, out []rootMove) []rootMove {
	var l engine.MoveList
	root.Generate(&l)
	for _, m := range l.Slice() {
		keep := len(only) == 0
		for _, o := range only {
			keep = keep || o == m
		}
		if keep {
			out = append(out, rootMove{move: m, score: -infinity, prevScore: -infinity})
		}
	}
	if len(out) == 0 && len(only) > 0 {
		return rootMoves(root, nil, out)
	}
	return out
}

// result builds the Result from the main thread's root moves.
func (s *Searcher) result(w *worker) Result {
	best := w.root[0]
	if s.opts.RandomTies {
		ties := 1
		for ties < len(w.root) && w.root[ties].exact && w.root[ties].score == best.score {
			ties++
		}
		if best.exact && ties > 1 {
			best = w.root[s.rng.IntN(ties)]
		}
	}
	r := Result{Best: best.move, HasMove: true, Score: best.score, Depth: w.completed, Nodes: s.totalNodes(),
		TBHits: s.totalTBHits(), Known: s.rootOutcome}
	var pv []engine.Move
	if s.opts.SharePV {
		pv = s.pv[:0]
	}
	pv = append(pv, best.pv...)
	if len(pv) == 0 {
		pv = append(pv, best.move)
	}
	if s.opts.SharePV {
		s.pv = pv
	}
	r.PV = pv
	if len(r.PV) > 1 {
		r.Ponder, r.HasPonder = r.PV[1], true
	}
	return r
}

// totalNodes sums the node counts the threads have published.
func (s *Searcher) totalNodes() uint64 {
	var n uint64
	for _, w := range s.workers {
		n += w.shared.Load()
	}
	return n
}

// totalTBHits sums the oracle hits the threads have published.
func (s *Searcher) totalTBHits() uint64 {
	var n uint64
	for _, w := range s.workers {
		n += w.tbShared.Load()
	}
	return n
}
