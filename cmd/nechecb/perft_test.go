package main

import (
	"strings"
	"testing"
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
