package egdb

import (
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/nechecb/nechecb/engine"
)

// Solving a slice. Only kings move back and forth; a man's move, a
// crowning and a capture each lead out of the set of positions that share
// the same men (a "men configuration"): a capture or a crowning into
// another slice, a man's step into a configuration whose men stand further
// forward. Give each configuration the potential "rows the black men have
// advanced plus rows the white men have advanced": every man's step adds
// one. Solving the configurations from the highest potential down, each
// one's exits are known when it is solved, and within it only the kings'
// moves remain, which retrograde analysis settles:
//
//  1. every position is valued from its exits: a capture position from its
//     captures, another one wins if an exit leaves the opponent lost, and
//     keeps a count of its kings' moves, which stay inside, otherwise;
//  2. from every position known to be won or lost, the kings' moves are
//     taken back: a loss makes each predecessor a win; a win takes one off
//     each predecessor's count, and a predecessor whose count runs out is
//     lost (or drawn, when an exit draws);
//  3. what is left unsettled cannot be forced either way: a draw.
//
// The configurations of one potential are independent and are shared out
// among the threads. Within a slice, the black men's sets with the leading
// man on one row are a contiguous range of indexes, so the highest
// potentials, solved first, are those of the leading rows.

// sliceBuild is a slice being solved: its values so far and which of its
// positions are capture positions.
type sliceBuild struct {
	mat  Material
	sh   *shape
	vals [2][]uint32 // two bits a position; written with atomic OR
	caps [2][]uint32 // one bit a position: the side to move must capture
	st   *store
	done atomic.Uint64 // positions valued
	bad  atomic.Bool   // a successor's value was unknown
}

func newSliceBuild(m Material, st *store) *sliceBuild {
	sh := shapeOf(m)
	b := &sliceBuild{mat: m, sh: sh, st: st}
	for c := range b.vals {
		b.vals[c] = make([]uint32, (sh.size+15)/16)
		b.caps[c] = make([]uint32, (sh.size+31)/32)
	}
	return b
}

// buildBytes returns the memory solving slice m takes with threads workers
// at most: its tables, and each worker's scratch for one configuration (a
// value and a count for each kings placement and side, and a queue entry of
// 8 bytes for each at worst).
func buildBytes(m Material, threads int) uint64 {
	sh := shapeOf(m)
	return 2*(4*((sh.size+15)/16)+4*((sh.size+31)/32)) + uint64(threads)*20*sh.kings
}

// get returns a solved value of the slice.
func (b *sliceBuild) get(side engine.Color, idx uint64) Value {
	return Value(atomic.LoadUint32(&b.vals[side][idx>>4]) >> (uint(idx&15) * 2) & 3)
}

// resident returns the solved slice as a resident table.
func (b *sliceBuild) resident() *resident { return &resident{sh: b.sh, vals: b.vals} }

// kingSteps[s] holds the squares (packed) one diagonal step from square
// s+1, 0 where the step leaves the board.
var kingSteps [32][4]uint32

func init() {
	for s := 1; s <= 32; s++ {
		g := engine.SquareBit(s)
		for d, x := range []uint64{g << 4, g << 5, g >> 4, g >> 5} {
			kingSteps[s-1][d] = engine.PackSquares(x & engine.BoardMask)
		}
	}
}

// solve solves the slice with threads goroutines.
func (b *sliceBuild) solve(threads int) error {
	if 2*b.sh.kings > 1<<32 {
		return fmt.Errorf("slice %v: %d kings placements per configuration is more than this builder handles", b.mat, b.sh.kings)
	}
	black := menSets(b.mat.BM, blackMenRange, func(sq int) int { return (sq - 1) / 4 })
	white := menSets(b.mat.WM, whiteMenRange, func(sq int) int { return 7 - (sq-1)/4 })
	workers := make([]*worker, threads)
	for i := range workers {
		workers[i] = &worker{b: b, sh: b.sh, st: b.st}
	}
	for level := 6 * b.mat.Men(); level >= 0; level-- {
		var items []configItem
		for pb, bms := range black {
			pw := level - pb
			if pw < 0 || pw >= len(white) {
				continue
			}
			ws := white[pw]
			for _, bm := range bms {
				for i := 0; i < len(ws); i += 64 {
					items = append(items, configItem{bm, ws[i:min(i+64, len(ws))]})
				}
			}
		}
		var next atomic.Int64
		var wg sync.WaitGroup
		for _, w := range workers[:min(threads, len(items))] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !b.bad.Load() {
					i := int(next.Add(1) - 1)
					if i >= len(items) {
						return
					}
					for _, wm := range items[i].wms {
						if wm&items[i].bm == 0 {
							w.config(items[i].bm, wm)
						}
					}
				}
			}()
		}
		wg.Wait()
		if b.bad.Load() {
			return errUnknownValue(b.mat)
		}
	}
	return nil
}

