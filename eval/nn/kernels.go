package nn

// The kernels of the integer inference, in plain Go. On amd64 with AVX2
// (and without the purego tag) kernels_amd64.s does the same work; these
// are its twins, used on other platforms, on CPUs without AVX2 and under
// -tags purego, and the reference the assembly is tested against. Both
// give exactly the values of (*Net).Output: int16 sums wrap alike, and the
// int32 sums of the dense layers never overflow.

// updateColsGo sets dst to src plus the columns of w that start at the
// offsets in add, minus those at the offsets in sub; each column has
// len(dst) weights. dst and src may be the same slice.
func updateColsGo(dst, src, w []int16, add, sub []int32) {
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

// denseRowsGo is one clipped-ReLU layer: dst[o] is b[o] plus the dot product
// of in with row o of w (len(in) weights a row), shifted right by
// WeightShift and clipped to [0, QA].
func denseRowsGo(dst, in []uint8, w []int8, b []int32) {
	m := len(in)
	for o := range dst {
		dst[o] = uint8(max(0, min(QA, (b[o]+dotRowGo(in, w[o*m:][:m]))>>WeightShift)))
	}
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
