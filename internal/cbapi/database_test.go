package cbapi

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine/egdb"
)

// buildDB builds the 3-piece database into a temporary directory.
func buildDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := egdb.Build(context.Background(), egdb.BuildOptions{Dir: dir, Pieces: 3, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDBSettings checks that dbpath opens the database (a bad one is
// refused, the old path kept), that getmove's result code carries the
// database's verdict, that enable_wld, max_dbpieces and dbpath none switch
// it off, and that an empty dbpath is the database built in.
func TestDBSettings(t *testing.T) {
	dir := buildDB(t)
	p := newPlugin(t)
	expect(t, p, "set dbpath "+dir, "dbpath "+dir+": 3 pieces", true)
	bad := filepath.Join(t.TempDir(), "none")
	if r, ok := p.Command("set dbpath " + bad); ok || !strings.Contains(r, "none") || !strings.Contains(r, `keeping "`+dir+`"`) {
		t.Errorf("bad dbpath: %q, %v; want it refused, naming it, keeping %s", r, ok, dir)
	}
	expect(t, p, "get dbpath", dir, true)
	if r, _ := p.Command("set check_wld_dir " + dir); !strings.Contains(r, "3 pieces") {
		t.Errorf("check_wld_dir: %q", r)
	}
	for _, c := range []struct {
		settings []string
		fen      string
		want     int
		why      string
	}{
		// The search proves the wins of these small endings itself in
		// time, so only their codes are checked; a draw is the database's.
		{nil, "B:WK1:BK31,K32", ResultWin, "win: "},
		{nil, "W:WK1:BK31,K32", ResultLoss, "loss: "},
		{nil, "B:WK1:BK32", ResultDraw, "draw: endgame database"},
		{[]string{"set enable_wld 0"}, "B:WK1:BK32", ResultUnknown, ""},
		{[]string{"set enable_wld 1", "set max_dbpieces 1"}, "B:WK1:BK32", ResultUnknown, ""},
		{[]string{"set max_dbpieces 8", "set dbmbytes 2"}, "B:WK1:BK32", ResultDraw, "draw: endgame database"},
		{[]string{"set dbpath none"}, "B:WK1:BK32", ResultUnknown, ""},
		{[]string{"set dbpath"}, "B:WK1:BK32", ResultDraw, "draw: endgame database"}, // the built-in one
	} {
		for _, s := range c.settings {
			if r, ok := p.Command(s); !ok {
				t.Fatalf("%s: %q", s, r)
			}
		}
		var st lines
		// A short fixed time: the search cannot prove these results itself.
		r := p.GetMove(request(t, c.fen, 0.05, 0, &st))
		if r.Result != c.want || c.why != "" && !strings.Contains(r.Line, c.why) || c.why == "" && strings.Contains(r.Line, "endgame") {
			t.Errorf("%v %s: result %d, line %q; want %d (%q)", c.settings, c.fen, r.Result, r.Line, c.want, c.why)
		}
	}
}
