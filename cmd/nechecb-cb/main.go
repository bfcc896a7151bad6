// Command nechecb-cb is nechecb as a CheckerBoard engine: built with
// -buildmode=c-shared it is a shared library (a Windows DLL, or a Linux .so
// for the test harness) exporting getmove, enginecommand and enginename as
// the CheckerBoard engine API (protocol version 2) defines them.
// docs/checkerboard.md gives the build commands. This package is the thin
// cgo layer: it checks the host's pointers, copies to and from the host's
// memory and recovers from any panic; internal/cbapi does the work.
package main

import buildversion "github.com/nechecb/nechecb/internal/version"

// version is the engine's version, the same as the binary's.
var version = buildversion.String

// main is never called in a shared library; a plain build of the package
// gives a program that does nothing.
func main() {}
