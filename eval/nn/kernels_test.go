package nn

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// kernelValues draws the random vectors of the kernel tests, with the
// extreme values included.
type kernelValues struct{ rng *rand.Rand }

func (k kernelValues) i16(v []int16) {
	for i := range v {
		switch k.rng.IntN(8) {
		case 0:
			v[i] = 32767 - int16(k.rng.IntN(3))
		case 1:
			v[i] = -32768 + int16(k.rng.IntN(3))
		default:
			v[i] = int16(k.rng.IntN(400) - 150)
		}
	}
}

func (k kernelValues) u8(v []uint8) {
	for i := range v {
		v[i] = uint8(k.rng.IntN(QA + 1))
		switch k.rng.IntN(4) {
		case 0:
			v[i] = QA
		case 1:
			v[i] = 0
		}
	}
}

func (k kernelValues) i8(v []int8) {
	for i := range v {
		v[i] = int8(k.rng.IntN(2*MaxWeight+1) - MaxWeight)
		if k.rng.IntN(4) == 0 {
			v[i] = int8(MaxWeight * (1 - 2*k.rng.IntN(2)))
		}
	}
}

// columns returns up to most random column offsets of n units each.
func (k kernelValues) columns(most, n int) []int32 {
	var c []int32
	for j := k.rng.IntN(most + 1); j > 0; j-- {
		c = append(c, int32(k.rng.IntN(Inputs)*n))
	}
	return c
}

// The column updates in use (AVX2, NEON or wasm SIMD where they run) and
// the plain-Go twin, which packs four lanes in a word, both against the
// loop one int16 at a time, bit for bit, on every number of units a net
// can have, in place too, then the clip against its twin.
func TestColumnKernelsMatchLoop(t *testing.T) {
	t.Logf("kernels: %s", Kernels())
	k := kernelValues{rand.New(rand.NewPCG(7, 7))}
	for n := 16; n <= 1024; n += 16 {
		w := make([]int16, Inputs*n)
		k.i16(w)
		src := make([]int16, n)
		k.i16(src)
		for range 4 {
			add, sub := k.columns(MaxActive, n), k.columns(5, n)
			want := make([]int16, n)
			updateColsLoop(want, src, w, add, sub)
			for name, update := range map[string]func(dst, src, w []int16, add, sub []int32){
				"updateCols": updateCols, "updateColsGo": updateColsGo,
			} {
				got := make([]int16, n)
				update(got, src, w, add, sub)
				if !slices.Equal(got, want) {
					t.Fatalf("%s, %d units, %d columns added and %d taken away: differs from the loop", name, n, len(add), len(sub))
				}
				inPlace := slices.Clone(src)
				update(inPlace, inPlace, w, add, sub)
				if !slices.Equal(inPlace, want) {
					t.Fatalf("%s in place, %d units: differs from the loop", name, n)
				}
			}
			cg, cw := make([]uint8, n), make([]uint8, n)
			clipUnits(cg, want)
			clipUnitsGo(cw, want)
			if !slices.Equal(cg, cw) {
				t.Fatalf("clipUnits, %d units: %v, want %v", n, cg, cw)
			}
		}
	}
}

// The twin's packed lanes when the slices are not 8-byte aligned (it
// falls back on the loop) and on sizes that are not a multiple of 16.
func TestUpdateColsGoUnaligned(t *testing.T) {
	k := kernelValues{rand.New(rand.NewPCG(8, 8))}
	for _, n := range []int{4, 12, 20, 100} {
		w := make([]int16, Inputs*n+1)
		k.i16(w)
		for _, skew := range []int{0, 1} {
			ws := w[skew:][:Inputs*n]
			buf := make([]int16, n+1)
			k.i16(buf)
			src := slices.Clone(buf[skew:][:n])
			add, sub := k.columns(MaxActive, n), k.columns(5, n)
			want := make([]int16, n)
			updateColsLoop(want, src, ws, add, sub)
			got := buf[1-skew:][:n]
			updateColsGo(got, src, ws, add, sub)
			if !slices.Equal(got, want) {
				t.Fatalf("updateColsGo, %d units, weights skewed by %d: differs from the loop", n, skew)
			}
		}
	}
}

// Four 16-bit lanes added and taken away in a word wrap as int16 does,
// lane by lane, with carries and borrows kept out of the next lane.
func TestLanesWrapLikeInt16(t *testing.T) {
	k := kernelValues{rand.New(rand.NewPCG(9, 9))}
	for range 20000 {
		var x, y [4]int16
		k.i16(x[:])
		k.i16(y[:])
		var px, py uint64
		for l := range 4 {
			px |= uint64(uint16(x[l])) << (16 * l)
			py |= uint64(uint16(y[l])) << (16 * l)
		}
		sum, diff := addLanes(px, py), subLanes(px, py)
		for l := range 4 {
			if got, want := int16(sum>>(16*l)), x[l]+y[l]; got != want {
				t.Fatalf("lane %d of %v + %v: %d, want %d", l, x, y, got, want)
			}
			if got, want := int16(diff>>(16*l)), x[l]-y[l]; got != want {
				t.Fatalf("lane %d of %v - %v: %d, want %d", l, x, y, got, want)
			}
		}
	}
}

