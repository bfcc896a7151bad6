//go:build (!amd64 || purego) && !(goexperiment.simd && go1.27 && (wasm || arm64) && !purego)

package nn

// Without the assembly (amd64) or the SIMD experiment's kernels (wasm and
// arm64 under Go 1.27), the kernels are their plain-Go twins.

// useSIMD reports whether the SIMD kernels run: never in this build. It
// is a variable only so that the tests that switch it compile everywhere.
var useSIMD = false

// kernelName would name this build's SIMD kernels, which it has not.
const kernelName = plainGo

// denseLayout returns the weights w of n units over m inputs (as a Head
// holds them) in the order denseQuads reads: pairLayout's.
func denseLayout(w []int8, n, m int) []int8 { return pairLayout(w, n, m) }

func updateCols(dst, src, w []int16, add, sub []int32) { updateColsGo(dst, src, w, add, sub) }
func clipUnits(dst []uint8, src []int16)               { clipUnitsGo(dst, src) }
func denseQuads(dst, in []uint8, w []int8, b []int32, shift int) {
	densePairsGo(dst, in, w, b, shift)
}
func dotRow(in []uint8, w []int8) int32 { return dotRowGo(in, w) }
