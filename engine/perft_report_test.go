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