// configItem is a piece of work: one set of black men with some sets of
// white men (those that share a square with it are skipped).
type configItem struct {
	bm  uint32
	wms []uint32
}

// menSets returns every set of n men on the squares of allowed, grouped by
// their potential (the sum of rowOf over the men).
func menSets(n int, allowed uint32, rowOf func(sq int) int) [][]uint32 {
	groups := make([][]uint32, 6*n+1)
	lim := uint64(1) << bits.OnesCount32(allowed)
	for c := uint64(1)<<n - 1; c < lim; c = nextSet(c) {
		set := deposit(uint32(c), allowed)
		p := 0
		for s := set; s != 0; s &= s - 1 {
			p += rowOf(bits.TrailingZeros32(s) + 1)
		}
		groups[p] = append(groups[p], set)
		if n == 0 {
			break
		}
	}
	return groups
}

// worker solves configurations, one at a time, with scratch of its own.
type worker struct {
	b   *sliceBuild
	sh  *shape
	st  *store
	l   engine.MoveList
	val []uint8 // per kings placement and side: value, bit 2 set for a capture position
	cnt []uint8 // moves not yet known to lose, bit 7 set when an exit draws
	// queue holds the settled positions whose predecessors are still to be
	// seen, by side to move and by value (lost, won), as their kings
	// (black<<32 | white).
	queue [2][2][]uint64
	free  [32]uint32 // squares free for the white kings, lowest first
}

const (
	capBit  = 4
	drawBit = 0x80
)

// config solves the positions of the men configuration (bm, wm).
func (w *worker) config(bm, wm uint32) {
	sh := w.sh
	men := bm | wm
	base := sh.menRank(bm, wm) * sh.kings
	k := sh.kings
	if cap(w.val) < int(2*k) {
		w.val = make([]uint8, 2*k)
		w.cnt = make([]uint8, 2*k)
	}
	val, cnt := w.val[:2*k], w.cnt[:2*k]
	for s := range w.queue {
		for v := range w.queue[s] {
			w.queue[s][v] = w.queue[s][v][:0]
		}
	}
	m := sh.mat
	bkLim, wkLim := uint64(1)<<(32-m.Men()), uint64(1)<<(32-m.Men()-m.BK)
	for side := engine.Black; side <= engine.White; side++ {
		i := uint32(side) * uint32(k)
		q := pos{bm: bm, wm: wm, side: side}
		for bkc := uint64(1)<<m.BK - 1; bkc < bkLim; bkc = nextSet(bkc) {
			q.bk = deposit(uint32(bkc), ^men)
			free := ^(men | q.bk)
			nf := 0
			for f := free; f != 0; f &= f - 1 {
				w.free[nf] = f & -f
				nf++
			}
			for wkc := uint64(1)<<m.WK - 1; wkc < wkLim; wkc = nextSet(wkc) {
				q.wk = 0
				for c := wkc; c != 0; c &= c - 1 {
					q.wk |= w.free[bits.TrailingZeros64(c)&31]
				}
				v, n, capture := w.initial(&q)
				switch {
				case capture:
					val[i] = uint8(v) | capBit
				case n == 0:
					val[i] = uint8(v)
				default:
					val[i], cnt[i] = 0, uint8(n)
				}
				if v == Win || v == Loss {
					w.push(side, v, q.bk, q.wk)
				}
				i++
				if m.WK == 0 {
					break
				}
			}
			if m.BK == 0 {
				break
			}
		}
	}
	if m.BK+m.WK > 0 {
		w.propagate(men, val, cnt)
	}
	for side := range 2 {
		w.write(engine.Color(side), base, val[uint64(side)*k:uint64(side+1)*k])
	}
	w.b.done.Add(2 * k)
}

