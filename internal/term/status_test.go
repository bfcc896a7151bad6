package term

import (
	"strings"
	"testing"
	"time"
)

func TestStatusLine(t *testing.T) {
	// Not a terminal: plain lines, the first at once, then at most one per
	// interval, and the last one at the end.
	var log strings.Builder
	s := NewStatusLine(&log)
	s.Interval = time.Hour
	if s.Terminal() {
		t.Fatal("a strings.Builder counts as a terminal")
	}
	for _, line := range []string{"one", "two", "three"} {
		s.Update(line)
	}
	s.Done()
	s.Done()
	if log.String() != "one\nthree\n" {
		t.Errorf("status into a log: %q", log.String())
	}
	// A terminal: redrawn in place, then left standing.
	var term strings.Builder
	s = &StatusLine{w: &term, terminal: true}
	s.Update("one")
	s.Update("two")
	s.Done()
	if term.String() != "\rone\x1b[K\rtwo\x1b[K\n" {
		t.Errorf("status on a terminal: %q", term.String())
	}
	// Nothing shown, nothing written.
	var none strings.Builder
	(&StatusLine{w: &none, terminal: true}).Done()
	if none.Len() != 0 {
		t.Errorf("an unused status wrote %q", none.String())
	}
}
