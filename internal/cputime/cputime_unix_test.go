//go:build unix

package cputime

import (
	"testing"
	"time"
)

// TestSelfGrows checks that work done by the process shows in Self, and
// that Children answers too.
func TestSelfGrows(t *testing.T) {
	before, ok := Self()
	if !ok {
		t.Fatal("Self cannot tell on a unix system")
	}
	x := uint64(1)
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	after, ok := Self()
	if !ok || after <= before {
		t.Errorf("CPU time went from %v to %v (ok %v) across 50 ms of work (x=%d)", before, after, ok, x)
	}
	if c, ok := Children(); !ok || c < 0 {
		t.Errorf("Children: %v, %v", c, ok)
	}
}
