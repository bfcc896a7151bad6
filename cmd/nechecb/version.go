package main

import (
	"flag"
	"fmt"
	"os"

	buildversion "github.com/nechecb/nechecb/internal/version"
)

func init() {
	register(&command{name: "version", summary: "print the version, taken from the build (module version, VCS revision)", run: runVersion})
}

// version is the engine's version, from the build (internal/version).
var version = buildversion.String

func runVersion(args []string) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	fmt.Printf("nechecb %s\n", version)
	return 0
}
