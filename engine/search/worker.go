package search

import (
	"math"
	"math/bits"
	"sync/atomic"

	"github.com/nechecb/nechecb/engine"
)

// pollMask sets how often a thread looks at the clock and the stop flag:
// every pollMask+1 nodes.
const pollMask = 255

// maxHistory bounds the game positions kept for repetition checks; only the
// positions since the last irreversible move matter, and the 40-move rule
// ends a game long before this many reversible plies.
const maxHistory = 256

// frame is the search state of one ply: the position, its moves and their
// ordering scores.
type frame struct {
	pos   engine.Position
	moves engine.MoveList
	// order[slot] is a move's ordering score shifted left 8 bits above
	// its index in moves.
	order [engine.MaxMoves]int64
	reps  int // how many earlier path entries may repeat this position
	// quiet counts the plies since the last capture or promotion, for
	// Options.QuietDraw.
	quiet int
	// threats counts the threat searches (see threat) on the path below
	// the horizon to this position.
	threats int
	// trunc is how many plies eval-distance truncation (Tuning.Trunc) has
	// taken off the path to this position and not given back yet.
	trunc int
	// half is set when the path to this position owes half a ply of
	// extension (the PV extension, Tuning.NoPVExt).
	half   bool
	killer [2]engine.Move
}

// worker is one search thread. It owns its stack, killers, history and
// evaluator; only the table and the stop flag are shared.
type worker struct {
	s     *Searcher
	id    int
	pause yielder // js/wasm only: the thread's pauses for the browser
	ev    Evaluator
	stack [MaxPly + 1]frame
	// keys holds the hashes of the game history followed by the search path;
	// keys[base+ply] is the key of stack[ply] (except after a capture below
	// the horizon, where no repetition check reaches).
	keys [maxHistory + MaxPly + 1]uint64
	base int
	// history[side][from][to] scores quiet moves by the cutoffs they made
	// (bit indexes, 64 wide so that a masked index needs no bounds check).
	history [2][64][64]int32
	// historySet marks the history entries that may be nonzero (word
	// side<<6|from, bit to), so that newSearch halves only those: a game
	// reaches a few hundred of the 8192.
	historySet [2 * 64 * 64 / 64]uint64
	pv         [MaxPly + 1][MaxPly + 1]engine.Move
	pvLen      [MaxPly + 1]int
	nodes      uint64 // nodes searched in this search
	reported   uint64 // part of nodes already added to shared
	shared     atomic.Uint64
	// tbHits counts the probes the oracle answered; tbReported and
	// tbShared publish them like the nodes.
	tbHits, tbReported uint64
	tbShared           atomic.Uint64
	// dbPieces is the oracle's piece count for this search (0: no oracle).
	dbPieces int
	selDepth int
	stopped  bool
	// quietLimit is Options.QuietDraw, or no limit when that is 0.
	quietLimit int
	root       []rootMove
	// rootView says this search judges leaves from rootSide's view (see
	// RootViewer); view is the scratch copy it judges, and ttSalt tells its
	// table entries apart from those of the other view.
	rootView bool
	rootSide engine.Color
	view     engine.Position
	ttSalt   uint64
	// completed is the last depth this thread finished.
	completed int
	// depth is the depth of the iteration under way.
	depth int
}

// rootMove is a move at the root with its latest score and line.
type rootMove struct {
	move      engine.Move
	score     Score
	prevScore Score
	exact     bool
	pv        []engine.Move
}

// poll runs every pollMask+1 nodes: it publishes the node count and checks
// whether the search must stop.
func (w *worker) poll() {
	w.pause.yield()
	w.publishNodes()
	if w.id == 0 {
		w.s.checkLimits()
	}
	// The first iteration always finishes (it takes microseconds), so
	// that even an instant stop answers with a searched move and score.
	if w.s.stop.Load() && w.completed > 0 {
		w.stopped = true
	}
}

// publishNodes adds the nodes searched since the last call to the count
// other threads can read.
func (w *worker) publishNodes() {
	w.shared.Add(w.nodes - w.reported)
	w.reported = w.nodes
	w.tbShared.Add(w.tbHits - w.tbReported)
	w.tbReported = w.tbHits
}

// isRepetition reports whether stack[ply] repeats an earlier position of the
// path or the game.
func (w *worker) isRepetition(ply int) bool {
	reps := w.stack[ply].reps
	if reps < 2 { // the position two plies back is the nearest that can repeat
		return false
	}
	i := w.base + ply
	key := w.keys[i]
	for j := i - 2; j >= i-reps; j -= 2 {
		if w.keys[j] == key {
			return true
		}
	}
	return false
}

// evaluate returns the evaluator's score of stack[ply].
func (w *worker) evaluate(ply int) Score { return w.judge(&w.stack[ply].pos) }

// judge returns the evaluator's score of p for the side to move: asked of
// the side to move, or of the root player and negated when the opponent is
// to move (RootViewer).
func (w *worker) judge(p *engine.Position) Score {
	if !w.rootView || p.Side == w.rootSide {
		return Score(w.ev.Evaluate(p))
	}
	w.view = *p
	w.view.Side = w.rootSide
	return -Score(w.ev.Evaluate(&w.view))
}

// rootViewSalt is xored into the table keys of a root-view search, by
// root side, so that its values never meet those of another view.
var rootViewSalt = [2]uint64{0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f}

// newSearch resets the killers and node counts and halves the history for
// a new search.
func (w *worker) newSearch() {
	// Killers are only ever set at plies the search reached, which
	// selDepth bounds: the frames beyond it are still clear.
	for i := range min(w.selDepth+2, len(w.stack)) {
		w.stack[i].killer = [2]engine.Move{}
	}
	for i, word := range w.historySet {
		for rest := word; rest != 0; rest &= rest - 1 {
			t := bits.TrailingZeros64(rest)
			h := &w.history[i>>6][i&63][t]
			if *h /= 2; *h == 0 {
				w.historySet[i] &^= 1 << t
			}
		}
	}
	w.nodes, w.reported, w.selDepth, w.stopped = 0, 0, 0, false
	w.shared.Store(0)
	w.tbHits, w.tbReported = 0, 0
	w.tbShared.Store(0)
	w.dbPieces = 0
	if w.s.oracle != nil {
		w.dbPieces = w.s.oracle.Pieces()
	}
	w.quietLimit = math.MaxInt
	if q := w.s.opts.QuietDraw; q > 0 {
		w.quietLimit = q
	}
}

// clear forgets everything learnt in earlier games.
func (w *worker) clear() {
	w.newSearch()
	w.history = [2][64][64]int32{}
	w.historySet = [len(w.historySet)]uint64{}
}
