//go:build !race

// The race detector maps shadow memory on the table's first writes, which
// this test would count as the table's own faults.

package search

import (
	"syscall"
	"testing"
)

func TestTableIsMappedWhenMade(t *testing.T) {
	// A search must not pay for mapping the table: the first probes of a
	// fresh table fault no pages in. A 64 MB table left to fault lazily
	// takes at least 32 faults with 2 MB pages and 16384 with 4 KB ones.
	tab := newTable(64)
	before := minorFaults(t)
	for i := 0; i < len(tab.buckets); i += pageBuckets {
		tab.buckets[i][1].data.Store(uint64(i))
	}
	if n := minorFaults(t) - before; n > 16 {
		t.Errorf("writing to every page of a new 64 MB table took %d page faults, want at most 16", n)
	}
}

// minorFaults returns the process's minor page faults so far.
func minorFaults(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Minflt
}
