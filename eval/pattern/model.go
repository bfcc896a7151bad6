package pattern

import (
	"fmt"
	"slices"
)

// Model is a model's geometry: the piece counts at which its weight sets
// apply and whether it has the ending terms. The windows and king squares
// are the same in every model.
//
// A model has one weight set per knot. With n pieces on the board (clamped
// to the range of the knots), the two knots around n blend linearly: with
// hi ≥ n ≥ lo the neighbouring knots, the set of hi has the share
// (n − lo)/(hi − lo) and that of lo the rest. Version 1 of the model is
// the knots 24 and 2 without the ending terms.
type Model struct {
	// Knots are piece counts, strictly descending, within 0..MaxPieces; at
	// least two and at most MaxKnots.
	Knots []int
	// Ending says whether the ending terms (EndingNames) follow the global
	// terms.
	Ending bool
}

const (
	// MaxPieces is the most pieces a board holds.
	MaxPieces = 24
	// MaxKnots bounds the number of knots.
	MaxKnots = 12
)

// V1 is the model of version 1 files: two phases, in full at 24 and at 2
// pieces, and the four global terms.
var V1 = Model{Knots: []int{24, 2}}

// V2 is the default model of version 2: knots where the measured held-out
// loss chose them (docs/pattern.md) and the ending terms.
var V2 = Model{Knots: []int{24, 16, 12, 9, 6, 2}, Ending: true}

// Check reports what is wrong with m's geometry, or nil.
func (m Model) Check() error {
	if len(m.Knots) < 2 || len(m.Knots) > MaxKnots {
		return fmt.Errorf("%d knots, want 2..%d", len(m.Knots), MaxKnots)
	}
	for i, k := range m.Knots {
		if k < 0 || k > MaxPieces || (i > 0 && k >= m.Knots[i-1]) {
			return fmt.Errorf("knots %v are not strictly descending piece counts within 0..%d", m.Knots, MaxPieces)
		}
	}
	return nil
}

// Version returns the file version that holds m: 1 for V1, else 2.
func (m Model) Version() int {
	if !m.Ending && slices.Equal(m.Knots, V1.Knots) {
		return 1
	}
	return 2
}

// Globals returns the number of global terms: the four of GlobalNames,
// then the ending terms if the model has them.
func (m Model) Globals() int {
	if m.Ending {
		return NumGlobals + NumEnding
	}
	return NumGlobals
}

// KingsOffset returns the offset of the king-square terms in a knot's
// terms: the windows' tables, then the globals, then the king squares.
func (m Model) KingsOffset() int { return GlobalsOffset + m.Globals() }

// Terms returns the number of terms of one knot.
func (m Model) Terms() int { return m.KingsOffset() + KingSquares }

// Params returns the number of weights of the model.
func (m Model) Params() int { return len(m.Knots) * m.Terms() }

// Param returns the index in the model's weights of term off (0..Terms-1)
// at knot k: the knots of one term are stored side by side, so that an
// evaluation finds the two it blends in one cache line.
func (m Model) Param(off, k int) int { return off*len(m.Knots) + k }

// blend holds, for each piece count, which two knots blend and how.
type blend struct {
	// seg is the upper of the two knots (seg and seg+1).
	seg [MaxPieces + 1]uint8
	// up is the upper knot's share in 1/den units; the lower has den − up.
	up  [MaxPieces + 1]int64
	den int64
}

// newBlend computes the blend of each piece count for the knots of m,
// which Check accepts. The denominator is the least common multiple of the
// spans between neighbouring knots, so every share is an exact integer:
// for V1 it is 22, and up is min(max(n − 2, 0), 22).
func newBlend(m Model) *blend {
	b := &blend{den: 1}
	k := m.Knots
	for i := 1; i < len(k); i++ {
		b.den = lcm(b.den, int64(k[i-1]-k[i]))
	}
	for n := range MaxPieces + 1 {
		c := min(max(n, k[len(k)-1]), k[0])
		j := 0
		for j+2 < len(k) && c < k[j+1] {
			j++
		}
		// k[j] ≥ c ≥ k[j+1]; at c = k[j+1] the upper share is 0.
		b.seg[n] = uint8(j)
		b.up[n] = int64(c-k[j+1]) * (b.den / int64(k[j]-k[j+1]))
	}
	return b
}

func lcm(a, b int64) int64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// Blend returns how the knots of m, which Check accepts, blend for a
// board of n pieces: the weights of knot k have the share share, those of
// knot k+1 the rest.
func (m Model) Blend(n int) (k int, share float64) {
	b := newBlend(m)
	n = min(max(n, 0), MaxPieces)
	return int(b.seg[n]), float64(b.up[n]) / float64(b.den)
}