// initial values q from its exits. For a capture position the value is
// final. Otherwise n counts the kings' moves, which stay inside the
// configuration: with n > 0 the value is Win when an exit wins and Unknown
// otherwise, with the draw bit in n when an exit draws; with n == 0 it is
// final.
func (w *worker) initial(q *pos) (v Value, n int, capture bool) {
	p := q.position()
	l := &w.l
	if p.HasCapture() {
		p.GenerateCaptures(l)
		best := Loss
		for i := 0; i < l.N; i++ {
			s := afterMove(&p, &l.Moves[i])
			v := w.st.value(&s).Neg()
			if v == Unknown {
				w.b.bad.Store(true)
			}
			if v > best {
				if best = v; v == Win {
					break
				}
			}
		}
		return best, 0, true
	}
	p.GenerateQuiet(l)
	draw := false
	for i := 0; i < l.N; i++ {
		m := &l.Moves[i]
		if p.Kings>>(m.From&63)&1 != 0 {
			n++
			continue
		}
		s := afterMove(&p, m)
		switch w.st.value(&s).Neg() {
		case Win:
			return Win, 0, false
		case Draw:
			draw = true
		case Unknown:
			w.b.bad.Store(true)
		}
	}
	switch {
	case n > 0 && draw:
		return Unknown, n | drawBit, false
	case n > 0:
		return Unknown, n, false
	case draw:
		return Draw, 0, false
	}
	return Loss, 0, false
}

// push queues a settled position.
func (w *worker) push(side engine.Color, v Value, bk, wk uint32) {
	q := &w.queue[side][v>>1]
	*q = append(*q, uint64(bk)<<32|uint64(wk))
}

// propagate takes the kings' moves back from the settled positions in the
// queues (see the comment at the top of the file), then makes draws of the
// rest.
func (w *worker) propagate(men uint32, val, cnt []uint8) {
	var head [2][2]int
	for more := true; more; {
		more = false
		for side := range w.queue {
			for v := range w.queue[side] {
				q := &w.queue[side][v]
				for ; head[side][v] < len(*q); head[side][v]++ {
					e := (*q)[head[side][v]]
					w.unmoves(men, engine.Color(side), Value(1+2*v), uint32(e>>32), uint32(e), val, cnt)
					more = true
				}
			}
		}
	}
	for i, x := range val {
		if x&3 == 0 {
			val[i] = x | uint8(Draw)
		}
	}
}

// unmoves visits the predecessors of the position with side to move, value
// v (won or lost) and kings bk and wk: the positions from which the other
// side's king steps into it.
func (w *worker) unmoves(men uint32, side engine.Color, v Value, bk, wk uint32, val, cnt []uint8) {
	sh := w.sh
	mover := side ^ 1
	movers := bk
	// Only the movers' rank changes; a black king's move changes the white
	// kings' rank too, as they are ranked over the squares it leaves free.
	base := uint64(mover) * sh.kings
	if mover == engine.White {
		movers = wk
		base += freeRank(bk, men) * sh.wkN
	}
	occ := men | bk | wk
	for ms := movers; ms != 0; ms &= ms - 1 {
		t := ms & -ms
		steps := &kingSteps[bits.TrailingZeros32(t)&31]
		for _, f := range steps {
			if f == 0 || f&occ != 0 {
				continue
			}
			nk := movers ^ t ^ f
			pb, pw := nk, wk
			var pi uint64
			if mover == engine.White {
				pb, pw = bk, nk
				pi = base + freeRank(nk, men|bk)
			} else {
				pi = base + sh.kingsRank(men, nk, wk)
			}
			if val[pi]&3 != 0 {
				continue
			}
			if v == Loss {
				val[pi] = uint8(Win)
				w.push(mover, Win, pb, pw)
				continue
			}
			c := cnt[pi] - 1
			cnt[pi] = c
			if c&^drawBit == 0 {
				if c&drawBit != 0 {
					val[pi] = uint8(Draw)
				} else {
					val[pi] = uint8(Loss)
					w.push(mover, Loss, pb, pw)
				}
			}
		}
	}
}

// write stores the values of one side of a configuration, whose first
// position has index base, into the slice's tables.
func (w *worker) write(side engine.Color, base uint64, val []uint8) {
	vals, caps := w.b.vals[side], w.b.caps[side]
	var word, cword uint32
	wi, ci := base>>4, base>>5
	for j, x := range val {
		idx := base + uint64(j)
		if idx>>4 != wi {
			atomic.OrUint32(&vals[wi], word)
			word, wi = 0, idx>>4
		}
		if idx>>5 != ci {
			if cword != 0 {
				atomic.OrUint32(&caps[ci], cword)
			}
			cword, ci = 0, idx>>5
		}
		word |= uint32(x&3) << (uint(idx&15) * 2)
		cword |= uint32(x>>2&1) << (idx & 31)
	}
	atomic.OrUint32(&vals[wi], word)
	if cword != 0 {
		atomic.OrUint32(&caps[ci], cword)
	}
}

// errUnknownValue reports a slice that could not be solved because a slice
// it leads into could not be read.
func errUnknownValue(m Material) error {
	return fmt.Errorf("slice %v: a slice it leads into gave no value (missing or damaged file?)", m)
}
