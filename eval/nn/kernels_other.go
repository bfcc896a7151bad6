//go:build !amd64 || purego

package nn

// Without the assembly, the kernels are their plain-Go twins.

// hasAVX2 reports whether the assembly kernels run: never in this build.
const hasAVX2 = false

func updateCols(dst, src, w []int16, add, sub []int32) { updateColsGo(dst, src, w, add, sub) }
func clipUnits(dst []uint8, src []int16)               { clipUnitsGo(dst, src) }
func denseQuads(dst, in []uint8, w []int8, b []int32, shift int) {
	denseQuadsGo(dst, in, w, b, shift)
}
func dotRow(in []uint8, w []int8) int32 { return dotRowGo(in, w) }
