package nn

import "unsafe"

// The kernels of the integer inference, in plain Go. On amd64 with AVX2
// (and without the purego tag) kernels_amd64.s does the same work, and on
// wasm and arm64 built by Go 1.27 with GOEXPERIMENT=simd kernels_simd*.go
// do; these are their twins, used on other platforms, on CPUs without
// AVX2 and under -tags purego, and the reference the SIMD kernels are
// tested against. All give exactly the values of (*Net).Output: int16
// sums wrap alike, and the int32 sums of the dense layers never overflow.

// updateColsGo sets dst to src plus the columns of w that start at the
// offsets in add, minus those at the offsets in sub; each column has
// len(dst) weights, a multiple of 4. dst and src may be the same slice.
// It works on four int16 lanes packed in a uint64 word at a time
// (addLanes, subLanes), which wrap exactly as int16 sums do; slices or
// columns whose first element is not 8-byte aligned take the plain loop,
// updateColsLoop.
func updateColsGo(dst, src, w []int16, add, sub []int32) {
	n := len(dst)
	copy(dst, src[:n])
	offsets := int32(0)
	for _, a := range add {
		offsets |= a
	}
	for _, s := range sub {
		offsets |= s
	}
	if n%4 != 0 || offsets%4 != 0 || !aligned8(dst) || !aligned8(w) {
		updateColsLoop(dst, dst, w, add, sub)
		return
	}
	d := words(dst)
	for _, a := range add {
		col := words(w[a:][:n])[:len(d)]
		for j := range d {
			d[j] = addLanes(d[j], col[j])
		}
	}
	for _, s := range sub {
		col := words(w[s:][:n])[:len(d)]
		for j := range d {
			d[j] = subLanes(d[j], col[j])
		}
	}
}

// aligned8 reports whether v's first element is 8-byte aligned.
func aligned8(v []int16) bool {
	return uintptr(unsafe.Pointer(unsafe.SliceData(v)))%8 == 0
}

// words returns v, whose length is a multiple of 4 and whose first element
// is 8-byte aligned, as uint64 words of four lanes each, lane k of a word
// in bits 16k..16k+15 on a little-endian machine and in the reverse order
// on a big-endian one: the lane arithmetic is the same either way.
func words(v []int16) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(v))), len(v)/4)
}

// laneHigh has the top bit of each 16-bit lane set.
const laneHigh = 0x8000_8000_8000_8000

// addLanes adds the four 16-bit lanes of x and y, each modulo 1<<16: the
// low 15 bits are added with the top bits cleared, so that no carry
// crosses into the next lane, and the top bit of each lane is then the
// exclusive or of the two top bits and the carry out of the low bits.
func addLanes(x, y uint64) uint64 {
	return ((x &^ laneHigh) + (y &^ laneHigh)) ^ ((x ^ y) & laneHigh)
}

// subLanes subtracts the four 16-bit lanes of y from those of x, each
// modulo 1<<16: x's top bits are set, so that no borrow crosses into the
// next lane, and the top bit of each lane is then fixed as in addLanes.
func subLanes(x, y uint64) uint64 {
	return ((x | laneHigh) - (y &^ laneHigh)) ^ ((x ^ ^y) & laneHigh)
}

// updateColsLoop is updateColsGo one int16 at a time: the reference the
// packed lanes are tested against, and what unaligned slices take.
func updateColsLoop(dst, src, w []int16, add, sub []int32) {
	n := len(dst)
	copy(dst, src[:n])
	for _, a := range add {
		col := w[a:][:n]
		for j := range dst {
			dst[j] += col[j]
		}
	}
	for _, s := range sub {
		col := w[s:][:n]
		for j := range dst {
			dst[j] -= col[j]
		}
	}
}

// clipUnitsGo sets dst[i] to src[i] clipped to [0, QA].
func clipUnitsGo(dst []uint8, src []int16) {
	dst = dst[:len(src)]
	for i, a := range src {
		dst[i] = uint8(max(0, min(QA, a)))
	}
}

