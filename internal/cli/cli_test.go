package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/internal/badinput"
)

func TestParseFlags(t *testing.T) {
	type outcome struct {
		Status         int
		OK             bool
		Stdout, Stderr string
	}
	run := func(args ...string) outcome {
		fs := flag.NewFlagSet("demo", flag.ContinueOnError)
		fs.Int("depth", 3, "depth in plies")
		var stdout, stderr bytes.Buffer
		status, ok := ParseFlags(fs, args, "", &stdout, &stderr)
		return outcome{status, ok, stdout.String(), stderr.String()}
	}
	for _, tc := range []struct {
		args []string
		want outcome
	}{
		{[]string{"--depth", "5"}, outcome{Status: 0, OK: true}},
		{[]string{"--bogus"}, outcome{Status: 2, Stderr: "nechecb demo: flag provided but not defined: -bogus\n"}},
		{[]string{"extra"}, outcome{Status: 2, Stderr: "nechecb demo: unexpected argument \"extra\"\n"}},
		{[]string{"--depth", "x"}, outcome{Status: 2, Stderr: "nechecb demo: invalid value \"x\" for flag -depth: parse error\n"}},
	} {
		if diff := cmp.Diff(tc.want, run(tc.args...)); diff != "" {
			t.Errorf("ParseFlags(%q) (-want +got):\n%s", tc.args, diff)
		}
	}
	help := run("-h")
	if help.Status != 0 || help.OK || !strings.HasPrefix(help.Stdout, "usage: nechecb demo [flags]") || !strings.Contains(help.Stdout, "-depth") || help.Stderr != "" {
		t.Errorf("ParseFlags(-h) = %+v, want status 0 and the usage on stdout", help)
	}
}

// TestDispatch: a command, a subcommand of a group, -h, and a missing or
// unknown command, each with its exit status and output.
func TestDispatch(t *testing.T) {
	var ran []string
	leaf := func(name string, status int) func([]string) int {
		return func(args []string) int {
			ran = append(ran, name+" "+strings.Join(args, " "))
			return status
		}
	}
	subs := []*Command{
		{Name: "book", Summary: "books", Subs: []*Command{{Name: "probe", Summary: "probe a book", Run: leaf("probe", 0)}}},
		{Name: "perft", Summary: "count moves", Run: leaf("perft", 1)},
	}
	for _, tc := range []struct {
		args           []string
		status         int
		ran            string
		stdout, stderr string // held by the output
	}{
		{[]string{"perft", "--depth", "3"}, 1, "perft --depth 3", "", ""},
		{[]string{"book", "probe", "--fen", "x"}, 0, "probe --fen x", "", ""},
		{[]string{"-h"}, 0, "", "v1, a test\n\nusage: nechecb [command]", ""},
		{[]string{"book", "help"}, 0, "", "usage: nechecb book <subcommand>", ""},
		{nil, 2, "", "", "nechecb: want a subcommand: book, perft"},
		{[]string{"book"}, 2, "", "", "nechecb book: want a subcommand: probe"},
		{[]string{"book", "dump"}, 2, "", "", `nechecb book: unknown command "dump" (want probe`},
	} {
		ran = nil
		var stdout, stderr bytes.Buffer
		status := Dispatch("", "v1, a test", subs, tc.args, &stdout, &stderr)
		got := strings.Join(ran, ";")
		if status != tc.status || got != tc.ran || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) ||
			(tc.stdout == "") != (stdout.Len() == 0) || (tc.stderr == "") != (stderr.Len() == 0) {
			t.Errorf("Dispatch(%q): status %d, ran %q, stdout %q, stderr %q; want %d, %q, %q, %q", tc.args, status, got, stdout.String(), stderr.String(), tc.status, tc.ran, tc.stdout, tc.stderr)
		}
	}
}

func TestStatus(t *testing.T) {
	var stderr bytes.Buffer
	if got := Status(&stderr, "book build", badinput.Mark(errors.New("no games"))); got != 2 || stderr.String() != "nechecb book build: no games\n" {
		t.Errorf("bad input: status %d, %q", got, stderr.String())
	}
	stderr.Reset()
	if got := Status(&stderr, "book build", nil); got != 0 || stderr.Len() != 0 {
		t.Errorf("no error: status %d, %q", got, stderr.String())
	}
	if got := ExitStatus(fmt.Errorf("writing: %w", errors.New("disk full"))); got != 1 {
		t.Errorf("a runtime failure: status %d, want 1", got)
	}
}
