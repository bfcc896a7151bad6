package egdb

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/internal/badinput"
)

// TestCommandRefusals: the egdb commands' bad flags are refused as bad
// input naming the flag, before any work.
func TestCommandRefusals(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"+FileExt), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ok := BuildOptions{Dir: t.TempDir(), Pieces: 2, Threads: 1, MemoryMB: 16}
	with := func(change func(*BuildOptions)) BuildOptions { o := ok; change(&o); return o }
	ctx := context.Background()
	verify := func(dir string, threads, cache int) error {
		_, err := VerifyDir(ctx, dir, threads, cache, io.Discard, io.Discard, "p")
		return err
	}
	for want, err := range map[string]error{
		"--dir is required":              with(func(o *BuildOptions) { o.Dir = "" }).checkFlags(),
		"--pieces 9 is outside 2..":      with(func(o *BuildOptions) { o.Pieces = 9 }).checkFlags(),
		"--threads 0 is outside 1..1024": with(func(o *BuildOptions) { o.Threads = 0 }).checkFlags(),
		"--memory 8 is below 16 MB":      with(func(o *BuildOptions) { o.MemoryMB = 8 }).checkFlags(),
		"already holds slice files":      with(func(o *BuildOptions) { o.Dir = full }).checkFlags(),
		"--fen is required":              ProbeDir(full, "", 1, io.Discard, io.Discard, "p"),
		"side to move":                   ProbeDir(full, "X:W1:B2", 1, io.Discard, io.Discard, "p"),
		"--cache 0 is below 1 MB":        ProbeDir(full, "B:W29:B2", 0, io.Discard, io.Discard, "p"),
		"--threads 2000 is outside":      verify(full, 2000, 1),
		"--dir is required ":             verify("", 1, 1),
	} {
		if err == nil || !badinput.Is(err) || !strings.Contains(err.Error()+" ", want) {
			t.Errorf("got %v, want bad input with %q", err, want)
		}
	}
	if err := with(func(o *BuildOptions) { o.Dir = full; o.Resume = true }).checkFlags(); err != nil {
		t.Errorf("--resume into a folder with slice files: %v", err)
	}
	if err := ok.checkFlags(); err != nil {
		t.Errorf("good options: %v", err)
	}
}
