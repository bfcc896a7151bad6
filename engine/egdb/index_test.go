package egdb

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// The placements of n pieces published by Chinook (spec/egdb.md): men on
// their 28 squares, kings anywhere, one side possibly empty, each placement
// once.
var publishedPlacements = []uint64{
	1: 120, 2: 6972, 3: 261224, 4: 7092774, 5: 148688232,
	6: 2503611964, 7: 34779531480, 8: 406309208481,
}

// placements counts the placements of n pieces by summing the sizes of
// their slices, one-sided ones included, without building anything.
func placements(n int) uint64 {
	var t uint64
	for b := 0; b <= n; b++ {
		for bm := 0; bm <= b; bm++ {
			for wm := 0; wm <= n-b; wm++ {
				t += shapeOf(Material{bm, b - bm, wm, n - b - wm}).size
			}
		}
	}
	return t
}

func TestPlacementCounts(t *testing.T) {
	for n := 1; n <= 8; n++ {
		if got := placements(n); got != publishedPlacements[n] {
			t.Errorf("%d pieces: %d placements, published %d", n, got, publishedPlacements[n])
		}
	}
}

// TestPlacementCountsByHand counts small placements one square at a time,
// independently of the index's formulas.
func TestPlacementCountsByHand(t *testing.T) {
	var count func(n, from int) uint64
	count = func(n, from int) uint64 {
		if n == 0 {
			return 1
		}
		var t uint64
		for sq := from; sq <= 32; sq++ {
			kinds := 2 // kings of either colour
			if sq > 4 {
				kinds++ // a white man
			}
			if sq < 29 {
				kinds++ // a black man
			}
			t += uint64(kinds) * count(n-1, sq+1)
		}
		return t
	}
	for n := 1; n <= 3; n++ {
		if got, want := placements(n), count(n, 1); got != want {
			t.Errorf("%d pieces: slices sum to %d, counting by square gives %d", n, got, want)
		}
	}
}

func TestMenCountClosedForm(t *testing.T) {
	for bm := 0; bm <= 4; bm++ {
		for wm := 0; wm <= 4; wm++ {
			if got, want := shapeOf(Material{BM: bm, WM: wm, BK: 1}).men, menCount(bm, wm); got != want {
				t.Errorf("%d black men, %d white men: %d configurations by walking, %d in closed form", bm, wm, got, want)
			}
		}
	}
}

// randomPosition returns a random position of slice m.
func randomPosition(rng *rand.Rand, m Material, side engine.Color) pos {
	var q pos
	q.side = side
	var occ uint32
	place := func(n int, allowed uint32) uint32 {
		var set uint32
		for bits.OnesCount32(set) < n {
			s := uint32(1) << rng.IntN(32)
			if s&allowed != 0 && s&occ == 0 {
				set |= s
				occ |= s
			}
		}
		return set
	}
	q.bm = place(m.BM, blackMenRange)
	q.wm = place(m.WM, whiteMenRange)
	q.bk = place(m.BK, ^uint32(0))
	q.wk = place(m.WK, ^uint32(0))
	return q
}

func TestIndexRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range Slices(8) {
		sh := shapeOf(m)
		for range 200 {
			q := randomPosition(rng, m, engine.Black)
			idx := sh.index(q.bm, q.bk, q.wm, q.wk)
			if idx >= sh.size {
				t.Fatalf("%v: index %d of %+v beyond the slice's %d", m, idx, q, sh.size)
			}
			bm, bk, wm, wk := sh.unrank(idx)
			if bm != q.bm || bk != q.bk || wm != q.wm || wk != q.wk {
				t.Fatalf("%v: %+v has index %d, which unranks to %08x %08x %08x %08x", m, q, idx, bm, bk, wm, wk)
			}
		}
	}
}

// TestIndexIsABijection walks small slices in index order and checks that
// the iterator gives every index once, in order, on a legal placement.
func TestIndexIsABijection(t *testing.T) {
	for _, m := range Slices(4) {
		sh := shapeOf(m)
		it := newIter(sh, engine.White, 0, sh.size)
		var n uint64
		for it.next() {
			q := it.q
			if got := sh.index(q.bm, q.bk, q.wm, q.wk); got != n {
				t.Fatalf("%v: position %d of the walk has index %d", m, n, got)
			}
			if q.bm&^blackMenRange != 0 || q.wm&^whiteMenRange != 0 || bits.OnesCount32(q.bm|q.bk|q.wm|q.wk) != m.Pieces() || q.material() != m {
				t.Fatalf("%v: position %d is not a placement of the slice: %+v", m, n, q)
			}
			n++
		}
		if n != sh.size {
			t.Fatalf("%v: walked %d positions, the slice has %d", m, n, sh.size)
		}
	}
}

func TestIterStartsAnywhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, m := range Slices(6) {
		sh := shapeOf(m)
		for range 20 {
			start := rng.Uint64N(sh.size)
			it := newIter(sh, engine.Black, start, start+50)
			for i := start; it.next(); i++ {
				if got := sh.index(it.q.bm, it.q.bk, it.q.wm, it.q.wk); got != i {
					t.Fatalf("%v: from %d, step %d has index %d", m, start, i-start, got)
				}
			}
		}
	}
}

func TestRotationAndPacking(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, m := range Slices(6) {
		q := randomPosition(rng, m, engine.White)
		p := q.position()
		if back := packPosition(&p); back != q {
			t.Fatalf("%+v -> %s -> %+v", q, p.FEN(), back)
		}
		r := q.rotated()
		want := p.Rotated()
		if got := r.position(); got.Pieces != want.Pieces || got.Kings != want.Kings || got.Side != want.Side {
			t.Fatalf("rotating %s: got %s, want %s", p.FEN(), got.FEN(), want.FEN())
		}
		if r.material() != m.Mirror() {
			t.Fatalf("rotating %v gives %v", m, r.material())
		}
	}
}

func TestSliceOrderPutsSuccessorsFirst(t *testing.T) {
	pos := map[Material]int{}
	for i, m := range canonicalSlices(7) {
		pos[m] = i
	}
	for m, i := range pos {
		for _, x := range successors(m) {
			if j, ok := pos[x]; !ok || j >= i {
				t.Errorf("%v (at %d) leads into %v (at %d, listed %v)", m, i, x, j, ok)
			}
		}
	}
}
