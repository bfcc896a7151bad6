package search

import (
	"math"
	"math/bits"

	"github.com/nechecb/nechecb/engine"
)

// nodeKind tells apart the three kinds of node that share moveLoop.
type nodeKind uint8

const (
	// fullNode is a node above the horizon (alphaBeta): all its moves, with
	// reductions, killers and history.
	fullNode nodeKind = iota
	// captureNode is a node at or below the horizon whose side to move has a
	// capture (search with depth <= 0): its captures only.
	captureNode
	// threatNode is a quiet horizon node under threat (threat): its quiet
	// moves, each answered by the quiescence search.
	threatNode
)

// search returns the value of stack[ply] searched depth plies deep within
// (alpha, beta). It does what every node does first: it counts the node,
// polls, settles a draw by rule or repetition, and narrows the window to
// the mate distances possible from ply. Above the horizon alphaBeta
// searches on. At and below it (depth <= 0) search goes on while the side
// to move has a capture (quiescence search), so that no leaf is judged in
// the middle of an exchange: unless the side to move has a capture, the
// position is a leaf, judged by the evaluator (or lost, if the side cannot
// step either; or searched by threat, if the opponent has a capture
// pending); otherwise the captures are searched by moveLoop, without
// reductions. The table is left out there: these nodes are many and cheap,
// and a probe is a cache miss.
func (w *worker) search(ply, depth int, alpha, beta Score, pvNode bool) Score {
	w.pvLen[ply] = 0
	w.nodes++
	if w.nodes&pollMask == 0 {
		w.poll()
	}
	if w.stopped {
		return 0
	}
	if ply > w.selDepth {
		w.selDepth = ply
	}
	f := &w.stack[ply]
	pos := &f.pos
	if pos.Reversible >= engine.DrawPlies || f.quiet > w.quietLimit || w.isRepetition(ply) {
		return DrawScore
	}
	// Mate-distance pruning: nothing here can beat a win already in hand.
	alpha = max(alpha, LossIn(ply))
	beta = min(beta, WinIn(ply+1))
	if alpha >= beta {
		return alpha
	}
	if depth > 0 {
		return w.alphaBeta(ply, depth, alpha, beta, pvNode)
	}
	if w.dbPieces > 0 {
		if o := w.probe(ply); o != Unknown {
			// At the horizon a known position is a leaf, whatever the root.
			return w.knownScore(ply, o)
		}
	}
	if pos.GenerateCaptures(&f.moves); f.moves.N == 0 {
		if !canStep(pos) {
			return LossIn(ply)
		}
		if f.threats < w.s.tune.ThreatPlies && ply < MaxPly-1 && opponentCaptures(pos) {
			return w.threat(ply, alpha, beta, pvNode)
		}
		return w.judge(pos)
	}
	if ply >= MaxPly {
		return w.evaluate(ply)
	}
	w.stack[ply+1].threats = f.threats
	best, _ := w.moveLoop(captureNode, ply, 0, alpha, beta, pvNode, noMove)
	return best
}

// alphaBeta is search above the horizon (depth >= 1), after what search
// does first: fail-soft negamax with principal-variation search (moveLoop),
// the table, killers and history, and late-move reductions.
func (w *worker) alphaBeta(ply, depth int, alpha, beta Score, pvNode bool) Score {
	if ply >= MaxPly {
		return w.evaluate(ply)
	}
	if w.dbPieces > 0 {
		if o := w.probe(ply); w.cutByOracle(ply, o) {
			return w.knownScore(ply, o)
		}
	}
	f := &w.stack[ply]
	pos := &f.pos
	hashMove := uint8(noMove)
	if d, ok := w.s.tt.probe(pos.Hash ^ w.ttSalt); ok {
		hashMove = d.move
		if !pvNode && d.depth >= depth {
			score := fromTable(d.score, ply)
			switch {
			case d.bound == boundExact,
				d.bound == boundLower && score >= beta,
				d.bound == boundUpper && score <= alpha:
				return score
			}
		}
	}
	// Generate, one call level down.
	if pos.GenerateCaptures(&f.moves); f.moves.N == 0 {
		pos.GenerateQuiet(&f.moves)
		if t := &w.s.tune; (t.Trunc > 0 || t.Futility > 0) && !pvNode && f.moves.N > 0 && !opponentCaptures(pos) {
			var cut bool
			if depth, cut = w.selective(ply, depth, alpha, beta); cut {
				return w.evaluate(ply)
			}
		}
	}
	if f.moves.N == 0 {
		return LossIn(ply)
	}
	w.stack[ply+1].threats = 0
	best, bestIdx := w.moveLoop(fullNode, ply, depth, alpha, beta, pvNode, hashMove)
	if w.stopped {
		return 0
	}
	b := boundUpper
	switch {
	case best >= beta:
		b = boundLower
	case best > alpha:
		b = boundExact
	}
	w.s.tt.store(pos.Hash^w.ttSalt, ttData{score: toTable(best, ply), depth: depth, move: bestIdx, bound: b})
	return best
}

