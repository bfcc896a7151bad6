package gui

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine/pdn"
)

// TestImportAnalysedGames imports the file nechecb analyse wrote for
// docs/analyse.md (testdata/tinsley1946.analysed.pdn): every game is
// listed, none is skipped, and the first game's main line and its side
// lines (the best line at each marked move) are those of the file.
func TestImportAnalysedGames(t *testing.T) {
	text, err := os.ReadFile("../../testdata/tinsley1946.analysed.pdn")
	if err != nil {
		t.Fatal(err)
	}
	games, err := pdn.Read(strings.NewReader(string(text)), "analysed")
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t)
	status, body := s.request("POST", "/api/pdn", string(text), true, nil)
	var st importAnswer
	if status, msg := s.decode(status, body, &st); status != http.StatusOK {
		t.Fatalf("import: %d %s", status, msg)
	}
	if len(st.Games) != len(games) || len(st.Skipped) != 0 {
		t.Fatalf("imported %d games, skipped %q; want %d, none", len(st.Games), st.Skipped, len(games))
	}
	g := games[0]
	if len(st.Tree) != g.Record.Ply() || len(g.Variations) == 0 {
		t.Fatalf("main line of %d moves, want %d; the file's game has %d side lines", len(st.Tree), g.Record.Ply(), len(g.Variations))
	}
	pos := g.Record.Positions()
	for _, v := range g.Variations {
		vars := st.Tree[v.Ply].Vars
		if len(vars) != 1 || len(vars[0]) != len(v.Moves) || vars[0][0].Text != pos[v.Ply].Notation(v.Moves[0]) {
			t.Errorf("side line at ply %d: %+v; want %d moves from %s", v.Ply+1, vars, len(v.Moves), pos[v.Ply].Notation(v.Moves[0]))
		}
	}
}
