package books

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/badinput"
)

// TestBuildFromPDNSkipsBadGames builds from a file with one bad game among
// two good ones: the bad one is named and skipped, and strict refuses the
// file, as bad input, without writing a book.
func TestBuildFromPDNSkipsBadGames(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "g.pdn")
	if err := os.WriteFile(games, []byte("[Result \"1-0\"]\n1. 11-15 23-19 1-0\n\n[Result \"1-0\"]\n1. 11-15 23-19 2. 8-12 1-0\n\n[Result \"1/2-1/2\"]\n1. 11-15 22-18 1/2-1/2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "g.book")
	opt := DefaultGameOptions
	opt.MinCount = 1
	var log strings.Builder
	n, _, err := BuildFromPDN(games, false, opt, out, false, &log, "test: ")
	if err != nil || n != 2 || !strings.HasPrefix(log.String(), "test: ") {
		t.Fatalf("build past a bad game: %d games, %v, log %q; want 2 games and the bad one named", n, err, log.String())
	}
	b, err := ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	start := engine.StartPosition()
	if e := b.Probe(&start); e == nil || e.Count != 2 {
		t.Errorf("book from the 2 good games: start entry %+v, want a count of 2", e)
	}
	var probe strings.Builder
	b.WriteProbe(&probe, &start)
	if !strings.Contains(probe.String(), "\ncount 2\n") {
		t.Errorf("probe of the start:\n%s", probe.String())
	}
	strictOut := filepath.Join(dir, "strict.book")
	if _, _, err := BuildFromPDN(games, true, opt, strictOut, false, &log, ""); !badinput.Is(err) {
		t.Errorf("strict build with a bad game: %v, want bad input", err)
	}
	if _, err := os.Stat(strictOut); err == nil {
		t.Error("the strict build wrote a book from a file it refused")
	}
}

// TestProbeAndDumpFile: the probe and dump of the built-in book, and their
// refusals: a book or FEN that does not read is bad input, a book that
// cannot be saved is not.
func TestProbeAndDumpFile(t *testing.T) {
	var out strings.Builder
	if err := ProbeFile("", engine.StartFEN, &out); err != nil || !strings.HasPrefix(out.String(), "fen "+engine.StartFEN+"\n") {
		t.Errorf("probe of the start: %v\n%s", err, out.String())
	}
	missing := filepath.Join(t.TempDir(), "none.book")
	for _, err := range []error{ProbeFile("", "X:W1:B2", &out), ProbeFile(missing, engine.StartFEN, &out), DumpFile(missing, "", false, &out)} {
		if err == nil || !badinput.Is(err) {
			t.Errorf("got %v, want bad input", err)
		}
	}
	out.Reset()
	if err := DumpFile("", "", false, &out); err != nil || out.Len() == 0 {
		t.Errorf("dump of the built-in book: %v, %d bytes", err, out.Len())
	}
	saved := filepath.Join(t.TempDir(), "b.book")
	if err := DumpFile("", saved, true, &out); err != nil {
		t.Fatal(err)
	}
	if b, err := Open(saved); err != nil || b.Len() != Default().Len() {
		t.Errorf("the saved book: %v", err)
	}
	if err := DumpFile("", filepath.Join(saved, "x.book"), true, &out); err == nil || badinput.Is(err) {
		t.Errorf("saving where no file can be: %v, want a runtime failure", err)
	}
}