// threat searches the quiet moves of stack[ply], a horizon position whose
// side to move has no capture while the opponent has one pending: the
// evaluation cannot see whether the opponent's shot can be met, and the
// side to move may not pass. Each move's reply is resolved by the
// quiescence search (search at depth 0). The moves are not stored in the
// table and repetitions are not looked for.
func (w *worker) threat(ply int, alpha, beta Score, pvNode bool) Score {
	f := &w.stack[ply]
	f.pos.GenerateQuiet(&f.moves) // at least one: the caller checked canStep
	w.stack[ply+1].threats = f.threats + 1
	best, _ := w.moveLoop(threatNode, ply, 0, alpha, beta, pvNode, noMove)
	return best
}

// moveLoop searches the generated moves of stack[ply], a node of kind kind
// and depth depth (0 at and below the horizon), within (alpha, beta) by
// principal-variation search: the first move with the whole window, each
// later one with a null window at alpha, and again with the whole window
// when it beats alpha at a PV node. The hash move (an index into the list,
// or noMove) goes first, before the others are even ordered: it often cuts
// off alone. The rest are sorted by orderMoves' keys when the second move
// is due (insertion sort: measured no slower than picking the best one
// each time). A late quiet man's move is searched shallower first (see
// reduction), unless it crowns or offers the opponent a capture (an
// exchange or a shot); king moves are not reduced, since that hides the
// slow wins of king endings. A quiet move that cuts off at a full node is
// rewarded (rewardQuiet). It returns the best score (fail-soft; 0 once the
// search has stopped) and the index of the move that raised alpha last
// (noMove if none did).
func (w *worker) moveLoop(kind nodeKind, ply, depth int, alpha, beta Score, pvNode bool, hashMove uint8) (Score, uint8) {
	f, child := &w.stack[ply], &w.stack[ply+1]
	pos := &f.pos
	n := f.moves.N
	first, hashFirst := hashMove, int(hashMove) < n
	if !hashFirst {
		first = 0 // a single move
		if n > 1 {
			w.orderMoves(ply, noMove)
			first = uint8(f.order[0])
		}
	}
	newDepth := depth - 1 // below 0 under the horizon: search goes on with captures
	extendable := kind == fullNode && ply < 2*w.depth
	half := f.half // what the children owe
	if extendable {
		newDepth, half = w.extend(f, depth, n, pvNode)
	}
	best, bestIdx := -infinity, uint8(noMove)
	for i := 0; i < n; i++ {
		idx := first
		if i > 0 {
			if i == 1 {
				if hashFirst {
					w.orderMoves(ply, hashMove) // keeps the hash move in slot 0
				}
				sortDown(f.order[1:n])
			}
			idx = uint8(f.order[i])
		}
		m := &f.moves.Moves[idx]
		pos.PlayInto(&child.pos, m)
		w.keys[w.base+ply+1] = child.pos.Hash
		kingStep := m.Jumps == 0 && pos.Kings>>(m.From&63)&1 != 0
		if kind == fullNode && w.prunes(depth, i, pvNode) && best > LossIn(MaxPly) && lateQuiet(m, kingStep, &child.pos) {
			continue
		}
		child.inherit(f, m, kingStep && kind == fullNode)
		child.half = half
		d := newDepth
		if extendable && d < depth && w.crownExtends(m, kingStep, pos.Side) {
			d = depth
		}
		var score Score
		if i == 0 {
			score = -w.search(ply+1, d, -beta, -alpha, pvNode)
		} else {
			score = alpha + 1 // no reduction: go straight to the full depth
			if r := w.lateReduction(ply, depth, d, i, pvNode, m, kingStep); r > 0 {
				score = -w.search(ply+1, d-r, -alpha-1, -alpha, false)
			}
			if score > alpha {
				score = -w.search(ply+1, d, -alpha-1, -alpha, false)
			}
			if score > alpha && score < beta && pvNode {
				score = -w.search(ply+1, d, -beta, -alpha, true)
			}
		}
		if w.stopped {
			return 0, noMove
		}
		if score > best {
			best = score
			if score > alpha {
				bestIdx, alpha = idx, score
				if pvNode {
					w.updatePV(ply, *m)
				}
				if score >= beta {
					if kind == fullNode && m.Jumps == 0 {
						w.rewardQuiet(ply, depth, i, idx)
					}
					break
				}
			}
		}
	}
	return best, bestIdx
}

