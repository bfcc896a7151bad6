package main

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		status, ok := parseFlags(fs, args, "", &stdout, &stderr)
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
			t.Errorf("parseFlags(%q) (-want +got):\n%s", tc.args, diff)
		}
	}
	help := run("-h")
	if help.Status != 0 || help.OK || !strings.HasPrefix(help.Stdout, "usage: nechecb demo [flags]") || !strings.Contains(help.Stdout, "-depth") || help.Stderr != "" {
		t.Errorf("parseFlags(-h) = %+v, want status 0 and the usage on stdout", help)
	}
}
