package search

import (
	"time"

	"github.com/nechecb/nechecb/engine"
)

// aspirationDelta is the first half-width of the aspiration window.
const aspirationDelta = 25

// setRoot prepares w to search root after the game positions history.
func (w *worker) setRoot(root *engine.Position, history []engine.Position, moves []rootMove) {
	if len(history) > maxHistory {
		history = history[len(history)-maxHistory:]
	}
	for i := range history {
		w.keys[i] = history[i].Hash
	}
	w.base = len(history)
	w.keys[w.base] = root.Hash
	w.stack[0].pos = *root
	rv, ok := w.ev.(RootViewer)
	w.rootView, w.rootSide, w.ttSalt = ok && rv.RootView() && !w.s.opts.MoverView, root.Side, 0
	if w.rootView {
		w.ttSalt = rootViewSalt[root.Side&1]
	}
	// Count the game plies before the root made by reversible moves (king
	// steps): only positions reached that way can repeat.
	reps, next := 0, root
	for i := len(history) - 1; i >= 0 && reversibleStep(&history[i], next); i-- {
		reps++
		next = &history[i]
	}
	w.stack[0].reps = reps
	quiet, next := 0, root
	for i := len(history) - 1; i >= 0 && quietStep(&history[i], next); i-- {
		quiet++
		next = &history[i]
	}
	w.stack[0].quiet = quiet
	// Reuse the lines' storage of the previous search. When the root has
	// more moves than ever before, the list grows to at least double, each
	// entry with room for any line, so that searches soon stop allocating.
	if cap(w.root) < len(moves) {
		n := max(len(moves), 2*cap(w.root), 32)
		grown := make([]rootMove, n)
		copy(grown, w.root[:cap(w.root)])
		block := make([]engine.Move, n*(MaxPly+1))
		for i := range grown {
			if cap(grown[i].pv) < MaxPly+1 {
				grown[i].pv = block[i*(MaxPly+1) : i*(MaxPly+1) : (i+1)*(MaxPly+1)]
			}
		}
		w.root = grown
	}
	w.root = w.root[:len(moves)]
	for i := range moves {
		pv := w.root[i].pv[:0]
		w.root[i] = moves[i]
		w.root[i].pv = pv
	}
	w.completed = 0
}

// reversibleStep reports whether b can follow a by a king's quiet move: the
// men stand still and nothing was captured.
func reversibleStep(a, b *engine.Position) bool {
	return a.Men(engine.Black) == b.Men(engine.Black) && a.Men(engine.White) == b.Men(engine.White) &&
		popcount(a.Kings) == popcount(b.Kings) && a.Side != b.Side
}

// quietStep reports whether b can follow a by a move that neither captures
// nor promotes: the number of pieces and of kings stay the same.
func quietStep(a, b *engine.Position) bool {
	return popcount(a.Occupied()) == popcount(b.Occupied()) && popcount(a.Kings) == popcount(b.Kings)
}

// iterate runs iterative deepening on the root until a limit or the stop
// flag. The main thread (progress may be nil) reports each finished depth;
// helper threads search the same tree, odd ones one ply deeper, to fill the
// shared table.
func (w *worker) iterate(progress func(Info)) {
	defer w.publishNodes()
	s := w.s
	maxDepth := MaxPly - 16
	if s.limits.Depth > 0 {
		maxDepth = min(maxDepth, s.limits.Depth)
	}
	lines := min(s.opts.MultiPV, len(w.root))
	for depth := 1; depth <= maxDepth; depth++ {
		d := depth
		if w.id > 0 {
			d = min(depth+w.id&1, maxDepth)
		}
		for i := range w.root {
			w.root[i].prevScore = w.root[i].score
		}
		for line := 0; line < lines && !w.stopped; line++ {
			w.aspiration(d, line)
			if !w.stopped && progress != nil {
				progress(w.info(d, line))
			}
		}
		if w.stopped {
			return
		}
		w.completed = d
		if s.stop.Load() {
			return
		}
		if w.id == 0 && s.iterationsDone(d, w.root[0].score) {
			return
		}
	}
}

