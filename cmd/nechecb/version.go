package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/eval/nn"
	buildversion "github.com/nechecb/nechecb/internal/version"
)

func init() {
	register(&command{name: "version", summary: "print the version, module version and commit, taken from the build, and the evaluator's kernels", run: runVersion})
}

// version is the engine's version, from the build (internal/version).
var version = buildversion.String

func runVersion(args []string) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Print(buildversion.Report(info))
	fmt.Print(kernelsLine())
	return 0
}

// kernelsLine names the neural net's kernels in this binary on this CPU
// (AVX2, NEON, wasm SIMD or plain Go) and the default evaluator.
func kernelsLine() string {
	return fmt.Sprintf("nn kernels %s; default evaluator %s\n", nn.Kernels(), all.DefaultSpec)
}
