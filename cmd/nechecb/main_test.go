package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nechecb/nechecb/internal/testbin"
	"github.com/nechecb/nechecb/match"
)

// runBinary runs the built nechecb with args and no stdin, and returns its
// exit status and output.
func runBinary(t *testing.T, bin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	return runBinaryInput(t, bin, "", args...)
}

// runBinaryInput is runBinary with input on stdin.
func runBinaryInput(t *testing.T, bin, input string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(input)
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("nechecb %q: %v", args, err)
	}
	return status, out.String(), errs.String()
}

// commandPaths lists every command and subcommand in the registry, e.g.
// "perft", "book", "book build".
func commandPaths() []string {
	var paths []string
	var walk func(prefix string, cmds []*command)
	walk = func(prefix string, cmds []*command) {
		for _, c := range cmds {
			p := strings.TrimSpace(prefix + " " + c.name)
			paths = append(paths, p)
			walk(p, c.subs)
		}
	}
	walk("", sortedCommands(commands))
	return paths
}

// TestEveryCommandHelp runs every command and subcommand with -h and
// --help: each prints its usage to stdout, nothing to stderr, and exits 0.
func TestEveryCommandHelp(t *testing.T) {
	want := []string{
		"analyse", "analyze", "bench", "book", "book build", "book dump", "book probe", "console", "datagen", "egdb", "egdb build", "egdb probe", "egdb stats", "egdb verify", "eval", "evolve", "evolve blondie", "evolve cnn", "evolve neche", "gui", "hub", "match", "nn-train", "pattern-train",
		"perft", "protocol", "tdleaf-train", "tune", "tune match", "tune select", "tune texel", "uci", "version", "worker",
	}
	// The table names every registered command, so a new one is checked too.
	if diff := cmp.Diff(want, commandPaths()); diff != "" {
		t.Fatalf("registered commands (-table +registry):\n%s", diff)
	}
	aliases := map[string]string{"uci": "protocol", "hub": "protocol"} // they print protocol's usage
	bin := testbin.Build(t)
	for _, path := range append([]string{""}, want...) {
		for _, help := range []string{"-h", "--help"} {
			args := append(strings.Fields(path), help)
			status, stdout, stderr := runBinary(t, bin, args...)
			usage := "nechecb " + path
			if a, ok := aliases[path]; ok {
				usage = "nechecb " + a
			}
			if status != 0 || stderr != "" || !strings.Contains(stdout, usage) {
				t.Errorf("nechecb %q: status %d, stderr %q, stdout %q; want 0, usage naming %q on stdout", args, status, stderr, stdout, usage)
			}
		}
	}
}

// TestUsageErrors checks that a missing or unknown subcommand and a bad flag
// exit 2 with one error line on stderr and nothing on stdout, and that the
// match usage shows the quoted cmd= form.
func TestUsageErrors(t *testing.T) {
	bin := testbin.Build(t)
	for _, tc := range []struct {
		args []string
		msg  string // the error line holds this
	}{
		{[]string{"frobnicate"}, `nechecb: unknown command "frobnicate"`},
		{[]string{"worker"}, "nechecb worker: --nats is required"},
		{[]string{"worker", "--nats", "nats://127.0.0.1:1", "--concurrency", "0"}, "nechecb worker: --concurrency must be at least 1"},
		{[]string{"datagen", "--out", "x.pos", "--games", "1", "--nats", "embedded", "--nats-batch", "-1"}, "nechecb datagen: --nats-batch may not be negative"},
		{[]string{"datagen", "--out", "x.pos", "--games", "1", "--db", "/nonexistent-egdb"}, "nechecb datagen: endgame database /nonexistent-egdb: "},
		{[]string{"worker", "--nats", "nats://127.0.0.1:1", "--db", "/nonexistent-egdb"}, "nechecb worker: --db: endgame database /nonexistent-egdb: "},
		{[]string{"gui", "--open=false", "--eval", "nosuch"}, `nechecb gui: option Eval: default "nosuch": `},
		{[]string{"gui", "--open=false", "--db", "/nonexistent-egdb"}, "nechecb gui: option DBPath "},
		{[]string{"book"}, "nechecb book: want a subcommand: build, dump, probe"},
		{[]string{"book", "frobnicate"}, `nechecb book: unknown command "frobnicate"`},
		{[]string{"tune"}, "nechecb tune: want a subcommand: match, select, texel"},
		{[]string{"tune", "frobnicate"}, `nechecb tune: unknown command "frobnicate"`},
		{[]string{"book", "build", "--bogus"}, "nechecb book build: flag provided but not defined: -bogus"},
		{[]string{"tune", "texel", "extra"}, `nechecb tune texel: unexpected argument "extra"`},
		{[]string{"version", "extra"}, `nechecb version: unexpected argument "extra"`},
	} {
		status, stdout, stderr := runBinary(t, bin, tc.args...)
		if status != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.msg) {
			t.Errorf("nechecb %q: status %d, stdout %q, stderr %q; want 2 and one line holding %q", tc.args, status, stdout, stderr, tc.msg)
		}
	}
	_, stdout, _ := runBinary(t, bin, "match", "-h")
	if !strings.Contains(stdout, `cmd="PROG ARGS"`) || !strings.Contains(stdout, `cmd="./nechecb protocol"`) {
		t.Errorf("match -h does not show the cmd=\"PROG ARGS\" form:\n%s", stdout)
	}
}

// TestMatchUsageExample parses the engine specs that match -h gives as
// examples, as the shell would pass them.
func TestMatchUsageExample(t *testing.T) {
	var engines match.Engines
	for _, spec := range []string{`name=A cmd="./nechecb protocol" opts=Hash=16;Eval=heuristic`, `name=B cmd=./nechecb proto=hub`, `name=nechecb cmd="./nechecb protocol" opts=DBPath=none`} {
		if !strings.Contains(matchUsage, spec) {
			t.Errorf("match usage lost the example %s", spec)
		}
		if err := engines.Set(spec); err != nil {
			t.Errorf("example %s: %v", spec, err)
		}
	}
	if len(engines) == 3 && !slices.Equal(engines[0].Command, []string{"./nechecb", "protocol"}) {
		t.Errorf("cmd=\"./nechecb protocol\" read as %q", engines[0].Command)
	}
}
