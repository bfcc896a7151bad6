//go:build js && wasm

// Command nechecb-wasm is the browser build of nechecb: the page's back end
// (internal/gui) with every evaluator, compiled to WebAssembly and run in a
// Web Worker of the exported site (nechecb gui --export DIR).
package main

import (
	"fmt"
	"os"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/gui"
)

func main() {
	if err := gui.RunWorker(all.DefaultSpec); err != nil {
		fmt.Fprintf(os.Stderr, "nechecb-wasm: %v\n", err)
		os.Exit(1)
	}
}
