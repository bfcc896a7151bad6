package egdb

import (
	"fmt"
	"io"
	"sort"
	"time"
)

// String is the build's one-line report.
func (p Progress) String() string {
	slice := p.Slice
	if slice == "" {
		slice = "-"
	}
	return fmt.Sprintf("egdb %d/%d slices, %s, %d/%d positions, %.2fM/s, %d MB, %s, eta %s",
		p.SlicesDone, p.Slices, slice, p.Done, p.Total, p.Rate/1e6, p.Memory>>20,
		p.Elapsed.Round(time.Second), p.ETA.Round(time.Second))
}

// String is the verification's one-line report.
func (p VerifyProgress) String() string {
	return fmt.Sprintf("verify %d/%d positions, %d problems, %s", p.Done, p.Total, p.Problems, p.Elapsed.Round(time.Second))
}

// Positions is the table's stored positions: its wins, losses and draws.
func (s SliceStats) Positions() uint64 { return s.Wins + s.Losses + s.Draws }

// WriteStats writes a line of counts for every table, then the sizes by
// piece count (WriteSizes).
func WriteStats(w io.Writer, stats []SliceStats) {
	fmt.Fprintf(w, "%-14s %-5s %12s %12s %12s %12s %10s\n", "slice", "side", "wins", "losses", "draws", "captures", "bytes")
	for _, s := range stats {
		fmt.Fprintf(w, "%-14s %-5s %12d %12d %12d %12d %10d\n", s.Slice, s.Side, s.Wins, s.Losses, s.Draws, s.Captures, s.Bytes)
	}
	WriteSizes(w, stats)
}

// WriteSizes writes the positions and bytes of the stored slices by piece
// count, and the bytes of all. A slice's file counts once although both of
// its tables name it.
func WriteSizes(w io.Writer, stats []SliceStats) {
	type total struct {
		positions uint64
		bytes     int64
	}
	by := map[int]*total{}
	seen := map[Material]bool{}
	for _, s := range stats {
		n := s.Slice.Pieces()
		if by[n] == nil {
			by[n] = &total{}
		}
		by[n].positions += s.Positions()
		if !seen[s.Slice] {
			seen[s.Slice] = true
			by[n].bytes += s.Bytes
		}
	}
	var ns []int
	for n := range by {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	var all int64
	for _, n := range ns {
		all += by[n].bytes
		fmt.Fprintf(w, "%d pieces: %d positions stored, %d bytes (%.2f bits a position)\n", n, by[n].positions, by[n].bytes, 8*float64(by[n].bytes)/float64(max(1, by[n].positions)))
	}
	fmt.Fprintf(w, "total: %d bytes\n", all)
}
