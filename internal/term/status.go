package term

import (
	"fmt"
	"io"
	"os"
	"time"
)

// StatusLine shows a changing one-line status, such as a long job's
// progress. On a terminal the line is redrawn in place; anywhere else (a
// log file, a pipe) it is written as a plain line at most once per
// Interval, and the last one by Done, so that logs hold no carriage
// returns or escape sequences.
type StatusLine struct {
	// Interval is the least time between two plain lines (30 seconds
	// from NewStatusLine).
	Interval time.Duration
	w        io.Writer
	terminal bool
	written  time.Time
	pending  string // the last line, not yet written (not a terminal)
	drawn    bool   // a line stands on the terminal
}

// NewStatusLine draws on w, redrawing in place when w is a terminal.
func NewStatusLine(w io.Writer) *StatusLine {
	f, ok := w.(*os.File)
	return &StatusLine{w: w, terminal: ok && IsTerminal(f), Interval: 30 * time.Second}
}

// Terminal reports whether the line is redrawn in place.
func (s *StatusLine) Terminal() bool { return s.terminal }

// Update shows line.
func (s *StatusLine) Update(line string) {
	if s.terminal {
		fmt.Fprintf(s.w, "\r%s\x1b[K", line)
		s.drawn = true
		return
	}
	s.pending = line
	if now := time.Now(); now.Sub(s.written) >= s.Interval {
		fmt.Fprintln(s.w, line)
		s.written, s.pending = now, ""
	}
}

// Done ends the status: the line on a terminal is left in place and the
// cursor moved below it; elsewhere the last line is written if it was not.
func (s *StatusLine) Done() {
	switch {
	case s.drawn:
		fmt.Fprintln(s.w)
		s.drawn = false
	case s.pending != "":
		fmt.Fprintln(s.w, s.pending)
		s.pending = ""
	}
}
