//go:build !linux

package search

// adviseHugePages does nothing where the system has no madvise advice for
// huge pages (see tt_linux.go).
func adviseHugePages([]bucket) {}
