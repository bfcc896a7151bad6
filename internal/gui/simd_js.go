//go:build js && wasm && goexperiment.simd

package gui

// builtSIMD says whether this browser build was compiled with
// GOEXPERIMENT=simd (WebAssembly's 128-bit SIMD instructions).
const builtSIMD = true
