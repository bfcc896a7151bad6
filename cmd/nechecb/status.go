package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nechecb/nechecb/internal/term"
)

// statusLine shows a changing one-line status, such as a long job's
// progress. On a terminal the line is redrawn in place; anywhere else (a
// log file, a pipe) it is written as a plain line at most once per
// interval, and the last one by Done, so that logs hold no carriage
// returns or escape sequences.
type statusLine struct {
	w        io.Writer
	terminal bool
	interval time.Duration
	written  time.Time
	pending  string // the last line, not yet written (not a terminal)
	drawn    bool   // a line stands on the terminal
}

// newStatusLine draws on w, redrawing in place when w is a terminal.
func newStatusLine(w io.Writer) *statusLine {
	f, ok := w.(*os.File)
	return &statusLine{w: w, terminal: ok && term.IsTerminal(f), interval: 30 * time.Second}
}

// Update shows line.
func (s *statusLine) Update(line string) {
	if s.terminal {
		fmt.Fprintf(s.w, "\r%s\x1b[K", line)
		s.drawn = true
		return
	}
	s.pending = line
	if now := time.Now(); now.Sub(s.written) >= s.interval {
		fmt.Fprintln(s.w, line)
		s.written, s.pending = now, ""
	}
}

// Done ends the status: the line on a terminal is left in place and the
// cursor moved below it; elsewhere the last line is written if it was not.
func (s *statusLine) Done() {
	switch {
	case s.drawn:
		fmt.Fprintln(s.w)
		s.drawn = false
	case s.pending != "":
		fmt.Fprintln(s.w, s.pending)
		s.pending = ""
	}
}
