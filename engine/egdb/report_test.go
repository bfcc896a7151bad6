package egdb

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
)

func TestWriteSizesCountsEachFileOnce(t *testing.T) {
	two := Material{BK: 1, WK: 1}
	three := Material{BK: 2, WK: 1}
	stats := []SliceStats{
		{Slice: two, Side: engine.Black, Wins: 1, Losses: 2, Draws: 3, Bytes: 10},
		{Slice: two, Side: engine.White, Wins: 4, Bytes: 10},
		{Slice: three, Side: engine.Black, Draws: 8, Captures: 5, Bytes: 4},
	}
	var b strings.Builder
	WriteSizes(&b, stats)
	want := "2 pieces: 10 positions stored, 10 bytes (8.00 bits a position)\n" +
		"3 pieces: 8 positions stored, 4 bytes (4.00 bits a position)\n" +
		"total: 14 bytes\n"
	if b.String() != want {
		t.Errorf("sizes:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestProgressLines(t *testing.T) {
	p := Progress{SlicesDone: 3, Slices: 9, Done: 1500, Total: 4000, Rate: 2.5e6, Memory: 64 << 20,
		Elapsed: 1500 * time.Millisecond, ETA: 61 * time.Second}
	if got, want := p.String(), "egdb 3/9 slices, -, 1500/4000 positions, 2.50M/s, 64 MB, 2s, eta 1m1s"; got != want {
		t.Errorf("build line %q, want %q", got, want)
	}
	v := VerifyProgress{Done: 7, Total: 10, Problems: 1, Elapsed: 3 * time.Second}
	if got, want := v.String(), "verify 7/10 positions, 1 problems, 3s"; got != want {
		t.Errorf("verify line %q, want %q", got, want)
	}
}

// TestBuildProbeVerifyReports builds the 2-piece database through
// BuildReporting and checks the reports of the build, a probe and the
// verification.
func TestBuildProbeVerifyReports(t *testing.T) {
	dir := t.TempDir()
	var out, log strings.Builder
	o := BuildOptions{Dir: dir, Pieces: 2, Threads: 1, MemoryMB: 16}
	if err := BuildReporting(context.Background(), o, -1, &out, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "built 2 pieces in ") || !strings.Contains(out.String(), "\ntotal: ") {
		t.Errorf("build report:\n%s", out.String())
	}
	if log.String() != "" {
		t.Errorf("build with progress off wrote to stderr: %q", log.String())
	}
	if err := BuildReporting(context.Background(), o, -1, &out, &log); err == nil {
		t.Error("a second build into a full directory without Resume succeeded")
	}
	db, err := Open(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := engine.ParseFEN("W:WK29:BK1")
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	v := db.WriteProbe(&out, &p)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	var l engine.MoveList
	p.Generate(&l)
	if v == Unknown || len(lines) != 1+len(l.Slice()) || lines[0] != v.String()+" "+p.FEN() {
		t.Errorf("probe gives %v and\n%s", v, out.String())
	}
	out.Reset()
	if !db.VerifyReporting(context.Background(), 1, &out, &log) || !strings.HasPrefix(out.String(), "ok: 2 pieces, ") {
		t.Errorf("verify report:\n%s", out.String())
	}
}
