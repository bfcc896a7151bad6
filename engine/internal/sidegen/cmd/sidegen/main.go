// Command sidegen writes the White twin of a Black source file:
// sidegen perft_black.go perft_white.go. It is run by go generate in engine/.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nechecb/nechecb/engine/internal/sidegen"
	"github.com/nechecb/nechecb/internal/fileio"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: sidegen BLACK.go WHITE.go")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	code, err := sidegen.Swap(src, filepath.Base(in))
	if err != nil {
		return err
	}
	return fileio.WriteAtomic(out, code)
}
