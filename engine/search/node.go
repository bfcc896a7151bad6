package search

import (
	"math/bits"

	"github.com/nechecb/nechecb/engine"
)

// Move-ordering scores: the hash move, then captures by size, then the two
// killers, then quiet moves by history.
const (
	orderHash    = 1 << 30
	orderCapture = 1 << 26
	orderKiller1 = 1 << 25
	orderKiller2 = 1<<25 - 1
	historyMax   = 1 << 20
)

// search returns the value of stack[ply] searched depth plies deep within
// (alpha, beta): by alphaBeta above the horizon and by quiesce, which
// searches on while the side to move has a capture, at the horizon
// (depth <= 0), so that no leaf is judged in the middle of an exchange.
func (w *worker) search(ply, depth int, alpha, beta Score, pvNode bool) Score {
	if depth <= 0 {
		return w.quiesce(ply, alpha, beta, pvNode)
	}
	return w.alphaBeta(ply, depth, alpha, beta, pvNode)
}

// alphaBeta is search above the horizon (depth >= 1): fail-soft negamax
// with principal-variation search, the table, killers and history, and
// late-move reductions.
func (w *worker) alphaBeta(ply, depth int, alpha, beta Score, pvNode bool) Score {
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
	if ply >= MaxPly {
		return w.evaluate(ply)
	}
	if w.dbPieces > 0 {
		if o := w.probe(ply); w.cutByOracle(ply, o) {
			return w.knownScore(ply, o)
		}
	}

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
	}
	n := f.moves.N
	if n == 0 {
		return LossIn(ply)
	}
	// The hash move, when there is one, is tried before the others are
	// even scored: it often cuts off alone.
	first := hashMove
	hashFirst := int(hashMove) < n
	if !hashFirst {
		first = 0 // a single move
		if n > 1 {
			w.orderMoves(ply, noMove)
			first = uint8(f.order[0])
		}
	}

	alpha0 := alpha
	best := -infinity
	bestIdx := uint8(noMove)
	child := &w.stack[ply+1]
	child.threats = 0
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
		if m.Jumps == 0 && pos.Kings>>(m.From&63)&1 != 0 {
			child.reps = f.reps + 1
		} else {
			child.reps = 0
		}
		child.quiet = f.quiet + 1
		if m.Jumps > 0 || m.Crowns {
			child.quiet = 0
		}
		newDepth := depth - 1
		if n == 1 && w.s.tune.SingleReply && ply < 2*w.depth {
			newDepth = depth // a forced move costs no depth
		}
		var score Score
		switch {
		case newDepth == 0 && i == 0:
			// The children of the last ply are searched by quiesce directly.
			score = -w.quiesce(ply+1, -beta, -alpha, pvNode)
		case newDepth == 0:
			score = -w.quiesce(ply+1, -alpha-1, -alpha, false)
			if score > alpha && score < beta && pvNode {
				score = -w.quiesce(ply+1, -beta, -alpha, true)
			}
		case i == 0:
			score = -w.alphaBeta(ply+1, newDepth, -beta, -alpha, pvNode)
		default:
			// Late quiet men's moves are searched shallower first, unless
			// they crown or offer the opponent a capture (an exchange or a
			// shot). King moves are not reduced: reducing them hides the
			// slow wins of king endings.
			if r := w.reduction(depth, i, pvNode); r > 0 && m.Jumps == 0 && !m.Crowns && pos.Kings>>(m.From&63)&1 == 0 && !child.pos.HasCapture() {
				score = -w.search(ply+1, newDepth-r, -alpha-1, -alpha, false)
			} else {
				score = alpha + 1 // no reduction: go straight to the full depth
			}
			if score > alpha {
				score = -w.alphaBeta(ply+1, newDepth, -alpha-1, -alpha, false)
			}
			if score > alpha && score < beta && pvNode {
				score = -w.alphaBeta(ply+1, newDepth, -beta, -alpha, true)
			}
		}
		if w.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				bestIdx = idx
				alpha = score
				if pvNode {
					w.updatePV(ply, *m)
				}
				if score >= beta {
					if m.Jumps == 0 {
						w.rewardQuiet(ply, depth, i, idx)
					}
					break
				}
			}
		}
	}
	b := boundUpper
	switch {
	case best >= beta:
		b = boundLower
	case best > alpha0:
		b = boundExact
	}
	w.s.tt.store(pos.Hash^w.ttSalt, ttData{score: toTable(best, ply), depth: depth, move: bestIdx, bound: b})
	return best
}

