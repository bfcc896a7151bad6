package session

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/internal/testbin"
)

func TestReadySessionMapsTheNewTable(t *testing.T) {
	// A front end's start-up settings map no table: a GUI's Hash would
	// replace it. From Ready on, a Hash set through the session (the
	// console's set, the browser board, CheckerBoard's settings) is mapped
	// at once, not on the next move's clock: the process's resident memory
	// grows by the table. Memory that other tests freed may be resident
	// already, so the check runs in a fresh process.
	if !testbin.InFreshProcess(t) {
		return
	}
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		what     string
		do       func() error
		min, max int // how many MB the process may grow by
	}{
		{"setting Hash 32 at start-up", func() error { _, err := s.Set("Hash", "32"); return err }, 0, 8},
		// No upper bound where a table is mapped: the race detector's
		// shadow memory grows with it.
		{"Ready", func() error { s.Ready(); return nil }, 24, 1 << 20},
		{"setting Hash 128 once ready", func() error { _, err := s.Set("Hash", "128"); return err }, 96, 1 << 20},
	}
	for _, st := range steps {
		before := residentMB(t)
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.what, err)
		}
		if grew := residentMB(t) - before; grew < st.min || grew > st.max {
			t.Errorf("%s made the process %d MB larger, want %d to %d", st.what, grew, st.min, st.max)
		}
	}
}

// residentMB returns the process's resident memory in MB.
func residentMB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		t.Fatalf("/proc/self/statm: %q", b)
	}
	pages, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatalf("/proc/self/statm: %v", err)
	}
	return pages * os.Getpagesize() >> 20
}
