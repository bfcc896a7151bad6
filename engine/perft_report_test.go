package engine

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var (
	divideLine = regexp.MustCompile(`^(\d+(?:[-x]\d+)+) (\d+)$`)
	perftTotal = regexp.MustCompile(`^nodes (\d+) time (\d+) nps (\d+)$`)
)

// TestWritePerftDivide checks that the divide lines sum to the total and
// agree with Divide, with one goroutine and with two.
func TestWritePerftDivide(t *testing.T) {
	for _, threads := range []int{1, 2} {
		var out strings.Builder
		start := StartPosition()
		WritePerft(&out, &start, 5, threads, true)
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		got := map[string]uint64{}
		var sum uint64
		for _, line := range lines[:len(lines)-1] {
			m := divideLine.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("divide line %q is not <move> <count>", line)
			}
			n, _ := strconv.ParseUint(m[2], 10, 64)
			got[m[1]] = n
			sum += n
		}
		last := perftTotal.FindStringSubmatch(lines[len(lines)-1])
		if last == nil {
			t.Fatalf("last line %q is not nodes <N> time <ms> nps <nps>", lines[len(lines)-1])
		}
		// Perft is checked against the published figures in perft_test.go.
		pos := StartPosition()
		if nodes, _ := strconv.ParseUint(last[1], 10, 64); nodes != sum || nodes != Perft(&pos, 5) {
			t.Errorf("threads %d: nodes %d, moves sum to %d, want %d", threads, nodes, sum, Perft(&pos, 5))
		}
		want := map[string]uint64{}
		for _, e := range Divide(&pos, 5, 1) {
			want[e.Move.String()] = e.Nodes
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("threads %d: divide (-Divide +WritePerft):\n%s", threads, diff)
		}
	}
}

func TestWritePerftFEN(t *testing.T) {
	var out strings.Builder
	if err := WritePerftFEN(&out, StartFEN, 3, 2, false); err != nil || !strings.HasPrefix(out.String(), "nodes 302 ") {
		t.Errorf("perft 3 of the start: %v, %q", err, out.String())
	}
	for _, c := range []struct {
		fen            string
		depth, threads int
		want           string
	}{
		{StartFEN, -1, 1, "--depth -1 is outside 0.."},
		{StartFEN, MaxPerftDepth + 1, 1, "is outside 0.."},
		{StartFEN, 1, 0, "--threads 0 is outside 1..1024"},
		{StartFEN, 1, 1025, "--threads 1025 is outside 1..1024"},
		{"X:W1:B2", 1, 1, "side to move"},
	} {
		if err := WritePerftFEN(&out, c.fen, c.depth, c.threads, false); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
