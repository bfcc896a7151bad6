package protocol

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
	esession "github.com/nechecb/nechecb/internal/session"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// tableSession starts a server on a real engine session with the option
// table's defaults (a 4 MB hash table).
func tableSession(t *testing.T) *session {
	t.Helper()
	sess, err := esession.New(esession.Config{Defaults: map[string]string{"Hash": "4"}})
	if err != nil {
		t.Fatal(err)
	}
	return newSession(t, Config{Searcher: sess.Engine(), Options: SessionOptions(sess.Options())})
}

// dbSession starts a server on a real engine with a 3-piece database and
// sets DBPath to it.
func dbSession(t *testing.T, hub bool) (*session, string) {
	t.Helper()
	dir := t.TempDir()
	if err := egdb.Build(context.Background(), egdb.BuildOptions{Dir: dir, Pieces: 3, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	s := tableSession(t)
	if hub {
		s.send("hub")
		s.until("wait")
		s.send("set-param name=DBPath value="+dir, "init")
		s.until("ready")
	} else {
		s.send("uci")
		s.until("uciok")
		s.send("setoption name DBPath value "+dir, "isready")
		if got := s.until("readyok"); !strings.Contains(strings.Join(got, "\n"), "info string DBPath: "+dir) {
			t.Fatalf("DBPath set: %q, want a note naming %s", got, dir)
		}
	}
	return s, dir
}

// TestDatabaseClaimsAndTBHits checks that a search in a database position
// reports tbhits and claims the database's value: a win, a loss and a draw.
func TestDatabaseClaimsAndTBHits(t *testing.T) {
	s, _ := dbSession(t, false)
	for _, c := range []struct{ fen, claim string }{
		{"B:WK1:BK31,K32", "info string claim win endgame database"},
		{"W:WK1:BK31,K32", "info string claim loss endgame database"},
		{"B:WK1:BK32", "info string claim draw endgame database"},
	} {
		s.send("position fen "+c.fen, "go depth 4")
		got := s.until("bestmove")
		text := strings.Join(got, "\n")
		if !strings.Contains(text, " tbhits ") {
			t.Errorf("%s: no tbhits in %q", c.fen, got)
		}
		if claim := got[len(got)-2]; claim != c.claim {
			t.Errorf("%s: line before bestmove %q, want %q", c.fen, claim, c.claim)
		}
	}
	s.send("position startpos", "go depth 2")
	if got := s.until("bestmove"); strings.Contains(strings.Join(got, "\n"), "tbhits") || strings.Contains(strings.Join(got, "\n"), "claim") {
		t.Errorf("start position: %q, want no tbhits and no claim", got)
	}
	s.finish()
}

// TestHubTBHits checks the Hub dialect's tbhits and claim.
func TestHubTBHits(t *testing.T) {
	s, _ := dbSession(t, true)
	p, err := engine.ParseFEN("B:WK1:BK31,K32")
	if err != nil {
		t.Fatal(err)
	}
	s.send("pos pos="+hubtext.Position(&p, hubtext.Pydraughts), "level depth=3", "go think")
	got := strings.Join(s.until("done"), "\n")
	if !strings.Contains(got, " tbhits=") || !strings.Contains(got, `info claim="win endgame database"`) {
		t.Errorf("Hub search of a database win: %q, want tbhits= and the claim", got)
	}
	s.finish()
}

// TestDBPathErrors checks that a bad DBPath is refused on one error line
// with the database kept, and that a missing slice is named.
func TestDBPathErrors(t *testing.T) {
	s, dir := dbSession(t, false)
	bad := filepath.Join(t.TempDir(), "none")
	s.send("setoption name DBPath value "+bad, "isready")
	got := s.until("readyok")
	if len(got) != 2 || !strings.HasPrefix(got[0], "info string error: DBPath") || !strings.Contains(got[0], "keeping \""+dir+"\"") {
		t.Errorf("bad DBPath: %q, want one error line keeping %s", got, dir)
	}
	s.send("position fen B:WK1:BK31,K32", "go depth 2")
	if got := s.until("bestmove"); !strings.Contains(strings.Join(got, "\n"), "claim win endgame database") {
		t.Errorf("after a bad DBPath the database is gone: %q", got)
	}
	s.send("setoption name DBCache value 2", "isready")
	if got := s.until("readyok"); len(got) != 2 || got[0] != "info string DBCache: "+dir+": 3 pieces" {
		t.Errorf("DBCache change: %q, want the database reopened", got)
	}
	s.finish()
}

// TestEmbeddedDatabaseByDefault: a session that sets no DBPath searches
// with the database built into the binary, in a 3-piece and a 5-piece
// position, with no file; DBPath none switches it off.
func TestEmbeddedDatabaseByDefault(t *testing.T) {
	s := tableSession(t)
	s.send("uci")
	s.until("uciok")
	fens := []string{"B:WK1:BK31,K32", "B:WK1,K5:BK18,K23,K27"}
	search := func(fen string) string {
		s.send("position fen "+fen, "go depth 4")
		return strings.Join(s.until("bestmove"), "\n")
	}
	for _, fen := range fens {
		if got := search(fen); !strings.Contains(got, " tbhits ") || !strings.Contains(got, "info string claim win endgame database") {
			t.Errorf("%s by default: %q, want tbhits and the database's win", fen, got)
		}
	}
	s.send("setoption name DBPath value none", "isready")
	if got := s.until("readyok"); len(got) != 1 {
		t.Errorf("DBPath none: %q, want readyok alone", got)
	}
	for _, fen := range fens {
		if got := search(fen); strings.Contains(got, "tbhits") || strings.Contains(got, "endgame database") {
			t.Errorf("%s with DBPath none: %q, want no tbhits and no database claim", fen, got)
		}
	}
	s.finish()
}
