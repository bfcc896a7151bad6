package nn

import "testing"

// BenchmarkKernels times each kernel in use at the default layout's
// sizes, the plain Go's second layer by pairs of units beside the twin
// by groups of four inputs, and the column update's plain-Go twin (four
// lanes to a word) beside the loop one int16 at a time.
func BenchmarkKernels(b *testing.B) {
	l := defaultLayout
	in := make([]uint8, 2*l.Hidden)
	w2 := denseLayout(make([]int8, 2*l.Hidden*l.L2), l.L2, 2*l.Hidden)
	w3 := denseLayout(make([]int8, l.L2*l.L3), l.L3, l.L2)
	w4 := make([]int8, l.L3)
	wq := quadLayout(make([]int8, 2*l.Hidden*l.L2), l.L2, 2*l.Hidden)
	wp := pairLayout(make([]int8, 2*l.Hidden*l.L2), l.L2, 2*l.Hidden)
	bias := make([]int32, l.L2)
	out := make([]uint8, l.L2)
	for i := range in {
		in[i] = uint8(i % 128)
	}
	acc := make([]int16, l.Hidden)
	wf := make([]int16, Inputs*l.Hidden)
	add := []int32{int32(l.Hidden), int32(2 * l.Hidden)}
	sub := []int32{int32(5 * l.Hidden)}
	for _, k := range []struct {
		name string
		run  func()
	}{
		{"second", func() { denseQuads(out, in, w2, bias, FineShift) }},
		{"second-pairs", func() { densePairsGo(out, in, wp, bias, FineShift) }},
		{"second-quads", func() { denseQuadsGo(out, in, wq, bias, FineShift) }},
		{"third", func() { denseQuads(out, in[:l.L2], w3, bias, WeightShift) }},
		{"output", func() { dotRow(in[:l.L3], w4) }},
		{"update3", func() { updateCols(acc, acc, wf, add, sub) }},
		{"update3-twin", func() { updateColsGo(acc, acc, wf, add, sub) }},
		{"update3-loop", func() { updateColsLoop(acc, acc, wf, add, sub) }},
		{"clip", func() { clipUnits(in[:l.Hidden], acc) }},
	} {
		b.Run(k.name, func(b *testing.B) {
			cpu := startCPU(b)
			for range b.N {
				k.run()
			}
			cpu.report()
		})
	}
}
