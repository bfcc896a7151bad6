package egdb

import (
	"context"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/term"
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

// BuildReporting builds the databases as Build does, then writes the time
// taken and the sizes (WriteSizes) to stdout. Progress goes to stderr on a
// status line every period: every second on a terminal and every 30s
// otherwise when period is 0, never when it is negative. In a log the first
// line comes after one period, so a short build writes none. Options the
// build command does not take are refused first, naming the flag (see
// command.go).
func BuildReporting(ctx context.Context, o BuildOptions, period time.Duration, stdout, stderr io.Writer) error {
	if err := o.checkFlags(); err != nil {
		return err
	}
	line := term.NewStatusLine(stderr)
	if period == 0 {
		period = 30 * time.Second
		if line.Terminal() {
			period = time.Second
		}
	}
	if period > 0 {
		o.ProgressEvery, line.Interval = period, period
		o.Progress = func(p Progress) {
			if line.Terminal() || p.Elapsed >= period {
				line.Update(p.String())
			}
		}
	}
	start := time.Now()
	err := Build(ctx, o)
	line.Done()
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	db, err := Open(o.Dir, 1)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(stdout, "built %d pieces in %s: %s\n", o.Pieces, elapsed.Round(time.Millisecond), o.Dir)
	WriteSizes(stdout, db.Stats())
	return nil
}

// WriteProbe writes p's value with its FEN, then a line for each of its
// moves with the move's value for the side that plays it. It returns p's
// value.
func (db *DB) WriteProbe(w io.Writer, p *engine.Position) Value {
	v := db.Probe(p)
	fmt.Fprintf(w, "%s %s\n", v, p.FEN())
	var l engine.MoveList
	p.Generate(&l)
	for _, m := range l.Slice() {
		q := p.Play(m)
		fmt.Fprintf(w, "%s %s\n", m, db.Probe(&q).Neg())
	}
	return v
}

// VerifyReporting verifies the database with threads goroutines as Verify
// does, showing progress on a status line on stderr (in a log, from one
// period on), and writes each problem and the verdict to stdout. It reports
// whether the database passed.
func (db *DB) VerifyReporting(ctx context.Context, threads int, stdout, stderr io.Writer) bool {
	line := term.NewStatusLine(stderr)
	progress := func(p VerifyProgress) {
		if line.Terminal() || p.Elapsed >= line.Interval {
			line.Update(p.String())
		}
	}
	start := time.Now()
	errs := db.Verify(ctx, threads, progress)
	line.Done()
	for _, e := range errs {
		fmt.Fprintf(stdout, "problem: %v\n", e)
	}
	if len(errs) > 0 {
		fmt.Fprintf(stdout, "failed: %d problems\n", len(errs))
		return false
	}
	var positions uint64
	for _, s := range db.Stats() {
		positions += s.Positions()
	}
	fmt.Fprintf(stdout, "ok: %d pieces, %d positions consistent, checksums good, in %s\n", db.Pieces(), positions, time.Since(start).Round(time.Millisecond))
	return true
}
