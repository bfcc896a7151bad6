//go:build js

package cputime

import (
	"testing"
	"time"
)

// TestSelfGrowsUnderNode checks that under node (how Go's js/wasm tests
// run) work done by the program shows in Self, and that Children cannot
// tell.
func TestSelfGrowsUnderNode(t *testing.T) {
	before, ok := Self()
	if !ok {
		t.Fatal("Self cannot tell under node")
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
	if _, ok := Children(); ok {
		t.Error("Children tells under node, which does not know the children's time")
	}
}
