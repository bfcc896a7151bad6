//go:build !race

// The race detector maps shadow memory on the table's first writes, which
// these tests would count as the table's own faults.

package search

import (
	"syscall"
	"testing"

	"github.com/nechecb/nechecb/internal/testbin"
)

func TestTableIsMappedBeforeSearch(t *testing.T) {
	// A search must not pay for mapping the table: after Prepare, the first
	// probes of a fresh table fault no pages in. A 64 MB table left to
	// fault lazily takes at least 32 faults with 2 MB pages and 16384 with
	// 4 KB ones.
	s := New(Options{HashMB: 64}, nil)
	s.Prepare()
	if n := writeEveryPage(t, s.tt); n > 16 {
		t.Errorf("writing to every page of a prepared 64 MB table took %d page faults, want at most 16", n)
	}
}

func TestTableIsNotMappedUntilNeeded(t *testing.T) {
	// A GUI sets Hash after the engine made its default table: that table
	// must not have been mapped (mapping 64 MB takes at least 32 faults,
	// with 2 MB pages), and the one in force is mapped when a search begins.
	// Memory that other tests freed is mapped already, so the check runs in
	// a fresh process.
	if !testbin.InFreshProcess(t) {
		return
	}
	s := New(Options{HashMB: 64}, nil)
	if n := writeEveryPage(t, s.tt); n < 32 {
		t.Errorf("writing to every page of a table no search used took %d page faults, want at least 32: it was mapped when made", n)
	}
	s.SetOptions(Options{HashMB: 32})
	s.tt.newSearch()
	if n := writeEveryPage(t, s.tt); n > 16 {
		t.Errorf("writing to every page of the table after a search began took %d page faults, want at most 16", n)
	}
}

// writeEveryPage writes to one entry of each page of tab and returns the
// page faults that took.
func writeEveryPage(t *testing.T, tab *table) int64 {
	before := minorFaults(t)
	for i := 0; i < len(tab.buckets); i += pageBuckets {
		tab.buckets[i][1].data.Store(uint64(i))
	}
	return minorFaults(t) - before
}

// minorFaults returns the process's minor page faults so far.
func minorFaults(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Minflt
}
