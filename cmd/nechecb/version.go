package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/debug"

	buildversion "github.com/nechecb/nechecb/internal/version"
)

func init() {
	register(&command{name: "version", summary: "print the version, module version and commit, taken from the build", run: runVersion})
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
	return 0
}
