//go:build unix || js

package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestSelfGrows checks that work done by the process shows in Self, on a
// unix system and under node (how Go's js/wasm tests run), and that
// Children answers on unix and cannot tell under node, which does not know
// the children's time.
func TestSelfGrows(t *testing.T) {
	before, ok := Self()
	if !ok {
		t.Fatalf("Self cannot tell on %s", runtime.GOOS)
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
	c, ok := Children()
	if runtime.GOOS == "js" {
		if ok {
			t.Error("Children tells under node, which does not know the children's time")
		}
	} else if !ok || c < 0 {
		t.Errorf("Children: %v, %v", c, ok)
	}
}
