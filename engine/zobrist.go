package engine

import "math/bits"

// zobristPiece[color][isKing][bit] and zobristSide are the Zobrist keys. They
// are drawn from a fixed-seed generator so that hashes are stable across runs
// and machines (books and tests may store them). Bits 35..63 hold zeros: the
// table spans 64 bits so that an index masked with 63 needs no bounds check.
var (
	zobristPiece [2][2][64]uint64
	zobristSide  uint64
)

func init() {
	state := uint64(0x6e65636865636221) // "nechecb!"
	next := func() uint64 {             // splitmix64
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for c := 0; c < 2; c++ {
		for k := 0; k < 2; k++ {
			for b := 0; b < 35; b++ {
				zobristPiece[c][k][b] = next()
			}
		}
	}
	zobristSide = next()
}

// ComputeHash computes the Zobrist key of p from scratch. Play keeps Hash up
// to date incrementally; this is the reference it must agree with.
func (p *Position) ComputeHash() uint64 {
	var h uint64
	for c := Black; c <= White; c++ {
		for bb := p.Pieces[c] & BoardMask; bb != 0; bb &= bb - 1 {
			b := bits.TrailingZeros64(bb)
			k := 0
			if p.Kings&(1<<b) != 0 {
				k = 1
			}
			h ^= zobristPiece[c][k][b]
		}
	}
	if p.Side == White {
		h ^= zobristSide
	}
	return h
}
