//go:build js && wasm

// Command nechecb-wasm is the browser build of nechecb: the page's back end
// (internal/gui) with every evaluator, compiled to WebAssembly and run in a
// Web Worker of the exported site (nechecb gui --export DIR). Its default
// evaluator is the worker's own choice (gui.BrowserEval), not
// all.DefaultSpec: the net's SIMD kernels there are WebAssembly's
// SIMD128, whose speed against pattern's a gate in the browser judges.
package main

import (
	"fmt"
	"os"

	_ "github.com/nechecb/nechecb/eval/all" // every evaluator, for the Eval setting
	"github.com/nechecb/nechecb/internal/gui"
)

func main() {
	if err := gui.RunWorker(gui.BrowserEval()); err != nil {
		fmt.Fprintf(os.Stderr, "nechecb-wasm: %v\n", err)
		os.Exit(1)
	}
}