// extend returns the depth the children of f, an extendable full node of
// depth depth with n moves, are searched to, and whether they owe half a
// ply: Tuning.SingleReply searches a single reply a ply deeper, and a PV
// node owes half a ply (unless Tuning.NoPVExt), every second one on a path
// a whole ply.
func (w *worker) extend(f *frame, depth, n int, pvNode bool) (int, bool) {
	t := &w.s.tune
	newDepth, half := depth-1, f.half
	if n == 1 && t.SingleReply {
		newDepth = depth // a forced move costs no depth
	}
	if pvNode && !t.NoPVExt {
		if half = !half; !half && newDepth < depth {
			newDepth = depth // the second half ply on the path
		}
	}
	return newDepth, half
}

// inherit sets the counters that f's child (the receiver) carries along the
// path after m: the repetition count (kept only through a king's step at a
// full node, kingReps; after a capture nothing earlier can repeat, and
// threat looks for no repetition), the plies since the last capture or
// crowning, and the truncation the path owes.
func (child *frame) inherit(f *frame, m *engine.Move, kingReps bool) {
	child.reps = 0
	if kingReps {
		child.reps = f.reps + 1
	}
	child.quiet = f.quiet + 1
	if m.Jumps > 0 || m.Crowns {
		child.quiet = 0
	}
	child.trunc = f.trunc
}

// lateQuiet reports whether m, played into child, is a man's plain step
// that neither crowns nor offers the opponent a capture: the only kind of
// late move that pruning or reductions touch. The capture test comes last,
// as it is the costly one.
func lateQuiet(m *engine.Move, kingStep bool, child *engine.Position) bool {
	return m.Jumps == 0 && !m.Crowns && !kingStep && !child.HasCapture()
}

// lateReduction returns how many plies shorter the first, null-window
// search of m is: m, played from stack[ply] (a node of depth depth) into
// stack[ply+1], sits in order slot i and is due d plies. Only a late quiet
// move that is not extended is reduced (see lateQuiet; with
// Tuning.KingLMR a king's step too, off the PV), by reduction's plies, and
// with Tuning.HistLMR by one more off the PV when its history is negative.
func (w *worker) lateReduction(ply, depth, d, i int, pvNode bool, m *engine.Move, kingStep bool) int {
	t := &w.s.tune
	r := w.reduction(depth, i, pvNode)
	if r == 0 || d == depth || !lateQuiet(m, kingStep && (pvNode || !t.KingLMR), &w.stack[ply+1].pos) {
		return 0
	}
	if t.HistLMR && !pvNode && r < depth-1 && w.history[w.stack[ply].pos.Side&1][m.From&63][m.To&63] < 0 {
		r++
	}
	return r
}

// crownExtends reports whether Tuning.Crown extends m, a move of side:
// one that crowns, or with Crown 2 also a man's step onto the row before
// side's crowning row.
func (w *worker) crownExtends(m *engine.Move, kingStep bool, side engine.Color) bool {
	switch c := w.s.tune.Crown; {
	case c <= 0:
		return false
	case m.Crowns:
		return true
	default:
		return c >= 2 && m.Jumps == 0 && !kingStep && preCrownRow[side&1]>>(m.To&63)&1 != 0
	}
}

