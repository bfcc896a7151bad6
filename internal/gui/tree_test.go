package gui

import (
	"net/http"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine/pdn"
)

// texts lists the moves of a line of the tree.
func texts(line []treeMove) string {
	var out []string
	for _, m := range line {
		out = append(out, m.Text)
	}
	return strings.Join(out, " ")
}

// lineTexts lists the moves of the line shown.
func lineTexts(st stateView) string {
	var out []string
	for _, m := range st.Moves {
		out = append(out, m.Text)
	}
	return strings.Join(out, " ")
}

// exportPDN fetches the PDN export.
func (s *testServer) exportPDN() string {
	s.t.Helper()
	status, body := s.request("GET", "/api/pdn", "", true, nil)
	if status != http.StatusOK {
		s.t.Fatalf("GET /api/pdn: %d %s", status, body)
	}
	return body
}

// TestVariations plays a side line mid-game, goes back into it by its
// first move and by a click on one of its moves, promotes it to the main
// line, exports it as a PDN variation and deletes it.
func TestVariations(t *testing.T) {
	s := newTestServer(t)
	s.humanOnly()
	s.mustPost("/api/play", playRequest{Moves: []string{"11-15", "23-19", "8-11", "22-17"}})
	s.mustPost("/api/goto", gotoRequest{Ply: 1})
	st := s.mustPost("/api/play", playRequest{Moves: []string{"22-18", "15x22"}})
	if lineTexts(st) != "11-15 22-18 15x22" || st.Cursor != 3 {
		t.Fatalf("a new move mid-game: line %q, cursor %d; want the side line, at its end", lineTexts(st), st.Cursor)
	}
	if texts(st.Tree) != "11-15 23-19 8-11 22-17" || len(st.Tree[1].Vars) != 1 || texts(st.Tree[1].Vars[0]) != "22-18 15x22" {
		t.Fatalf("tree %+v: want the main line with the side line after 23-19", st.Tree)
	}
	side := st.Tree[1].Vars[0]
	if st.SideLine != side[0].ID || st.Node != side[1].ID || st.Tree[1].Vars[0][1].Number != 2 || side[1].Side != "black" {
		t.Errorf("side line %d, node %d; want %d, %d (tree %+v)", st.SideLine, st.Node, side[0].ID, side[1].ID, st.Tree)
	}
	// Back on the main line by its own move, which brings the rest of it.
	s.mustPost("/api/goto", gotoRequest{Ply: 1})
	if st = s.mustPost("/api/play", playRequest{Moves: []string{"23-19"}}); lineTexts(st) != "11-15 23-19 8-11 22-17" || st.Cursor != 2 || st.SideLine != 0 {
		t.Fatalf("the main line's move: line %q, cursor %d, side line %d", lineTexts(st), st.Cursor, st.SideLine)
	}
	// Into the side line by its first move, which follows it, not a copy.
	s.mustPost("/api/goto", gotoRequest{Ply: 1})
	if st = s.mustPost("/api/play", playRequest{Moves: []string{"22-18"}}); lineTexts(st) != "11-15 22-18 15x22" || st.Cursor != 2 || len(st.Tree[1].Vars) != 1 {
		t.Fatalf("the side line's move: line %q, cursor %d, tree %+v", lineTexts(st), st.Cursor, st.Tree)
	}
	// A click on a main-line move shows it on the main line.
	if st = s.mustPost("/api/node", nodeRequest{ID: st.Tree[3].ID, Action: "goto"}); lineTexts(st) != "11-15 23-19 8-11 22-17" || st.Cursor != 4 {
		t.Fatalf("goto the main line's last move: line %q, cursor %d", lineTexts(st), st.Cursor)
	}
	if pdnText := s.exportPDN(); !strings.Contains(pdnText, "1. 11-15 23-19 (1... 22-18 2. 15x22) 2. 8-11 22-17 *") {
		t.Errorf("the export has no side line in parentheses:\n%s", pdnText)
	}
	if st = s.mustPost("/api/node", nodeRequest{ID: side[1].ID, Action: "promote"}); texts(st.Tree) != "11-15 22-18 15x22" || texts(st.Tree[1].Vars[0]) != "23-19 8-11 22-17" {
		t.Fatalf("promote: tree %+v", st.Tree)
	}
	if pdnText := s.exportPDN(); !strings.Contains(pdnText, "1. 11-15 22-18 (1... 23-19 2. 8-11 22-17) 2. 15x22 *") {
		t.Errorf("the export after promote:\n%s", pdnText)
	}
	// Deleting the side line shown shows the position it branched from.
	s.mustPost("/api/node", nodeRequest{ID: st.Tree[1].Vars[0][2].ID, Action: "goto"})
	if st = s.mustPost("/api/node", nodeRequest{ID: st.Tree[1].Vars[0][0].ID, Action: "delete"}); texts(st.Tree) != "11-15 22-18 15x22" || st.Tree[1].Vars != nil || st.Cursor != 1 || lineTexts(st) != "11-15 22-18 15x22" {
		t.Fatalf("delete: tree %+v, line %q, cursor %d", st.Tree, lineTexts(st), st.Cursor)
	}
	if pdnText := s.exportPDN(); strings.Contains(pdnText, "(") {
		t.Errorf("the export after delete still has a side line:\n%s", pdnText)
	}
}

