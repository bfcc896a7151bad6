package evolverun

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/train/evolve"
)

// toy is a learner's settings for the tests.
type toy struct {
	Seed  uint64
	Depth int
	Mode  string
}

// toyFlags binds toy's flags and the run flag "generations" to c.
func toyFlags(c *toy) *flag.FlagSet {
	fs := flag.NewFlagSet("toy", flag.ContinueOnError)
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "")
	fs.IntVar(&c.Depth, "depth", c.Depth, "")
	fs.StringVar(&c.Mode, "mode", c.Mode, "")
	fs.Int("generations", 10, "")
	return fs
}

func isRunFlag(name string) bool { return name == "generations" }

func TestMergeResumeAppliesGivenShapingFlags(t *testing.T) {
	dir := t.TempDir()
	if err := evolve.Prepare(dir, false, toy{Seed: 7, Depth: 3, Mode: "improved"}); err != nil {
		t.Fatal(err)
	}
	var given toy
	fs := toyFlags(&given)
	if err := fs.Parse([]string{"--depth", "5", "--generations", "40"}); err != nil {
		t.Fatal(err)
	}
	got, err := MergeResume(dir, fs, toyFlags, isRunFlag)
	if err != nil {
		t.Fatal(err)
	}
	// The stored seed and mode stay; the given depth replaces the stored
	// one, so that Prepare can name the difference.
	if want := (toy{Seed: 7, Depth: 5, Mode: "improved"}); got != want {
		t.Errorf("merged %+v, want %+v", got, want)
	}
	err = evolve.Prepare(dir, true, got)
	if err == nil || !strings.Contains(err.Error(), "Depth") {
		t.Errorf("Prepare of the changed settings: %v, want it to name Depth", err)
	}
}

func TestMergeResumeNeedsARun(t *testing.T) {
	fs := toyFlags(&toy{})
	_, err := MergeResume(t.TempDir(), fs, toyFlags, isRunFlag)
	if err == nil || !badinput.Is(err) || !strings.Contains(err.Error(), "no run to resume") {
		t.Errorf("resume of an empty folder: %v, want bad input naming the missing run", err)
	}
}

func TestRunRefusesBadSettings(t *testing.T) {
	learner := func(string, toy) (evolve.Learner, error) {
		t.Fatal("a refused run made its learner")
		return nil, nil
	}
	for _, tc := range []struct {
		job  Job[toy]
		want string
	}{
		{Job[toy]{Generations: -1, Dir: t.TempDir()}, "may not be negative"},
		{Job[toy]{CurveOpenings: -2, Dir: t.TempDir()}, "may not be negative"},
		{Job[toy]{}, "--dir is required"},
	} {
		tc.job.Learner = learner
		err := Run(context.Background(), tc.job)
		if err == nil || !badinput.Is(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run(%+v): %v, want bad input naming %q", tc.job, err, tc.want)
		}
	}
}

func TestSameTree(t *testing.T) {
	write := func(root string, files map[string]string) string {
		for name, data := range files {
			path := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
	a := write(t.TempDir(), map[string]string{"x": "1", "g/y": "2"})
	if !sameTree(a, write(t.TempDir(), map[string]string{"x": "1", "g/y": "2"})) {
		t.Error("equal trees differ")
	}
	if sameTree(a, write(t.TempDir(), map[string]string{"x": "1", "g/y": "3"})) {
		t.Error("a changed byte goes unseen")
	}
	if sameTree(a, write(t.TempDir(), map[string]string{"x": "1", "g/z": "2"})) {
		t.Error("a renamed file goes unseen")
	}
	if sameTree(t.TempDir(), t.TempDir()) {
		t.Error("two empty folders count as the same run")
	}
}

func TestRunFlagAndCheckMode(t *testing.T) {
	for name, want := range map[string]bool{"dir": true, "generations": true, "curve-vs": true, "nats": true, "nats-batch": true,
		"nats-ack-wait": true, "seed": false, "mode": false, "population": false, "depth": false} {
		if got := RunFlag(name); got != want {
			t.Errorf("RunFlag(%q) = %v, want %v", name, got, want)
		}
	}
	for mode, ok := range map[string]bool{"faithful": true, "improved": true, "Improved": false, "": false} {
		if err := CheckMode(mode); (err == nil) != ok || err != nil && !badinput.Is(err) {
			t.Errorf("CheckMode(%q): %v", mode, err)
		}
	}
}
