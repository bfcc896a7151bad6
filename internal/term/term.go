// Package term answers the one question nechecb asks about its standard
// streams: is this file a terminal? The console, the protocol's default mode
// and the progress lines all decide by it. It also draws those progress
// lines (StatusLine): redrawn in place on a terminal, plain lines in a log.
package term

import "os"

// IsTerminal reports whether f is a character device, that is a terminal
// (or a console on Windows), rather than a pipe or a file.
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
