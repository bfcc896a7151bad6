package search

import "github.com/nechecb/nechecb/engine"

// Move-ordering scores: the hash move, then captures by size, then the two
// killers, then quiet moves by history.
const (
	orderHash    = 1 << 30
	orderCapture = 1 << 26
	orderKiller1 = 1 << 25
	orderKiller2 = 1<<25 - 1
	historyMax   = 1 << 20
)

// orderMoves scores the moves of stack[ply] into its order keys and brings
// the best-scored one to slot 0 (the hash move, if hashMove is one's
// index); moveLoop sorts the others when it reaches them. Each key holds
// the ordering score above the move's index in the list, so that sorting
// moves one word; the list itself stays in generation order, since the
// table stores moves by that index. A list holds only captures or only
// quiet moves, so each kind has its own loop.
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
