package egdb

import (
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
