package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/session"
)

// serveScript runs the engine's protocol server, with the binary's book
// wiring, over a script of commands and returns its output.
func serveScript(t *testing.T, script string) string {
	t.Helper()
	return serveScriptWith(t, testSession(t), script)
}

// testSession is a session with the binary's defaults and a 1 MB hash.
func testSession(t *testing.T) *session.Session {
	t.Helper()
	sess, err := newSession()
	if err == nil {
		_, err = sess.Set("Hash", "1")
	}
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

// serveScriptWith is serveScript with the session sess.
func serveScriptWith(t *testing.T, sess *session.Session, script string) string {
	t.Helper()
	srv, err := newProtocolServer(sess, io.Discard)
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
// move) and from a book file; a file that does not load is refused with a
// message naming it, and the book in force stays.
func TestEngineUsesBook(t *testing.T) {
	start := engine.StartPosition()
	best := books.Default().Probe(&start).Moves[0].Move.String()
	out := serveScript(t, "uci\nsetoption name Book value 3\nisready\nposition startpos\ngo depth 2\n")
	if !strings.Contains(out, "info string book move "+best+"\n") || !strings.Contains(out, "bestmove "+best) {
		t.Errorf("Book 3 from the start: want book move %s, got:\n%s", best, out)
	}

	dir := t.TempDir()
	good := filepath.Join(dir, "one.book")
	writeOneMoveBook(t, good, "10-14")
	bad := filepath.Join(dir, "bad.book")
	os.WriteFile(bad, []byte("nechbook\x01\x00\x00\x00garbage"), 0o644)
	out = serveScript(t, "setoption name Book value 3\nsetoption name BookFile value "+good+"\ngo depth 2\n"+
		"setoption name BookFile value "+bad+"\nisready\ngo depth 2\n")
	want := []string{"info string book move 10-14", "bestmove 10-14",
		`info string error: BookFile "` + bad + `": ` + bad + ": book file is damaged: its checksum does not match; keeping \"" + good + `"`,
		"readyok", "info string book move 10-14", "bestmove 10-14"}
	if got := strings.Split(strings.TrimSpace(out), "\n"); !cmp.Equal(got, want) {
		t.Errorf("a bad book file after a good one (-got +want):\n%s", cmp.Diff(got, want))
	}
	// Book and a bad BookFile at once: BookFile keeps its default, the
	// built-in book.
	out = serveScript(t, "setoption name Book value 3\nsetoption name BookFile value "+bad+"\nisready\ngo depth 2\n")
	if !strings.Contains(out, `info string error: BookFile "`+bad+`"`) || !strings.Contains(out, "bestmove "+best) {
		t.Errorf("Book 3 and a bad book file: want an error naming it and the built-in book's %s; got:\n%s", best, out)
	}
}

// writeOneMoveBook writes a book that knows one move, from the start.
func writeOneMoveBook(t *testing.T, path, move string) {
	t.Helper()
	b := books.New()
	start := engine.StartPosition()
	m, err := start.ParseMove(move)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Set(books.Entry{Position: start, Count: 1, Moves: []books.MoveEntry{{Move: m, Weight: 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(path, false); err != nil {
		t.Fatal(err)
	}
}

// bookMoves plays n book moves from the start with Book 1 (any book move,
// at random by weight) and the given Seed, in a fresh server.
func bookMoves(t *testing.T, seed, n int) []string {
	t.Helper()
	script := fmt.Sprintf("setoption name Book value 1\nsetoption name Seed value %d\nisready\n", seed)
	script += strings.Repeat("position startpos\ngo depth 1\n", n)
	var moves []string
	for _, line := range strings.Split(serveScript(t, script), "\n") {
		if m, ok := strings.CutPrefix(line, "info string book move "); ok {
			moves = append(moves, m)
		}
	}
	if len(moves) != n {
		t.Fatalf("Seed %d: %d book moves in %d searches", seed, len(moves), n)
	}
	return moves
}

// TestBookFollowsSeed: two engines with the same Seed choose the same book
// moves; another Seed chooses others.
func TestBookFollowsSeed(t *testing.T) {
	const n = 24
	a, b, c := bookMoves(t, 7, n), bookMoves(t, 7, n), bookMoves(t, 8, n)
	if !cmp.Equal(a, b) {
		t.Errorf("Seed 7 twice chose differently:\n%q\n%q", a, b)
	}
	if cmp.Equal(a, c) {
		t.Errorf("Seeds 7 and 8 chose the same %d moves: %q", n, a)
	}
	if distinct := len(slices.Compact(slices.Sorted(slices.Values(a)))); distinct < 2 {
		t.Errorf("Book 1 chose only %q from the start in %d games", a[0], n)
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
