package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/protocol"
)

// serveScript runs the engine's protocol server, with the binary's book
// wiring, over a script of commands and returns its output.
func serveScript(t *testing.T, script string) string {
	t.Helper()
	srv, err := protocol.NewServer(protocol.Config{Name: "nechecb", Version: version, Author: "test",
		Searcher: player.New(player.Options{HashMB: 1}, nil, ""), OpenBook: openBook})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := srv.Serve(strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestEngineUsesBook plays from the built-in book with Book 3 (its best
// move), refuses a bad book file with a message and then searches.
func TestEngineUsesBook(t *testing.T) {
	start := engine.StartPosition()
	best := books.Default().Probe(&start).Moves[0].Move.String()
	out := serveScript(t, "uci\nsetoption name Book value 3\nisready\nposition startpos\ngo depth 2\n")
	if !strings.Contains(out, "info string book move "+best+"\n") || !strings.Contains(out, "bestmove "+best) {
		t.Errorf("Book 3 from the start: want book move %s, got:\n%s", best, out)
	}

	bad := filepath.Join(t.TempDir(), "bad.book")
	os.WriteFile(bad, []byte("nechbook\x01\x00\x00\x00garbage"), 0o644)
	out = serveScript(t, "uci\nsetoption name Book value 3\nsetoption name BookFile value "+bad+"\nisready\nposition startpos\ngo depth 2\n")
	if !strings.Contains(out, "info string error: BookFile") || !strings.Contains(out, "checksum") || strings.Contains(out, "book move") || !strings.Contains(out, "bestmove ") {
		t.Errorf("bad book file: want an error naming it, then a searched move; got:\n%s", out)
	}
}

func TestBookCommands(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "g.pdn")
	os.WriteFile(games, []byte("[Result \"1-0\"]\n\n1. 11-15 23-19 1-0\n\n[Result \"1/2-1/2\"]\n\n1. 11-15 22-18 1/2-1/2\n"), 0o644)
	out := filepath.Join(dir, "g.book")
	if status := run([]string{"book", "build", "--pdn", games, "--mincount", "1", "-o", out}); status != 0 {
		t.Fatalf("build: status %d", status)
	}
	b, err := books.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	start := engine.StartPosition()
	e := b.Probe(&start)
	if b.Len() != 2 || e == nil || e.Count != 2 || e.Moves[0].Move.String() != "11-15" || e.Moves[0].Weight != 3 {
		t.Errorf("book from 2 games: %d positions, start entry %+v", b.Len(), e)
	}
	for _, bad := range [][]string{
		{"build", "-o", out},
		{"build", "--pdn", games},
		{"build", "--pdn", games, "--ballots", "2move", "--depth", "2", "-o", out},
		{"build", "--ballots", "2move", "-o", filepath.Join(dir, "x.book")},
		{"build", "--ballots", "4move", "--depth", "2", "-o", filepath.Join(dir, "x.book")},
		{"probe", "--book", games},
		{"probe", "--fen", "X"},
		{"dump", "extra"},
		{"frobnicate"},
		{},
	} {
		if status := run(append([]string{"book"}, bad...)); status != 2 {
			t.Errorf("book %q: status %d, want 2", bad, status)
		}
	}
	// A failure to write is a runtime failure, not bad input.
	if status := run([]string{"book", "dump", "-o", filepath.Join(dir, "no", "such", "dir.book")}); status != 1 {
		t.Errorf("book dump into a missing directory: status %d, want 1", status)
	}
}