// quiesce is search at and below the horizon: it returns the value of
// stack[ply] within (alpha, beta). Unless the side to move has a capture,
// the position is a leaf, judged by the evaluator (or lost, if the side
// cannot step either); otherwise the captures are searched (principal
// variation search, no reductions). The table is left out: these nodes are
// many and cheap, and a probe is a cache miss.
func (w *worker) quiesce(ply int, alpha, beta Score, pvNode bool) Score {
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
	alpha = max(alpha, LossIn(ply))
	beta = min(beta, WinIn(ply+1))
	if alpha >= beta {
		return alpha
	}
	if w.dbPieces > 0 {
		if o := w.probe(ply); o != Unknown {
			// At the horizon a known position is a leaf, whatever the root.
			return w.knownScore(ply, o)
		}
	}
	pos.GenerateCaptures(&f.moves)
	n := f.moves.N
	if n == 0 {
		// A quiet horizon node: a loss if the side to move cannot step
		// either, else the evaluation.
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
	if n > 1 {
		w.orderMoves(ply, noMove)
	}
	best := -infinity
	child := &w.stack[ply+1]
	child.reps = 0 // after a capture nothing earlier can repeat
	child.quiet = 0
	child.threats = f.threats
	for i := 0; i < n; i++ {
		idx := uint8(0)
		if i > 0 {
			idx = w.pickMove(ply, i)
		} else if n > 1 {
			idx = uint8(f.order[0])
		}
		m := &f.moves.Moves[idx]
		// The child's key is not stored: no repetition check reaches back
		// across a capture.
		pos.PlayInto(&child.pos, m)
		var score Score
		if i == 0 {
			score = -w.quiesce(ply+1, -beta, -alpha, pvNode)
		} else {
			score = -w.quiesce(ply+1, -alpha-1, -alpha, false)
			if score > alpha && score < beta && pvNode {
				score = -w.quiesce(ply+1, -beta, -alpha, true)
			}
		}
		if w.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if pvNode {
					w.updatePV(ply, *m)
				}
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// threat searches the quiet moves of stack[ply], a horizon position whose
// side to move has no capture while the opponent has one pending: the
// evaluation cannot see whether the opponent's shot can be met, and the
// side to move may not pass. Each move's reply is resolved by quiesce. The
// moves are not stored in the table and repetitions are not looked for.
func (w *worker) threat(ply int, alpha, beta Score, pvNode bool) Score {
	f := &w.stack[ply]
	pos := &f.pos
	pos.GenerateQuiet(&f.moves)
	n := f.moves.N // at least 1: the caller checked canStep
	if n > 1 {
		w.orderMoves(ply, noMove)
	}
	best := -infinity
	child := &w.stack[ply+1]
	child.reps = 0
	child.threats = f.threats + 1
	for i := 0; i < n; i++ {
		idx := uint8(0)
		if i > 0 {
			idx = w.pickMove(ply, i)
		} else if n > 1 {
			idx = uint8(f.order[0])
		}
		m := &f.moves.Moves[idx]
		pos.PlayInto(&child.pos, m)
		child.quiet = f.quiet + 1
		if m.Crowns {
			child.quiet = 0
		}
		var score Score
		if i == 0 {
			score = -w.quiesce(ply+1, -beta, -alpha, pvNode)
		} else {
			score = -w.quiesce(ply+1, -alpha-1, -alpha, false)
			if score > alpha && score < beta && pvNode {
				score = -w.quiesce(ply+1, -beta, -alpha, true)
			}
		}
		if w.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if pvNode {
					w.updatePV(ply, *m)
				}
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// opponentCaptures reports whether the side not to move in p has a capture
// on the board as it stands.
func opponentCaptures(p *engine.Position) bool {
	q := *p
	q.Side ^= 1
	return q.HasCapture()
}

// reduction returns how many plies to take off the search of the move in
// order slot i at a node of depth depth.
func (w *worker) reduction(depth, i int, pvNode bool) int {
	t := &w.s.tune
	if t.NoLMR || depth < t.LMRDepth || i < t.LMRMoves {
		return 0
	}
	if !pvNode && depth >= 6 && i >= 2*t.LMRMoves {
		return 2
	}
	return 1
}

// updatePV makes m followed by the child's line the line of ply.
func (w *worker) updatePV(ply int, m engine.Move) {
	w.pv[ply][0] = m
	n := copy(w.pv[ply][1:], w.pv[ply+1][:w.pvLen[ply+1]])
	w.pvLen[ply] = n + 1
}

// orderMoves scores the moves of stack[ply] for pickMove and brings the
// best-scored one to slot 0 (the hash move, if hashMove is one's index).
// Each key holds the ordering score above the move's index in the list, so
// that picking compares and swaps one word. A list holds only captures or
// only quiet moves, so each kind has its own loop.
func (w *worker) orderMoves(ply int, hashMove uint8) {
	f := &w.stack[ply]
	n := f.moves.N
	moves, order := f.moves.Moves[:n], f.order[:n]
	best, bestKey := 0, int64(-1)<<62
	if moves[0].Jumps > 0 {
		kings := f.pos.Kings
		for i := range moves {
			m := &moves[i]
			o := orderCapture + int64(m.Jumps)<<8 + int64(popcount(m.Captured&kings))
			key := o<<8 | int64(i)
			order[i] = key
			if key > bestKey {
				best, bestKey = i, key
			}
		}
	} else {
		hist := &w.history[f.pos.Side&1]
		k0, k1 := squarePair(&f.killer[0]), squarePair(&f.killer[1])
		for i := range moves {
			m := &moves[i]
			var o int64
			switch squarePair(m) {
			case k0:
				o = orderKiller1
			case k1:
				o = orderKiller2
			default:
				o = int64(hist[m.From&63][m.To&63])
			}
			key := o<<8 | int64(i)
			order[i] = key
			if key > bestKey {
				best, bestKey = i, key
			}
		}
	}
	if int(hashMove) < n {
		best, bestKey = int(hashMove), orderHash<<8|int64(hashMove)
	}
	order[best] = order[0]
	order[0] = bestKey
}

// pickMove brings the best-ordered move among slots i.. to slot i and
// returns its index in the move list. The move list itself stays in
// generation order, since the table stores moves by that index.
func (w *worker) pickMove(ply, i int) uint8 {
	f := &w.stack[ply]
	keys := f.order[i:f.moves.N]
	best, bestKey := 0, keys[0]
	for j, key := range keys[1:] {
		if key > bestKey {
			best, bestKey = j+1, key
		}
	}
	keys[best] = keys[0]
	keys[0] = bestKey
	return uint8(bestKey)
}

// sortDown sorts keys in decreasing order (insertion sort: the lists are
// short).
func sortDown(keys []int64) {
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
	}
}

// rewardQuiet records that the quiet move idx, tried in order slot i of ply,
// cut off at depth: it becomes the first killer, its history rises and the history of
// the quiet moves tried before it falls.
func (w *worker) rewardQuiet(ply, depth, i int, idx uint8) {
	f := &w.stack[ply]
	m := f.moves.Moves[idx]
	if !sameMove(&m, &f.killer[0]) {
		f.killer[1] = f.killer[0]
		f.killer[0] = m
	}
	bonus := int32(min(depth*depth, 400))
	side := int(f.pos.Side & 1)
	h := &w.history[side]
	good := &h[m.From&63][m.To&63]
	*good += bonus - *good*bonus/historyMax
	w.historySet[side<<6|int(m.From&63)] |= 1 << (m.To & 63)
	for j := 0; j < i; j++ {
		q := &f.moves.Moves[uint8(f.order[j])]
		if q.Jumps == 0 {
			bad := &h[q.From&63][q.To&63]
			*bad -= bonus + *bad*bonus/historyMax
			w.historySet[side<<6|int(q.From&63)] |= 1 << (q.To & 63)
		}
	}
}

// squarePair packs a move's start and end squares into one word, which
// tells two quiet moves apart.
func squarePair(m *engine.Move) uint16 { return uint16(m.From) | uint16(m.To)<<8 }

// sameMove reports whether two quiet moves are the same step: for a step,
// the start and end squares say it all.
func sameMove(a, b *engine.Move) bool {
	return squarePair(a) == squarePair(b)
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