// TestVariationErrors: a bad node request, or a take back at the start,
// is an error that leaves the game as it was.
func TestVariationErrors(t *testing.T) {
	s := newTestServer(t)
	s.humanOnly()
	s.mustPost("/api/play", playRequest{Moves: []string{"11-15", "23-19"}})
	before := s.mustPost("/api/goto", gotoRequest{Ply: 0})
	for _, c := range []struct {
		path string
		req  any
		want string
	}{
		{"/api/node", nodeRequest{ID: 999, Action: "goto"}, "no move of the game has id 999"},
		{"/api/node", nodeRequest{ID: before.Tree[0].ID, Action: "cut"}, `action "cut"`},
		{"/api/node", nodeRequest{ID: 0, Action: "delete"}, "start position is no move"},
		{"/api/undo", struct{}{}, "no move to take back"},
	} {
		if status, msg := s.post(c.path, c.req, nil); status != http.StatusBadRequest || !strings.Contains(msg, c.want) {
			t.Errorf("%s %+v: %d %q; want 400 with %q", c.path, c.req, status, msg, c.want)
		}
	}
	if st := s.state(); lineTexts(st) != "11-15 23-19" || st.Cursor != 0 || texts(st.Tree) != "11-15 23-19" {
		t.Errorf("after the errors: line %q, cursor %d", lineTexts(st), st.Cursor)
	}
}

// TestImportKeepsVariations: an imported game keeps its side lines,
// nested ones included, in the tree the move list shows; a click on a
// nested side line's move shows its line; the export gives the game back
// as it was read, side lines and all.
func TestImportKeepsVariations(t *testing.T) {
	s := newTestServer(t)
	text := "[Event \"annotated\"]\n[Result \"1-0\"]\n" +
		"1. 11-15 23-19 (1... 22-18 2. 15x22 25x18 {side} (2... 26x17 3. 8-11)) (1... 24-20) 2. 8-11\n22-17 1-0\n"
	status, body := s.request("POST", "/api/pdn", text, true, nil)
	var st importAnswer
	if status, msg := s.decode(status, body, &st); status != http.StatusOK {
		t.Fatalf("import: %d %s", status, msg)
	}
	tree := st.Tree
	if texts(tree) != "11-15 23-19 8-11 22-17" || len(tree[1].Vars) != 2 {
		t.Fatalf("imported tree %+v; want the main line with two side lines after 23-19", tree)
	}
	side, other := tree[1].Vars[0], tree[1].Vars[1]
	if texts(side) != "22-18 15x22 25x18" || texts(other) != "24-20" || len(side[2].Vars) != 1 {
		t.Fatalf("side lines %+v and %+v; want 22-18 15x22 25x18 with one nested, and 24-20", side, other)
	}
	nested := side[2].Vars[0]
	if texts(nested) != "26x17 8-11" || nested[0].Number != 2 || nested[0].Side != "white" {
		t.Fatalf("nested side line %+v; want 2... 26x17 3. 8-11", nested)
	}
	st2 := s.mustPost("/api/node", nodeRequest{ID: nested[1].ID, Action: "goto"})
	if lineTexts(st2) != "11-15 22-18 15x22 26x17 8-11" || st2.Cursor != 5 || st2.SideLine != nested[0].ID {
		t.Errorf("a nested side line's move: line %q, cursor %d, side line %d", lineTexts(st2), st2.Cursor, st2.SideLine)
	}
	games, err := pdn.Read(strings.NewReader(text), "import")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.exportPDN(), games[0].String(); got != want {
		t.Errorf("export:\n%s\nwant the game as read:\n%s", got, want)
	}
}