// aspiration searches root line line to depth inside a window around its
// previous score, widening the window until the score falls inside it.
func (w *worker) aspiration(depth, line int) {
	w.depth = depth
	alpha, beta := -infinity, infinity
	delta := Score(aspirationDelta)
	prev := w.root[line].prevScore
	if depth >= 4 && prev > -winBound && prev < winBound {
		alpha, beta = prev-delta, prev+delta
	}
	for {
		score := w.rootSearch(depth, line, alpha, beta)
		if w.stopped {
			return
		}
		switch {
		case score <= alpha:
			beta = (alpha + beta) / 2
			alpha = max(score-delta, -infinity)
		case score >= beta:
			beta = min(score+delta, infinity)
		default:
			return
		}
		delta += delta / 2
		if delta > 500 {
			alpha, beta = -infinity, infinity
		}
	}
}

// rootSearch searches the root moves from index line on within (alpha,
// beta), records each move's score and line, and sorts the searched moves
// best first. With RandomTies it also proves which moves tie with the best.
func (w *worker) rootSearch(depth, line int, alpha, beta Score) Score {
	s := w.s
	root := &w.stack[0]
	child := &w.stack[1]
	best := -infinity
	searched := line
	w.pvLen[0] = 0
	for i := line; i < len(w.root); i++ {
		rm := &w.root[i]
		child.pos = root.pos.Play(rm.move)
		w.keys[w.base+1] = child.pos.Hash
		child.reps, child.threats, child.trunc, child.half = 0, 0, 0, false
		if rm.move.Jumps == 0 && root.pos.Kings&(1<<rm.move.From) != 0 {
			child.reps = root.reps + 1
		}
		child.quiet = root.quiet + 1
		if rm.move.Jumps > 0 || rm.move.Crowns {
			child.quiet = 0
		}
		var score Score
		exact := false
		switch {
		case i == line:
			score = -w.search(1, depth-1, -beta, -alpha, true)
			exact = score > alpha && score < beta
		case s.opts.RandomTies:
			// A null window just below alpha tells ties from worse moves.
			score = -w.search(1, depth-1, -alpha, -alpha+1, false)
			if score >= alpha && !w.stopped {
				score = -w.search(1, depth-1, -beta, -alpha+1, true)
				exact = score >= alpha && score < beta
			}
		default:
			score = -w.search(1, depth-1, -alpha-1, -alpha, false)
			if score > alpha && score < beta && !w.stopped {
				score = -w.search(1, depth-1, -beta, -alpha, true)
			}
			exact = score > alpha && score < beta
		}
		if w.stopped {
			break
		}
		searched = i + 1
		best = max(best, score)
		switch {
		case i == line || score > alpha:
			rm.score, rm.exact = score, exact
			rm.pv = append(append(rm.pv[:0], rm.move), w.pv[1][:w.pvLen[1]]...)
			alpha = max(alpha, score)
		case exact && score == alpha:
			rm.score, rm.exact = score, true
			rm.pv = append(append(rm.pv[:0], rm.move), w.pv[1][:w.pvLen[1]]...)
		default:
			rm.score, rm.exact = -infinity, false
		}
		if score >= beta {
			break
		}
	}
	sortRoot(w.root[line:searched])
	return best
}

// sortRoot sorts root moves by score, best first, keeping the order of
// equal scores (insertion sort: the lists are short and it does not
// allocate).
func sortRoot(rm []rootMove) {
	for i := 1; i < len(rm); i++ {
		for j := i; j > 0 && rm[j].score > rm[j-1].score; j-- {
			rm[j], rm[j-1] = rm[j-1], rm[j]
		}
	}
}

// info describes the main thread's line line after depth.
func (w *worker) info(depth, line int) Info {
	s := w.s
	elapsed := time.Since(s.start)
	w.publishNodes()
	nodes := s.totalNodes()
	rm := &w.root[line]
	return Info{
		Depth: depth, SelDepth: w.selDepth, MultiPV: line + 1, Score: rm.score,
		Nodes: nodes, NPS: engine.PerSecond(nodes, elapsed), Time: elapsed,
		HashFull: s.tt.hashFull(), TBHits: s.totalTBHits(), PV: append([]engine.Move(nil), rm.pv...),
	}
}
