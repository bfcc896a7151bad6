package egdb

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// TestReadsFilesWrittenBefore reads the 3-piece database in
// testdata/before, written by the code as it was before the board packing
// moved into engine (see testdata/SOURCES): each position listed in
// before-values.txt must probe to the value listed, and a fresh build must
// write the same bytes to every slice file.
func TestReadsFilesWrittenBefore(t *testing.T) {
	db, err := Open("testdata/before", 4)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if problems := db.Problems(); len(problems) > 0 {
		t.Fatalf("opening testdata/before: %v", problems)
	}
	list, err := os.ReadFile("testdata/before-values.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(list)), "\n")
	for _, line := range lines {
		fen, want, _ := strings.Cut(line, " ")
		p, err := engine.ParseFEN(fen)
		if err != nil {
			t.Fatalf("before-values.txt: %q: %v", line, err)
		}
		if got := db.Probe(&p).String(); got != want {
			t.Errorf("%s probes to %s, want %s", fen, got, want)
		}
	}
	if len(lines) < 100 {
		t.Fatalf("before-values.txt lists only %d positions", len(lines))
	}

	dir := t.TempDir()
	if err := Build(context.Background(), BuildOptions{Dir: dir, Pieces: 3, Threads: 2, MemoryMB: 64}); err != nil {
		t.Fatal(err)
	}
	old, err := filepath.Glob("testdata/before/*" + FileExt)
	if err != nil || len(old) == 0 {
		t.Fatalf("no slice files in testdata/before (%v)", err)
	}
	built, _ := filepath.Glob(filepath.Join(dir, "*"+FileExt))
	if len(built) != len(old) {
		t.Errorf("the build wrote %d slice files, testdata/before holds %d", len(built), len(old))
	}
	for _, name := range old {
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, filepath.Base(name)))
		if err != nil {
			t.Error(err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the build wrote %d bytes that differ from the %d written before", filepath.Base(name), len(got), len(want))
		}
	}
}
