package player

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
	"github.com/nechecb/nechecb/engine/egdb/embedded"
	"github.com/nechecb/nechecb/engine/play"
)

// buildDB builds the database of up to pieces pieces into a temporary
// directory and returns it.
func buildDB(t testing.TB, pieces int) string {
	t.Helper()
	dir := t.TempDir()
	if err := egdb.Build(context.Background(), egdb.BuildOptions{Dir: dir, Pieces: pieces, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDatabaseConvertsWin plays two kings against one from the lone king's
// double corner, the winner searching shallowly with the database and the
// loser deeper without: the winner must win within the 40-move rule. The
// same game without the database serves as the control only in reporting.
func TestDatabaseConvertsWin(t *testing.T) {
	dir := buildDB(t, 3)
	for _, fen := range []string{"B:WK1:BK31,K32", "W:WK4:BK30,K26", "B:WK28:BK10,K13"} {
		start, err := engine.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		winner := New(Options{HashMB: 8}, nil, "")
		if probs, err := winner.OpenDB(dir, 4); err != nil || len(probs) > 0 {
			t.Fatal(err, probs)
		}
		if v := winner.ProbeDB(&start); v != DBWin && v != DBLoss {
			t.Fatalf("%s: database says %v", fen, v)
		}
		loser := New(Options{HashMB: 8}, nil, "")
		g := engine.NewGame(start)
		w := &Mover{Engine: winner, Limits: Limits{Depth: 20}}
		l := &Mover{Engine: loser, Limits: Limits{Depth: 14}}
		strong := start.Side
		if winner.ProbeDB(&start) == DBLoss {
			strong = start.Side.Opponent()
		}
		var black, white play.Player = w, l
		if strong == engine.White {
			black, white = l, w
		}
		r := play.Play(context.Background(), g, black, white, play.Rules{})
		if r.Outcome != engine.WinFor(strong) {
			t.Errorf("%s: %v after %d plies; %s must win", fen, r, g.Ply(), strong)
		}
	}
}

// TestDatabaseKeepsDraw plays a drawn ending of two kings against two, the
// side to move searching with the database: neither side may win, and the
// game ends drawn by the rules.
func TestDatabaseKeepsDraw(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 4-piece database")
	}
	dir := buildDB(t, 4)
	start, _ := engine.ParseFEN("B:WK1,K5:BK27,K32")
	e := New(Options{HashMB: 8}, nil, "")
	if _, err := e.OpenDB(dir, 4); err != nil {
		t.Fatal(err)
	}
	if v := e.ProbeDB(&start); v != DBDraw {
		t.Fatalf("database says %v", v)
	}
	g := engine.NewGame(start)
	m := &Mover{Engine: e, Limits: Limits{Depth: 8}}
	r := play.Play(context.Background(), g, m, m, play.Rules{})
	if r.Outcome != engine.Draw {
		t.Errorf("%v after %d plies, want a draw", r, g.Ply())
	}
}

// TestOpenDBErrors checks that a bad directory is refused with the
// previous database kept, that a damaged file is reported by name and left
// out, and that "" closes the database.
func TestOpenDBErrors(t *testing.T) {
	dir := buildDB(t, 3)
	e := New(Options{HashMB: 1}, nil, "")
	if _, err := e.OpenDB(dir, 1); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "nothing-here")
	if _, err := e.OpenDB(missing, 1); err == nil || !strings.Contains(err.Error(), "nothing-here") {
		t.Errorf("opening %s: %v, want an error naming it", missing, err)
	}
	if e.DBDir() != dir || e.DBPieces() != 3 {
		t.Errorf("after a bad path: database %q of %d pieces, want the previous %q of 3", e.DBDir(), e.DBPieces(), dir)
	}
	// Damage one file of a copy.
	bad := t.TempDir()
	names, _ := filepath.Glob(filepath.Join(dir, "*"+egdb.FileExt))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(n, "b2k-w1k"+egdb.FileExt) {
			b[len(b)/2] ^= 0xFF
		}
		if err := os.WriteFile(filepath.Join(bad, filepath.Base(n)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	probs, err := e.OpenDB(bad, 1)
	if err != nil || len(probs) == 0 || !strings.Contains(probs[0].Error(), "b2k-w1k") {
		t.Fatalf("damaged b2k-w1k: problems %v, error %v; want the file named", probs, err)
	}
	if e.DBPieces() != 2 {
		t.Errorf("with a 3-piece slice damaged the search probes %d pieces, want 2", e.DBPieces())
	}
	e.SetDBLimits(0, false)
	if p, _ := engine.ParseFEN("B:WK1:BK5"); e.ProbeDB(&p) != DBUnknown || e.DBPieces() != 0 {
		t.Error("probes switched off still answer")
	}
	if _, err := e.OpenDB("", 1); err != nil || e.DBDir() != "" {
		t.Errorf("closing: %v, dir %q", err, e.DBDir())
	}
}

// TestEmbeddedDB opens the database compiled into the binary: it answers
// positions of up to embedded.Pieces pieces with no file, survives a change
// of the block cache, and "" closes it as it closes a directory's.
func TestEmbeddedDB(t *testing.T) {
	e := New(Options{HashMB: 1}, nil, "")
	if probs, err := e.OpenEmbeddedDB(1); err != nil || len(probs) > 0 {
		t.Fatal(err, probs)
	}
	win, _ := engine.ParseFEN("B:WK1,K5:BK18,K23,K27") // three kings beat two
	check := func(when string) {
		t.Helper()
		if e.DBDir() != embedded.Name || e.DBPieces() != embedded.Pieces || e.ProbeDB(&win) != DBWin {
			t.Errorf("%s: database %q of %d pieces says %v; want %q of %d saying a win", when, e.DBDir(), e.DBPieces(), e.ProbeDB(&win), embedded.Name, embedded.Pieces)
		}
	}
	check("opened")
	if _, err := e.SetDBCache(2); err != nil || e.DBCache() != 2 {
		t.Fatalf("cache to 2 MB: %v, cache %d", err, e.DBCache())
	}
	check("after a change of cache")
	if _, err := e.OpenDB("", 1); err != nil || e.DBDir() != "" || e.ProbeDB(&win) != DBUnknown {
		t.Errorf("closing: %v, dir %q, probe %v", err, e.DBDir(), e.ProbeDB(&win))
	}
}
