package session

import (
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// shuffle is two kings walking to and fro twice: the start position's third
// occurrence, a draw by threefold repetition, after the eighth move.
const shuffle = "3-7 29-25 7-3 25-29 3-7 29-25 7-3 25-29"

// TestParseGameGoesPastADraw: a game set up from moves goes on past a
// threefold repetition (the client, not the rules, ends a game), judges
// each position by the rules, and names the move that does not fit.
func TestParseGameGoesPastADraw(t *testing.T) {
	start, err := engine.ParseFEN("B:WK29:BK3")
	if err != nil {
		t.Fatal(err)
	}
	moves := strings.Fields(shuffle)
	g, err := ParseGame(start, moves[:8], (*engine.Position).ParseMove)
	if err != nil {
		t.Fatal(err)
	}
	if r := g.Result(); r.Outcome != engine.Draw || r.Reason != "threefold repetition" {
		t.Errorf("after the shuffle: %v, want a draw by threefold repetition", r)
	}
	if g.Ply() != 8 || len(g.Positions()) != 9 || len(g.History()) != 8 || g.Start() != start {
		t.Errorf("%d moves, %d positions, %d earlier; want 8, 9, 8", g.Ply(), len(g.Positions()), len(g.History()))
	}
	if cur := g.Current(); !cur.SameBoard(&start) {
		t.Errorf("current %s, want the start's board", cur.FEN())
	}
	g, err = ParseGame(start, append(moves[:8:8], "3-8"), (*engine.Position).ParseMove)
	if err != nil {
		t.Fatalf("a move past the draw: %v", err)
	}
	if r := g.Result(); r.Outcome != engine.Ongoing {
		t.Errorf("after a move past the draw: %v, want ongoing", r)
	}
	if _, err := ParseGame(start, []string{"3-7", "29-25", "7-14"}, (*engine.Position).ParseMove); err == nil || !strings.HasPrefix(err.Error(), "move 3: ") {
		t.Errorf("an illegal third move: %v, want an error naming move 3", err)
	}
}

// TestGamePlayUndoAndResultAfter: Play refuses an illegal move and any move
// once the game has ended, Undo takes moves back, and ResultAfter judges a
// move without playing it.
func TestGamePlayUndoAndResultAfter(t *testing.T) {
	start, err := engine.ParseFEN("B:WK29:BK3")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(start)
	moves := strings.Fields(shuffle)
	for i, text := range moves {
		cur := g.Current()
		m, err := cur.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		want := engine.Ongoing
		if i == len(moves)-1 {
			want = engine.Draw
		}
		if r := g.ResultAfter(m); r.Outcome != want {
			t.Errorf("ResultAfter(%s) at ply %d: %v, want %v", text, i, r, want)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	if g.Ply() != len(moves) {
		t.Errorf("ResultAfter played moves: %d played, want %d", g.Ply(), len(moves))
	}
	cur := g.Current()
	m, err := cur.ParseMove("3-7")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(m); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("a move after the draw: %v, want the game over", err)
	}
	if !g.Undo() || g.Result().Outcome != engine.Ongoing || g.Ply() != len(moves)-1 {
		t.Errorf("after undo: %v at ply %d", g.Result(), g.Ply())
	}
	if err := g.Play(m); err == nil || !strings.Contains(err.Error(), "illegal") {
		t.Errorf("a move of the wrong side: %v, want it refused as illegal", err)
	}
	for g.Undo() {
	}
	if g.Ply() != 0 || g.Current() != start {
		t.Errorf("all taken back: ply %d", g.Ply())
	}
	last, err := engine.ParseFEN("W:W18:B14")
	if err != nil {
		t.Fatal(err)
	}
	won := NewGame(last)
	capture := last.LegalMoves()[0]
	if r := won.ResultAfter(capture); r.Outcome != engine.WhiteWins {
		t.Errorf("after the last capture: %v, want White wins", r)
	}
}

// TestGameOfSharesTheRecord: a game made from a record (a PDN game) is that
// record: moves played on the game are in it.
func TestGameOfSharesTheRecord(t *testing.T) {
	rec := engine.NewGame(engine.StartPosition())
	if _, err := rec.PlayText("11-15"); err != nil {
		t.Fatal(err)
	}
	g := GameOf(rec)
	cur := g.Current()
	m, err := cur.ParseMove("23-19")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}
	if g.Record() != rec || rec.Ply() != 2 || g.Ply() != 2 {
		t.Errorf("the record has %d moves, the game %d; want 2 in one record", rec.Ply(), g.Ply())
	}
}
