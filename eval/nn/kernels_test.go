package nn

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The kernels in use (the assembly where it runs) against their plain-Go
// twins, bit for bit, on random vectors of every shape a net can have,
// with the extreme values included.
func TestKernelsMatchTwins(t *testing.T) {
	if !hasAVX2 {
		t.Skip("the kernels in use are the plain-Go twins in this build")
	}
	rng := rand.New(rand.NewPCG(7, 7))
	i16 := func(v []int16) {
		for i := range v {
			switch rng.IntN(8) {
			case 0:
				v[i] = 32767 - int16(rng.IntN(3))
			case 1:
				v[i] = -32768 + int16(rng.IntN(3))
			default:
				v[i] = int16(rng.IntN(400) - 150)
			}
		}
	}
	u8 := func(v []uint8) {
		for i := range v {
			v[i] = uint8(rng.IntN(QA + 1))
			if rng.IntN(4) == 0 {
				v[i] = QA
			}
		}
	}
	i8 := func(v []int8) {
		for i := range v {
			v[i] = int8(rng.IntN(2*MaxWeight+1) - MaxWeight)
			if rng.IntN(4) == 0 {
				v[i] = int8(MaxWeight * (1 - 2*rng.IntN(2)))
			}
		}
	}
	for n := 16; n <= 1024; n += 16 {
		w := make([]int16, Inputs*n)
		i16(w)
		src := make([]int16, n)
		i16(src)
		for range 4 {
			var add, sub []int32
			for k := rng.IntN(MaxActive + 1); k > 0; k-- {
				add = append(add, int32(rng.IntN(Inputs)*n))
			}
			for k := rng.IntN(6); k > 0; k-- {
				sub = append(sub, int32(rng.IntN(Inputs)*n))
			}
			got, want := make([]int16, n), make([]int16, n)
			updateCols(got, src, w, add, sub)
			updateColsGo(want, src, w, add, sub)
			if !slices.Equal(got, want) {
				t.Fatalf("updateCols, %d units, %d columns added and %d taken away: the two differ", n, len(add), len(sub))
			}
			inPlace := slices.Clone(src)
			updateCols(inPlace, inPlace, w, add, sub)
			if !slices.Equal(inPlace, want) {
				t.Fatalf("updateCols in place, %d units: differs", n)
			}
			cg, cw := make([]uint8, n), make([]uint8, n)
			clipUnits(cg, got)
			clipUnitsGo(cw, got)
			if !slices.Equal(cg, cw) {
				t.Fatalf("clipUnits, %d units: %v, want %v", n, cg, cw)
			}
		}
	}
	for m := 32; m <= 2048; m += 32 {
		for _, rows := range []int{32, 64, 256} {
			if m*rows > 1<<17 && rows > 32 {
				continue
			}
			in, w, b := make([]uint8, m), make([]int8, rows*m), make([]int32, rows)
			u8(in)
			i8(w)
			for i := range b {
				b[i] = int32(rng.IntN(1<<20) - 1<<19)
			}
			got, want := make([]uint8, rows), make([]uint8, rows)
			for shift := WeightShift; shift <= WeightShift+3; shift++ {
				denseQuads(got, in, w, b, shift)
				denseQuadsGo(want, in, w, b, shift)
				if !slices.Equal(got, want) {
					t.Fatalf("denseQuads, %d inputs, %d rows, shift %d: %v, want %v", m, rows, shift, got, want)
				}
			}
			if g, w := dotRow(in, w), dotRowGo(in, w); g != w {
				t.Fatalf("dotRow, %d inputs: %d, want %d", m, g, w)
			}
		}
	}
}
