package console

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine/egdb"
	"github.com/nechecb/nechecb/engine/egdb/embedded"
	"github.com/nechecb/nechecb/internal/session"
)

// TestDBCommand drives db on a real engine: the embedded database at
// first, then the 3-piece database of a directory: a bad path, the value of a won position and of each move,
// a position beyond the database, and a search marked as the database's.
func TestDBCommand(t *testing.T) {
	dir := t.TempDir()
	if err := egdb.Build(context.Background(), egdb.BuildOptions{Dir: dir, Pieces: 3, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "none")
	out := &syncBuffer{}
	in := &scriptReader{out: out, lines: []string{
		"db",
		"db path " + dir,
		"db path " + bad,
		"fen B:WK1:BK31,K32",
		"notation numeric",
		"level depth 3",
		"DB",
		"hint",
		"fen W:WK1,5:BK31,K32",
		"db ",
		"db path -",
		"db  ",
		"quit",
	}}
	sess, err := session.New(session.Config{Defaults: map[string]string{"Hash": "4"}})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(Config{In: in, Out: out, Engine: sess.Engine(), Settings: sess, Style: Style{ASCII: true},
		Now: func() time.Time { return time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC) }})
	turns := runScript(t, s, in)
	checkOutput(t, turns, "db", "not in the database ("+embedded.Name+", up to 5 pieces)\n")
	checkOutput(t, turns, "db path "+dir, "endgame database "+dir+": 3 pieces\n")
	if got := output(t, turns, "db path "+bad); !strings.Contains(got, "none") || !strings.Contains(got, "keeping "+dir) {
		t.Errorf("bad path: %q", got)
	}
	got := output(t, turns, "DB")
	if !strings.HasPrefix(got, "database: win for Black\n") || !strings.Contains(got, "31-27 win") || !strings.Contains(got, "\nmoves: ") {
		t.Errorf("db of a won position: %q", got)
	}
	// Every move of two kings against one in the corner keeps the win but
	// one: none here gives a king away.
	if strings.Contains(got, " loss") || strings.Contains(got, " draw") {
		t.Errorf("db lists a move that does not win: %q", got)
	}
	if hint := output(t, turns, "hint"); !strings.Contains(hint, "[database: win]") || !strings.Contains(hint, " db") {
		t.Errorf("hint in a database position: %q, want the database marks", hint)
	}
	checkOutput(t, turns, "db ", "not in the database ("+dir+", up to 3 pieces)\n")
	checkOutput(t, turns, "db path -", "no endgame database\n")
	checkOutput(t, turns, "db  ", "no endgame database (db path DIR, or nechecb console --db DIR)\n")
}