// The dense kernels in use and the plain Go's pairs of units, both against
// the plain-Go twin that takes groups of four inputs, bit for bit, on
// every shape a net's layers can have and each second-layer shift, each
// given the weights in the order it reads (denseLayout's, pairLayout's,
// quadLayout's).
func TestDenseKernelsMatchTwins(t *testing.T) {
	k := kernelValues{rand.New(rand.NewPCG(7, 7))}
	for m := 32; m <= 2048; m += 32 {
		for _, rows := range []int{32, 64, 96, 256} {
			if m*rows > 1<<17 && rows > 32 {
				continue
			}
			in, w, b := make([]uint8, m), make([]int8, rows*m), make([]int32, rows)
			k.u8(in)
			if m%256 == 0 {
				clear(in[:m/2])
			}
			k.i8(w)
			kw, qw, pw := denseLayout(w, rows, m), quadLayout(w, rows, m), pairLayout(w, rows, m)
			for i := range b {
				b[i] = int32(k.rng.IntN(1<<20) - 1<<19)
			}
			got, want := make([]uint8, rows), make([]uint8, rows)
			for shift := WeightShift; shift <= WeightShift+3; shift++ {
				denseQuads(got, in, kw, b, shift)
				denseQuadsGo(want, in, qw, b, shift)
				if !slices.Equal(got, want) {
					t.Fatalf("denseQuads, %d inputs, %d rows, shift %d: %v, want %v", m, rows, shift, got, want)
				}
				densePairsGo(got, in, pw, b, shift)
				if !slices.Equal(got, want) {
					t.Fatalf("densePairsGo, %d inputs, %d rows, shift %d: %v, want %v", m, rows, shift, got, want)
				}
			}
			if g, w := dotRow(in, w), dotRowGo(in, w); g != w {
				t.Fatalf("dotRow, %d inputs: %d, want %d", m, g, w)
			}
			// Groups of four zero inputs, which the kernels skip, an odd
			// number of groups left or none.
			for q := 0; q < m; q += 4 {
				if k.rng.IntN(3) == 0 || m == 32 && rows == 64 {
					clear(in[q:][:4])
				}
			}
			denseQuads(got, in, kw, b, FineShift)
			denseQuadsGo(want, in, qw, b, FineShift)
			if !slices.Equal(got, want) {
				t.Fatalf("denseQuads, %d inputs with groups of zeros, %d rows: %v, want %v", m, rows, got, want)
			}
			densePairsGo(got, in, pw, b, FineShift)
			if !slices.Equal(got, want) {
				t.Fatalf("densePairsGo, %d inputs with groups of zeros, %d rows: %v, want %v", m, rows, got, want)
			}
		}
	}
	// The largest sums: every input at QA, every weight at ±MaxWeight.
	in, w, b := make([]uint8, 2048), make([]int8, 32*2048), make([]int32, 32)
	for i := range in {
		in[i] = QA
	}
	for sign := range 2 {
		for i := range w {
			w[i] = int8(MaxWeight * (1 - 2*sign))
		}
		got, want := make([]uint8, 32), make([]uint8, 32)
		denseQuads(got, in, denseLayout(w, 32, 2048), b, WeightShift)
		denseQuadsGo(want, in, w, b, WeightShift)
		if !slices.Equal(got, want) {
			t.Fatalf("denseQuads at the extremes, sign %d: %v, want %v", sign, got, want)
		}
		densePairsGo(got, in, pairLayout(w, 32, 2048), b, WeightShift)
		if !slices.Equal(got, want) {
			t.Fatalf("densePairsGo at the extremes, sign %d: %v, want %v", sign, got, want)
		}
		if g, w := dotRow(in, w), dotRowGo(in, w); g != w {
			t.Fatalf("dotRow at the extremes, sign %d: %d, want %d", sign, g, w)
		}
	}
}

// The kernels in use allocate nothing.
func TestKernelsDoNotAllocate(t *testing.T) {
	l := defaultLayout
	in, w := make([]uint8, 2*l.Hidden), denseLayout(make([]int8, 2*l.Hidden*l.L2), l.L2, 2*l.Hidden)
	b, out := make([]int32, l.L2), make([]uint8, l.L2)
	acc, wf := make([]int16, l.Hidden), make([]int16, Inputs*l.Hidden)
	add, sub := []int32{int32(l.Hidden)}, []int32{int32(3 * l.Hidden)}
	if a := testing.AllocsPerRun(20, func() {
		updateCols(acc, acc, wf, add, sub)
		clipUnits(in[:l.Hidden], acc)
		denseQuads(out, in, w, b, FineShift)
		dotRow(in[:l.L3], w)
	}); a != 0 {
		t.Errorf("%s kernels: %v allocations a run, want 0", Kernels(), a)
	}
}

// With the SIMD kernels switched off by hand (as on an amd64 CPU without
// AVX2), the evaluator runs the plain-Go twins and must still match the
// reference along a game.
func TestEvaluatorWithoutSIMD(t *testing.T) {
	if !useSIMD {
		t.Skip("this build runs the plain-Go twins already")
	}
	useSIMD = false
	defer func() { useSIMD = true }()
	n := randomNet(defaultLayout, 11)
	m, err := newModel(n)
	if err != nil {
		t.Fatal(err)
	}
	checkAlong(t, n, newEvaluator(m, DefaultSlots), randomGames(1, 11), "with the plain-Go kernels")
}

// Kernels names the platform's SIMD kernels when Fast reports that they
// run, and the plain Go otherwise.
func TestKernelsName(t *testing.T) {
	want := plainGo
	if Fast() {
		want = map[string]string{"amd64": "AVX2", "arm64": "NEON", "wasm": "wasm SIMD"}[runtime.GOARCH]
	}
	if got := Kernels(); got != want {
		t.Errorf("Kernels() = %q on %s with Fast() %v, want %q", got, runtime.GOARCH, Fast(), want)
	}
}
