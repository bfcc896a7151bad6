//go:build goexperiment.simd && go1.27 && (wasm || arm64) && !purego

package nn

import "testing"

// A build with the SIMD experiment on wasm or arm64 runs the SIMD
// kernels: the build constraints wire them in, with no fallback to hide a
// mistake.
func TestSIMDKernelsRun(t *testing.T) {
	if !Fast() {
		t.Fatalf("the SIMD kernels do not run in this build (Kernels() = %q)", Kernels())
	}
}