// preCrownRow holds, by colour, the row before the colour's crowning row:
// squares 25-28 for Black, 5-8 for White.
var preCrownRow = [2]uint64{
	engine.SquareBit(25) | engine.SquareBit(26) | engine.SquareBit(27) | engine.SquareBit(28),
	engine.SquareBit(5) | engine.SquareBit(6) | engine.SquareBit(7) | engine.SquareBit(8),
}

// opponentCaptures reports whether the side not to move in p has a capture
// on the board as it stands.
func opponentCaptures(p *engine.Position) bool {
	q := *p
	q.Side ^= 1
	return q.HasCapture()
}

// reduction returns how many plies to take off the search of the move in
// order slot i at a node of depth depth. Nodes of depth 1 and below are
// never reduced: their children are at the horizon already.
func (w *worker) reduction(depth, i int, pvNode bool) int {
	t := &w.s.tune
	if t.NoLMR || depth < 2 || depth < t.LMRDepth || i < t.LMRMoves {
		return 0
	}
	if t.LMRLog > 0 {
		r := int(0.5 + lmrLog[min(depth, 63)]*lmrLog[min(i, 63)]*10/float64(t.LMRLog))
		if pvNode {
			r--
		}
		return min(max(r, 1), depth-1)
	}
	if !pvNode && depth >= 6 && i >= 2*t.LMRMoves {
		return 2
	}
	return 1
}

// lmrLog holds the natural logarithms of 0..63 (lmrLog[0] = 0).
var lmrLog = func() (l [64]float64) {
	for i := 1; i < len(l); i++ {
		l[i] = math.Log(float64(i))
	}
	return l
}()

// prunes reports whether late-move pruning skips the quiet move in order
// slot i of a node of depth depth (Tuning.LMP).
func (w *worker) prunes(depth, i int, pvNode bool) bool {
	t := &w.s.tune
	return t.LMP > 0 && !pvNode && depth <= 3 && i >= t.LMP*depth
}

// selective applies Tuning.Futility and Tuning.Trunc to a quiet non-PV
// node of depth depth at ply: it reports cut when the node's static
// evaluation may stand for it, or else returns the depth to search it to.
func (w *worker) selective(ply, depth int, alpha, beta Score) (int, bool) {
	t, f := &w.s.tune, &w.stack[ply]
	e := w.evaluate(ply)
	if t.Futility > 0 && depth <= 3 && e-Score(t.Futility+16*depth) >= beta && !beta.IsWin() {
		return depth, true
	}
	if t.Trunc == 0 || max(-alpha, beta) >= truncBound || w.dbPieces >= popcount(f.pos.Pieces[0]|f.pos.Pieces[1]) {
		// Not where the window is about a won or known ending, nor in the
		// endgame database's range: there the depth finds the way.
		return depth, false
	}
	dist := int(max(alpha-e, e-beta))
	if dist <= t.Trunc {
		depth += f.trunc // back within the window: the path's plies return
		f.trunc = 0
		return depth, false
	}
	r := min(dist/t.TruncStep, 3, depth-1)
	f.trunc += r
	return depth - r, false
}

// truncBound is the least window bound at which truncation stops: beyond
// it the window is about forced or database wins, not the evaluation.
const truncBound = KnownWinScore - knownSpread

// updatePV makes m followed by the child's line the line of ply.
func (w *worker) updatePV(ply int, m engine.Move) {
	w.pv[ply][0] = m
	n := copy(w.pv[ply][1:], w.pv[ply+1][:w.pvLen[ply+1]])
	w.pvLen[ply] = n + 1
}

// canStep reports whether the side to move in p has a quiet move (a step
// to an adjacent empty square); with no capture either, it has lost.
func canStep(p *engine.Position) bool {
	us := p.Side
	own, empty := p.Pieces[us], p.EmptySquares()
	kings := own & p.Kings
	if us == engine.White {
		own, kings = kings, own // White's men step toward lower squares
	}
	return (own<<4|own<<5|kings>>4|kings>>5)&empty != 0
}

func popcount(b uint64) int { return bits.OnesCount64(b) }
