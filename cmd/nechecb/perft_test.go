package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
)

func TestPerftCommandRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // part of the error line that names the problem
	}{
		{[]string{"--depth", "x"}, `invalid value "x" for flag -depth`},
		{[]string{"--depth", "-1"}, "--depth -1 is outside 0..64"},
		{[]string{"--depth", "65"}, "--depth 65 is outside 0..64"},
		{[]string{"--threads", "0"}, "--threads 0 is outside 1..1024"},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"--depth", "3", "extra"}, `unexpected argument "extra"`},
		{[]string{"--fen", "X:W21:B1"}, "side to move must be W or B"},
		{[]string{"--fen", "B:W21:B1,1"}, "square 1 is given twice"},
		{[]string{"--fen", "B:W21:B1-13"}, "black has 13 pieces, more than 12"},
		{[]string{"--fen", "B:W33:B1"}, "square 33 is outside 1..32"},
		{[]string{"--fen", "B:W1:B2"}, "white man on square 1 stands on its crowning row"},
		{[]string{"--fen", ""}, "fen: empty"},
	} {
		var out, errs strings.Builder
		status := perftCommand(tc.args, &out, &errs)
		lines := strings.Split(strings.TrimSuffix(errs.String(), "\n"), "\n")
		if status != 2 || out.Len() != 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "nechecb perft: ") || !strings.Contains(lines[0], tc.want) {
			t.Errorf("perft %q: status %d, out %q, errors %q; want status 2 and one error line naming %q", tc.args, status, out.String(), errs.String(), tc.want)
		}
	}
}

func TestPerftCommandThroughRun(t *testing.T) {
	if status := run([]string{"perft", "--depth", "nine"}); status != 2 {
		t.Errorf("nechecb perft --depth nine: status %d, want 2", status)
	}
}

var (
	divideLine = regexp.MustCompile(`^(\d+(?:[-x]\d+)+) (\d+)$`)
	summary    = regexp.MustCompile(`^nodes (\d+) time (\d+) nps (\d+)$`)
)

func TestPerftCommandDivide(t *testing.T) {
	for _, threads := range []string{"1", "2"} {
		var out, errs strings.Builder
		if status := perftCommand([]string{"--depth", "5", "--divide", "--threads", threads}, &out, &errs); status != 0 {
			t.Fatalf("status %d: %s", status, errs.String())
		}
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
		last := summary.FindStringSubmatch(lines[len(lines)-1])
		if last == nil {
			t.Fatalf("last line %q is not nodes <N> time <ms> nps <nps>", lines[len(lines)-1])
		}
		// The engine's own count, which engine/perft_test.go checks against
		// the published figures of engine/testdata/perft.txt.
		pos := engine.StartPosition()
		if nodes, _ := strconv.ParseUint(last[1], 10, 64); nodes != sum || nodes != engine.Perft(&pos, 5) {
			t.Errorf("threads %s: nodes %d, moves sum to %d, want %d", threads, nodes, sum, engine.Perft(&pos, 5))
		}
		want := map[string]uint64{}
		for _, e := range engine.Divide(&pos, 5, 1) {
			want[e.Move.String()] = e.Nodes
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("threads %s: divide (-engine +command):\n%s", threads, diff)
		}
	}
}
