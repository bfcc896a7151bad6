package main

import (
	"strings"
	"testing"
)

func TestEgdbCommandRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "want a subcommand"},
		{[]string{"bogus"}, `unknown command "bogus"`},
		{[]string{"build"}, "--dir is required"},
		{[]string{"build", "--dir", dir, "--pieces", "9"}, "--pieces 9 is outside 2..8"},
		{[]string{"build", "--dir", dir, "--threads", "0"}, "--threads 0 is outside 1..1024"},
		{[]string{"build", "--dir", dir, "--memory", "3"}, "--memory 3 is below 16 MB"},
		{[]string{"build", "--dir", dir, "extra"}, `unexpected argument "extra"`},
		{[]string{"probe", "--dir", dir}, "--fen is required"},
		{[]string{"probe", "--dir", dir, "--fen", "X:W1:B2"}, "side to move must be W or B"},
		{[]string{"probe", "--fen", "B:W18:B1"}, "--dir is required"},
		{[]string{"probe", "--dir", dir, "--fen", "B:W18:B1"}, "holds no endgame database files"},
		{[]string{"verify", "--dir", dir + "/none"}, "no such file or directory"},
		{[]string{"stats"}, "--dir is required"},
	} {
		var out, errs strings.Builder
		status := egdbCommand(tc.args, &out, &errs)
		if status != 2 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("egdb %q: status %d, errors %q; want status 2 naming %q", tc.args, status, errs.String(), tc.want)
		}
	}
}

func TestEgdbCommandBuildProbeVerifyStats(t *testing.T) {
	dir := t.TempDir()
	var out, errs strings.Builder
	if status := egdbCommand([]string{"build", "--pieces", "3", "--dir", dir, "--threads", "2"}, &out, &errs); status != 0 {
		t.Fatalf("build: status %d: %s", status, errs.String())
	}
	if !strings.Contains(out.String(), "3 pieces: ") || errs.Len() != 0 {
		t.Errorf("build output %q, errors %q", out.String(), errs.String())
	}
	errs.Reset()
	if status := egdbCommand([]string{"build", "--pieces", "3", "--dir", dir}, &out, &errs); status != 2 || !strings.Contains(errs.String(), "--resume") {
		t.Errorf("building again into the same directory: status %d, errors %q", status, errs.String())
	}
	errs.Reset()
	if status := egdbCommand([]string{"build", "--pieces", "3", "--dir", dir, "--resume"}, &out, &errs); status != 0 {
		t.Errorf("resuming a finished build: status %d, errors %q", status, errs.String())
	}
	// Two kings against one: the side with two wins. The value comes
	// first, then one line for each of the four moves, one of which at
	// least keeps the win.
	out.Reset()
	errs.Reset()
	if status := egdbCommand([]string{"probe", "--dir", dir, "--fen", "B:WK18:BK1,K3"}, &out, &errs); status != 0 {
		t.Fatalf("probe: status %d: %s", status, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1+4 || !strings.HasPrefix(lines[0], "win ") {
		t.Errorf("probe printed %q, want the value (win) and four moves", out.String())
	}
	wins := 0
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("move line %q is not <move> <value>", l)
		}
		if f[1] == "win" {
			wins++
		}
	}
	if wins == 0 {
		t.Errorf("a won position with no winning move: %q", out.String())
	}
	// More pieces than the database holds: the answer is unknown, with
	// the reason on stderr, and the probe itself succeeded (status 0).
	out.Reset()
	errs.Reset()
	if status := egdbCommand([]string{"probe", "--dir", dir, "--fen", "B:W18,19,20:BK1,K3"}, &out, &errs); status != 0 || !strings.HasPrefix(out.String(), "unknown") ||
		!strings.Contains(errs.String(), "does not cover this position") {
		t.Errorf("probing 5 pieces in 3: status %d, output %q, errors %q", status, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	if status := egdbCommand([]string{"verify", "--dir", dir}, &out, &errs); status != 0 || !strings.Contains(out.String(), "ok: 3 pieces") {
		t.Errorf("verify: status %d, output %q, errors %q", status, out.String(), errs.String())
	}
	out.Reset()
	if status := egdbCommand([]string{"stats", "--dir", dir}, &out, &errs); status != 0 || !strings.Contains(out.String(), "b2k-w1k") {
		t.Errorf("stats: status %d, output %q", status, out.String())
	}
}
