package egdb

import (
	"math/bits"
	"sort"

	"github.com/nechecb/nechecb/engine"
)

// pos is a position in packed squares: each group of pieces as a set of
// squares 1..32 on bits 0..31, and the side to move.
type pos struct {
	bm, bk, wm, wk uint32
	side           engine.Color
}

// packPosition converts an engine position.
func packPosition(p *engine.Position) pos {
	k := p.Kings
	return pos{
		bm: engine.PackSquares(p.Pieces[engine.Black] &^ k), bk: engine.PackSquares(p.Pieces[engine.Black] & k),
		wm: engine.PackSquares(p.Pieces[engine.White] &^ k), wk: engine.PackSquares(p.Pieces[engine.White] & k),
		side: p.Side,
	}
}

// position converts q to an engine position (with no hash).
func (q *pos) position() engine.Position {
	var p engine.Position
	p.Pieces[engine.Black] = engine.UnpackSquares(q.bm | q.bk)
	p.Pieces[engine.White] = engine.UnpackSquares(q.wm | q.wk)
	p.Kings = engine.UnpackSquares(q.bk | q.wk)
	p.Side = q.side
	return p
}

// material returns the counts of q's pieces.
func (q *pos) material() Material {
	return Material{bits.OnesCount32(q.bm), bits.OnesCount32(q.bk), bits.OnesCount32(q.wm), bits.OnesCount32(q.wk)}
}

// pieces returns the number of pieces on the board.
func (q *pos) pieces() int { return bits.OnesCount32(q.bm | q.bk | q.wm | q.wk) }

// rotated turns q round and swaps the colours: a black piece on square s
// becomes a white one on 33-s, and the other side is to move. The game is
// the same seen from the other chair, so the value is the same.
func (q *pos) rotated() pos {
	return pos{bm: bits.Reverse32(q.wm), bk: bits.Reverse32(q.wk), wm: bits.Reverse32(q.bm), wk: bits.Reverse32(q.bk), side: q.side ^ 1}
}

// sideEmpty reports whether the side to move has no pieces (and so has
// lost), and whether the other side has none.
func (q *pos) sideEmpty() (toMove, other bool) {
	b, w := q.bm|q.bk == 0, q.wm|q.wk == 0
	if q.side == engine.White {
		b, w = w, b
	}
	return b, w
}

// afterMove returns the position after legal move m of p.
func afterMove(p *engine.Position, m *engine.Move) pos {
	us := p.Side
	own, opp, kings := p.Pieces[us], p.Pieces[us^1], p.Kings
	from, to := uint64(1)<<(m.From&63), uint64(1)<<(m.To&63)
	own = own&^from | to
	if kings&from != 0 {
		kings = kings&^from | to
	} else if m.Crowns {
		kings |= to
	}
	opp &^= m.Captured
	kings &^= m.Captured
	black, white := own, opp
	if us == engine.White {
		black, white = opp, own
	}
	return pos{
		bm: engine.PackSquares(black &^ kings), bk: engine.PackSquares(black & kings),
		wm: engine.PackSquares(white &^ kings), wk: engine.PackSquares(white & kings),
		side: us ^ 1,
	}
}

// Slices returns every slice with 2 to n pieces (at most MaxPieces) and at
// least one piece a side, mirrors included, in an order in which every
// slice comes after all the slices its moves lead into: by pieces, then by
// men (a crowning turns a man into a king).
func Slices(n int) []Material {
	var out []Material
	for p := 2; p <= min(n, MaxPieces); p++ {
		for b := 1; b < p; b++ {
			w := p - b
			for bm := 0; bm <= b; bm++ {
				for wm := 0; wm <= w; wm++ {
					out = append(out, Material{bm, b - bm, wm, w - wm})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Pieces() != b.Pieces() {
			return a.Pieces() < b.Pieces()
		}
		return a.Men() < b.Men()
	})
	return out
}

// canonicalSlices returns the slices of Slices(n) that are built and
// stored, in the same order.
func canonicalSlices(n int) []Material {
	var out []Material
	for _, m := range Slices(n) {
		if m.Canonical() {
			out = append(out, m)
		}
	}
	return out
}

// canonical returns the stored slice of m's mirror pair.
func canonical(m Material) Material {
	if m.Canonical() {
		return m
	}
	return m.Mirror()
}

// successors returns the stored slices, other than m's own, that a move of
// either side in slice m can lead into: a crowning, or a capture of one or
// more pieces (and a crowning with it). The list may hold slices no move
// actually reaches; it never misses one.
func successors(m Material) []Material {
	seen := map[Material]bool{}
	add := func(x Material) {
		if x.BM+x.BK > 0 && x.WM+x.WK > 0 && x != m {
			seen[canonical(x)] = true
		}
	}
	for _, side := range []engine.Color{engine.Black, engine.White} {
		mm := m
		if side == engine.White {
			mm = m.Mirror()
		}
		// mm has the mover as "black".
		for crown := 0; crown <= min(1, mm.BM); crown++ {
			for xm := 0; xm <= mm.WM; xm++ {
				for xk := 0; xk <= mm.WK; xk++ {
					if xm+xk == 0 && crown == 0 {
						continue
					}
					x := Material{mm.BM - crown, mm.BK + crown, mm.WM - xm, mm.WK - xk}
					if xm+xk == mm.WM+mm.WK {
						continue // the opponent has nothing left: no slice
					}
					if side == engine.White {
						x = x.Mirror()
					}
					add(x)
				}
			}
		}
	}
	out := make([]Material, 0, len(seen))
	for x := range seen {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].code() < out[j].code() })
	return out
}
