package engine

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestPackSquares checks PackSquares, UnpackSquares and RotateSquares square
// by square against the numbering (square s on bit s-1 packed, on SquareBit
// in the ghost layout, turned to 33-s), then on random boards: packing drops
// the ghost bits and what lies beyond the board, unpacking undoes packing,
// and turning round twice gives the board back, agreeing with
// bits.Reverse32 on packed squares.
func TestPackSquares(t *testing.T) {
	for s := 1; s <= 32; s++ {
		bb := SquareBit(s)
		if got := PackSquares(bb); got != 1<<(s-1) {
			t.Errorf("PackSquares(square %d) = %#x, want bit %d", s, got, s-1)
		}
		if got := UnpackSquares(1 << (s - 1)); got != bb {
			t.Errorf("UnpackSquares(bit %d) = %#x, want square %d (%#x)", s-1, got, s, bb)
		}
		if got := RotateSquares(bb); got != SquareBit(33-s) {
			t.Errorf("RotateSquares(square %d) = %v, want square %d", s, Squares(got), 33-s)
		}
	}
	if got := PackSquares(^BoardMask); got != 0 {
		t.Errorf("PackSquares of the ghost bits and beyond = %#x, want 0", got)
	}
	if got := RotateSquares(^BoardMask); got != 0 {
		t.Errorf("RotateSquares of the ghost bits and beyond = %#x, want 0", got)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		raw := rng.Uint64()
		bb := raw & BoardMask
		p := PackSquares(raw)
		if UnpackSquares(p) != bb {
			t.Fatalf("UnpackSquares(PackSquares(%#x)) = %#x, want %#x", raw, UnpackSquares(p), bb)
		}
		if PackSquares(UnpackSquares(uint32(raw))) != uint32(raw) {
			t.Fatalf("PackSquares(UnpackSquares(%#x)) is not the same", uint32(raw))
		}
		if bits.OnesCount32(p) != bits.OnesCount64(bb) {
			t.Fatalf("PackSquares(%#x) has %d squares, want %d", raw, bits.OnesCount32(p), bits.OnesCount64(bb))
		}
		r := RotateSquares(raw)
		if RotateSquares(r) != bb {
			t.Fatalf("turning %#x round twice gives %#x", bb, RotateSquares(r))
		}
		if PackSquares(r) != bits.Reverse32(p) {
			t.Fatalf("RotateSquares(%#x) packs to %#x, want bits.Reverse32 of %#x", bb, PackSquares(r), p)
		}
	}
}
