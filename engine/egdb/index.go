package egdb

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
	"sync"
)

// MaxPieces is the most pieces a slice of this package may hold. The index
// is 64-bit and would go further; the limit keeps the material tables small.
const MaxPieces = 8

// Value is the game-theoretic value of a position for the side to move.
type Value uint8

const (
	// Unknown means the database cannot tell: too many pieces, a missing or
	// damaged slice.
	Unknown Value = iota
	// Loss means the side to move loses against best play.
	Loss
	// Draw means neither side can force a win.
	Draw
	// Win means the side to move wins against best play.
	Win
)

// String returns "unknown", "loss", "draw" or "win".
func (v Value) String() string {
	switch v {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return "unknown"
}

// Neg returns the value for the other side: a win becomes a loss and a loss
// a win; draws and unknowns stay as they are.
func (v Value) Neg() Value { return (4 - v) & 3 }

// Material is the content of a slice: how many men and kings each side has.
type Material struct {
	// BM, BK, WM and WK count black men, black kings, white men and white
	// kings.
	BM, BK, WM, WK int
}

// Pieces returns the number of pieces on the board.
func (m Material) Pieces() int { return m.BM + m.BK + m.WM + m.WK }

// Men returns the number of men of both sides.
func (m Material) Men() int { return m.BM + m.WM }

// Mirror returns the material with the colours swapped: the slice that
// turning the board round maps this one to.
func (m Material) Mirror() Material { return Material{m.WM, m.WK, m.BM, m.BK} }

// SelfMirror reports whether the material is its own mirror.
func (m Material) SelfMirror() bool { return m == m.Mirror() }

// Canonical reports whether this slice is the one of its mirror pair that is
// built and stored: the one whose black side is the stronger (more pieces,
// then more kings). Both members of a self-mirror pair are the same slice.
func (m Material) Canonical() bool {
	b := [3]int{m.BM + m.BK, m.BK, m.BM}
	w := [3]int{m.WM + m.WK, m.WK, m.WM}
	for i := range b {
		if b[i] != w[i] {
			return b[i] > w[i]
		}
	}
	return true
}

// String names the slice: "b" and the black men and kings, then "w" and the
// white ones, zero groups left out; for example b2m1k-w1k.
func (m Material) String() string {
	var sb strings.Builder
	side := func(c byte, men, kings int) {
		sb.WriteByte(c)
		if men > 0 {
			fmt.Fprintf(&sb, "%dm", men)
		}
		if kings > 0 {
			fmt.Fprintf(&sb, "%dk", kings)
		}
	}
	side('b', m.BM, m.BK)
	sb.WriteByte('-')
	side('w', m.WM, m.WK)
	return sb.String()
}

// valid reports whether the counts can stand on a board: men fit on their
// 28 squares and all pieces on the 32.
func (m Material) valid() bool {
	return m.BM >= 0 && m.BK >= 0 && m.WM >= 0 && m.WK >= 0 &&
		m.BM <= 28 && m.WM <= 28 && m.Pieces() <= MaxPieces
}

// code packs the material into a small integer for table lookups.
func (m Material) code() int {
	return ((m.BM*(MaxPieces+1)+m.BK)*(MaxPieces+1)+m.WM)*(MaxPieces+1) + m.WK
}

// numCodes bounds Material.code.
const numCodes = (MaxPieces + 1) * (MaxPieces + 1) * (MaxPieces + 1) * (MaxPieces + 1)

// binom[n][k] is n choose k.
var binom [33][MaxPieces + 2]uint64

// rankTerm[k<<5|p] is p choose k, for p below 32 and k below 16: the ranks'
// inner loops index it with masked values, which needs no bounds check.
var rankTerm [512]uint64

func init() {
	for n := 0; n <= 32; n++ {
		binom[n][0] = 1
		for k := 1; k < len(binom[n]); k++ {
			if n > 0 {
				binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
			}
		}
	}
	for k := 0; k < len(binom[0]); k++ {
		for p := 0; p < 32; p++ {
			rankTerm[k<<5|p] = binom[p][k]
		}
	}
}

const (
	// whiteMenRange holds squares 5..32 (packed), where white men may stand.
	whiteMenRange uint32 = 0xFFFFFFF0
	// blackMenRange holds squares 1..28, where black men may stand.
	blackMenRange uint32 = 0x0FFFFFFF
	// sharedMenRange holds squares 5..28, open to men of both colours.
	sharedMenRange = whiteMenRange & blackMenRange
)

// colexRank ranks the set m among the sets of its size in colexicographic
// order, which is increasing order of the sets read as numbers.
func colexRank(m uint32) uint64 {
	var r uint64
	i := 1
	for ; m != 0; m &= m - 1 {
		r += rankTerm[(i<<5|bits.TrailingZeros32(m))&511]
		i++
	}
	return r
}

// colexUnrank returns the set of k positions whose colexRank is r.
func colexUnrank(r uint64, k int) uint32 {
	var m uint32
	p := 31
	for i := k; i >= 1; i-- {
		for binom[p][i] > r {
			p--
		}
		m |= 1 << p
		r -= binom[p][i]
		p--
	}
	return m
}

// freeRank is colexRank of the pieces in m counted over the squares not in
// occ: each piece's position is its bit less the occupied bits below it.
func freeRank(m, occ uint32) uint64 {
	var r uint64
	i := 1
	for ; m != 0; m &= m - 1 {
		p := bits.TrailingZeros32(m)
		c := p - bits.OnesCount32(occ&(1<<p-1))
		r += rankTerm[(i<<5|c)&511]
		i++
	}
	return r
}

// deposit places the bits of src, read as positions among the set bits of
// mask, onto those bits: bit i of src becomes the i-th lowest bit of mask.
func deposit(src, mask uint32) uint32 {
	var r uint32
	for b := uint32(1); mask != 0 && src >= b; b <<= 1 {
		if src&b != 0 {
			r |= mask & -mask
		}
		mask &= mask - 1
	}
	return r
}

// shape holds what indexing a slice needs. A position's index within its
// slice (one side to move) is built from four ranks, most significant first:
// the black men over squares 1..28, the white men over squares 5..32 that no
// black man holds (counted from square 32 down, White's forward direction),
// the black kings over the squares no man holds, and the white kings over the
// squares still free. Each rank is colexicographic, so the black men's rank
// groups the sets by their most advanced man, and so by its row.
type shape struct {
	mat Material
	// menOff[r] is the index of the first men configuration whose black
	// men have rank r; menOff[len-1] is the number of configurations.
	menOff []uint64
	men    uint64 // men configurations
	bkN    uint64 // black king placements on the squares free of men
	wkN    uint64 // white king placements on the squares still free
	kings  uint64 // bkN * wkN
	size   uint64 // positions of one side to move
}

var (
	shapesMu sync.Mutex
	shapes   = map[Material]*shape{}
	menOffs  = map[[2]int][]uint64{}
)

// shapeOf returns the indexing tables of slice m, building them once.
func shapeOf(m Material) *shape {
	shapesMu.Lock()
	defer shapesMu.Unlock()
	if s := shapes[m]; s != nil {
		return s
	}
	off := menOffs[[2]int{m.BM, m.WM}]
	if off == nil {
		off = menOffsets(m.BM, m.WM)
		menOffs[[2]int{m.BM, m.WM}] = off
	}
	nm := m.Men()
	s := &shape{mat: m, menOff: off, men: off[len(off)-1]}
	s.bkN = binom[32-nm][m.BK]
	s.wkN = binom[32-nm-m.BK][m.WK]
	s.kings = s.bkN * s.wkN
	s.size = s.men * s.kings
	return s
}

// menOffsets walks the black men's sets in rank order and sums, for each,
// the white men's placements on the squares it leaves free.
func menOffsets(bm, wm int) []uint64 {
	n := binom[28][bm]
	off := make([]uint64, 0, n+1)
	var total uint64
	set := uint32(1)<<bm - 1
	for i := uint64(0); i < n; i++ {
		off = append(off, total)
		total += binom[28-bits.OnesCount32(set&sharedMenRange)][wm]
		set = nextCombination(set)
	}
	return append(off, total)
}

// nextCombination returns the next set of the same size in increasing
// order (Gosper's hack); the empty set stays empty.
func nextCombination(x uint32) uint32 {
	if x == 0 {
		return 0
	}
	c := x & -x
	r := x + c
	return ((r^x)>>2)/c | r
}

// menCount returns the number of men configurations of bm black and wm white
// men, counted in closed form: k of the black men stand on squares 5..28,
// which White's men may not use.
func menCount(bm, wm int) uint64 {
	var t uint64
	for k := 0; k <= bm; k++ {
		if bm-k <= 4 {
			t += binom[4][bm-k] * binom[24][k] * binom[28-k][wm]
		}
	}
	return t
}

// menRank returns the index of the men configuration (bm, wm) in s.
func (s *shape) menRank(bm, wm uint32) uint64 {
	return s.menOff[colexRank(bm)] + freeRank(bits.Reverse32(wm), bits.Reverse32(bm))
}

// kingsRank returns the index of the kings placement (bk, wk) among those of
// a men configuration whose men stand on men.
func (s *shape) kingsRank(men, bk, wk uint32) uint64 {
	return freeRank(bk, men)*s.wkN + freeRank(wk, men|bk)
}

// index returns the index of a position of slice s.
func (s *shape) index(bm, bk, wm, wk uint32) uint64 {
	men := bm | wm
	return s.menRank(bm, wm)*s.kings + s.kingsRank(men, bk, wk)
}

// unrankMen returns the men configuration with index r.
func (s *shape) unrankMen(r uint64) (bm, wm uint32) {
	i := sort.Search(len(s.menOff)-1, func(i int) bool { return s.menOff[i+1] > r })
	bm = colexUnrank(uint64(i), s.mat.BM)
	wr := colexUnrank(r-s.menOff[i], s.mat.WM)
	// White's positions count down from square 32 over squares no black
	// man holds: deposit in that order, then turn back.
	wm = bits.Reverse32(deposit(wr, bits.Reverse32(whiteMenRange&^bm)))
	return bm, wm
}

// unrankKings returns the kings placement with rank r among those of a men
// configuration whose men stand on men.
func (s *shape) unrankKings(men uint32, r uint64) (bk, wk uint32) {
	bk = deposit(colexUnrank(r/s.wkN, s.mat.BK), ^men)
	wk = deposit(colexUnrank(r%s.wkN, s.mat.WK), ^(men | bk))
	return bk, wk
}

// unrank returns the position with index idx in s.
func (s *shape) unrank(idx uint64) (bm, bk, wm, wk uint32) {
	bm, wm = s.unrankMen(idx / s.kings)
	bk, wk = s.unrankKings(bm|wm, idx%s.kings)
	return bm, bk, wm, wk
}