// denseQuadsGo is one clipped-ReLU layer of len(dst) units (at most
// 256) over the inputs in: dst[o] is b[o] plus the dot product of in with
// unit o's weights, shifted right by shift (0..31) and clipped to [0, QA].
// The weights are in quadLayout's order.
func denseQuadsGo(dst, in []uint8, w []int8, b []int32, shift int) {
	n := len(dst)
	var sums [256]int32
	s := sums[:n]
	copy(s, b)
	for q := 0; q+4 <= len(in); q += 4 {
		x0, x1, x2, x3 := int32(in[q]), int32(in[q+1]), int32(in[q+2]), int32(in[q+3])
		if x0|x1|x2|x3 == 0 {
			continue
		}
		row := w[q*n:][:4*n]
		for o := range s {
			r := row[4*o:][:4]
			s[o] += x0*int32(r[0]) + x1*int32(r[1]) + x2*int32(r[2]) + x3*int32(r[3])
		}
	}
	for o, x := range s {
		dst[o] = uint8(max(0, min(QA, x>>(shift&31))))
	}
}

// pairLayout returns the weights w of n units over m inputs (unit o's
// weights at w[o·m:][:m], as a Head holds them) in the order densePairsGo
// reads: for each input, for each pair of units, one int64 word that is
// the first unit's weight plus the second's times 1<<32. The words are
// returned as their bytes, 8-byte aligned, so that every layout passes
// through denseQuads alike.
func pairLayout(w []int8, n, m int) []int8 {
	words := make([]int64, m*n/2)
	for i := range m {
		for p := range n / 2 {
			words[i*n/2+p] = int64(w[2*p*m+i]) + int64(w[(2*p+1)*m+i])<<32
		}
	}
	return unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(words))), 8*len(words))
}

// densePairsGo is denseQuadsGo with the weights in pairLayout's order:
// one 64-bit multiply and add does two units' products of an input. The
// low 32 bits of a word's sum are the first unit's sum exactly (its
// magnitude stays under 1<<31), and the rest, shifted down, the second's;
// no sum nears the int64 range. It skips each zero input.
func densePairsGo(dst, in []uint8, w []int8, b []int32, shift int) {
	n := len(dst)
	if n%2 != 0 || len(w) < 4*n*len(in) || uintptr(unsafe.Pointer(unsafe.SliceData(w)))%8 != 0 {
		panic("nn: densePairsGo: the weights are not in pairLayout's order")
	}
	words := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(w))), len(w)/8)
	var acc [128]int64
	a := acc[:n/2]
	for i, x := range in {
		if x == 0 {
			continue
		}
		xv := int64(x)
		row := words[i*len(a):][:len(a)]
		for p, wv := range row {
			a[p] += xv * wv
		}
	}
	dst, b = dst[:2*len(a)], b[:2*len(a)]
	for p, v := range a {
		lo := int32(v)
		hi := int32((v - int64(lo)) >> 32)
		dst[2*p] = uint8(max(0, min(QA, (b[2*p]+lo)>>(shift&31))))
		dst[2*p+1] = uint8(max(0, min(QA, (b[2*p+1]+hi)>>(shift&31))))
	}
}

// quadLayout returns the weights w of n units over m inputs (unit o's
// weights at w[o·m:][:m], as a Head holds them) in the order the dense
// kernels read them: for each four inputs, each unit's four weights.
func quadLayout(w []int8, n, m int) []int8 {
	out := make([]int8, len(w))
	for q := 0; q < m; q += 4 {
		for o := range n {
			copy(out[(q*n + 4*o):][:4], w[o*m+q:][:4])
		}
	}
	return out
}

// dotRowGo returns the dot product of in and w[:len(in)].
func dotRowGo(in []uint8, w []int8) int32 {
	w = w[:len(in)]
	var sum int32
	for i, x := range in {
		sum += int32(x) * int32(w[i])
	}
	return sum
}
