package nn

import "testing"

// BenchmarkKernels times each kernel in use at the default layout's
// sizes, and the column update's plain-Go twin (four lanes to a word)
// beside the loop one int16 at a time.
func BenchmarkKernels(b *testing.B) {
	l := defaultLayout
	in := make([]uint8, 2*l.Hidden)
	w := make([]int8, 2*l.Hidden*l.L2)
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
		{"second", func() { denseQuads(out, in, w, bias, FineShift) }},
		{"third", func() { denseQuads(out, in[:l.L2], w, bias, WeightShift) }},
		{"output", func() { dotRow(in[:l.L3], w) }},
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
