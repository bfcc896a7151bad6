package egdb

import "github.com/nechecb/nechecb/engine"

// iter walks the positions of one side to move of a slice in index order,
// from any index on.
type iter struct {
	sh       *shape
	idx, end uint64
	started  bool
	menIdx   uint64
	bkc, wkc uint64 // the kings' sets over their free squares (compressed)
	bkLim    uint64 // 1 << squares free of men
	wkLim    uint64 // 1 << squares free of men and black kings
	q        pos
}

// newIter returns an iterator over indexes start..end-1 of the table of
// side to move of slice sh; call next before reading q.
func newIter(sh *shape, side engine.Color, start, end uint64) *iter {
	it := &iter{sh: sh, idx: start, end: min(end, sh.size)}
	it.q.side = side
	nm := sh.mat.Men()
	it.bkLim = 1 << (32 - nm)
	it.wkLim = 1 << (32 - nm - sh.mat.BK)
	if start < it.end {
		it.menIdx = start / sh.kings
		kr := start % sh.kings
		it.q.bm, it.q.wm = sh.unrankMen(it.menIdx)
		it.bkc = uint64(colexUnrank(kr/sh.wkN, sh.mat.BK))
		it.wkc = uint64(colexUnrank(kr%sh.wkN, sh.mat.WK))
	}
	return it
}

// next moves to the next position, reporting false at the end.
func (it *iter) next() bool {
	if !it.started {
		it.started = true
	} else {
		it.idx++
		m := it.sh.mat
		if it.wkc = nextSet(it.wkc); m.WK == 0 || it.wkc >= it.wkLim {
			it.wkc = 1<<m.WK - 1
			if it.bkc = nextSet(it.bkc); m.BK == 0 || it.bkc >= it.bkLim {
				it.bkc = 1<<m.BK - 1
				if it.idx < it.end {
					it.menIdx++
					it.q.bm, it.q.wm = it.sh.unrankMen(it.menIdx)
				}
			}
		}
	}
	if it.idx >= it.end {
		return false
	}
	men := it.q.bm | it.q.wm
	it.q.bk = deposit(uint32(it.bkc), ^men)
	it.q.wk = deposit(uint32(it.wkc), ^(men | it.q.bk))
	return true
}

// nextSet is nextCombination on 64-bit sets.
func nextSet(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	c := x & -x
	r := x + c
	return ((r^x)>>2)/c | r
}
