package engine

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func playAll(t *testing.T, g *Game, moves ...string) {
	t.Helper()
	for _, mv := range moves {
		if _, err := g.PlayText(mv); err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
	}
}

func TestThreefoldRepetition(t *testing.T) {
	start, _ := ParseFEN("B:WK30:BK3")
	g := NewGame(start)
	shuffle := []string{"3-8", "30-26", "8-3", "26-30"}
	playAll(t, g, shuffle...)
	if r := g.Result(); r.Outcome != Ongoing {
		t.Fatalf("after one cycle: %v, want ongoing", r)
	}
	playAll(t, g, shuffle...)
	want := Result{Outcome: Draw, Reason: "threefold repetition"}
	if diff := cmp.Diff(want, g.Result()); diff != "" {
		t.Errorf("after two cycles (-want +got):\n%s", diff)
	}
	if got := g.Result().PDN(); got != "1/2-1/2" {
		t.Errorf("PDN result %q", got)
	}
	if _, err := g.PlayText("3-8"); err == nil {
		t.Error("a move was accepted in a finished game")
	}
	g.Undo()
	if r := g.Result(); r.Outcome != Ongoing {
		t.Errorf("after undo: %v, want ongoing", r)
	}
}

func TestFortyMoveRule(t *testing.T) {
	start, _ := ParseFEN("B:WK32,K28:BK1,K5")
	g := NewGame(start)
	// Both sides move their kings about, never offering a capture and
	// preferring the positions seen least, so neither repetition nor a
	// capture ends the game before the 40-move rule does.
	rng := 0
	for g.Result().Outcome == Ongoing && g.Ply() < 200 {
		cur := g.Current()
		moves := cur.LegalMoves()
		// Pick the move whose resulting position has occurred least.
		best, bestSeen := moves[0], 1<<30
		for i, m := range moves {
			next := cur.Play(m)
			if next.HasCapture() {
				continue
			}
			seen := 0
			for _, p := range g.Positions() {
				if p.SameBoard(&next) {
					seen++
				}
			}
			if seen < bestSeen || seen == bestSeen && (i+rng)%3 == 0 {
				best, bestSeen = m, seen
			}
		}
		rng++
		if err := g.Play(best); err != nil {
			t.Fatal(err)
		}
	}
	want := Result{Outcome: Draw, Reason: "40-move rule"}
	if diff := cmp.Diff(want, g.Result()); diff != "" {
		t.Errorf("after %d plies (-want +got):\n%s", g.Ply(), diff)
	}
	if g.Ply() != DrawPlies {
		t.Errorf("draw came after %d plies, want %d", g.Ply(), DrawPlies)
	}
}

func TestNoMoveLoses(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want Result
	}{
		{"W:W:B1", Result{Outcome: BlackWins, Reason: "no legal move"}},
		{"B:W21:B", Result{Outcome: WhiteWins, Reason: "no legal move"}},
		// Black man on 4 blocked by white men on 8 and 11 (11 is guarded by 15).
		{"B:W8,11,15:B4", Result{Outcome: WhiteWins, Reason: "no legal move"}},
	} {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		got := NewGame(p).Result()
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.fen, diff)
		}
	}
	if got := (Result{Outcome: BlackWins}).PDN(); got != "1-0" {
		t.Errorf("black win PDN = %q", got)
	}
	if got := (Result{Outcome: WhiteWins}).PDN(); got != "0-1" {
		t.Errorf("white win PDN = %q", got)
	}
}

// TestOutcomeOfPDN: reading a result token undoes Result.PDN, and tokens of
// no finished game read as Ongoing.
func TestOutcomeOfPDN(t *testing.T) {
	for _, o := range []Outcome{Ongoing, BlackWins, WhiteWins, Draw} {
		token := Result{Outcome: o}.PDN()
		if got := OutcomeOfPDN(token); got != o {
			t.Errorf("OutcomeOfPDN(%q) = %v, want %v", token, got, o)
		}
	}
	for _, token := range []string{"", "1-1", "½-½", "2-0"} {
		if got := OutcomeOfPDN(token); got != Ongoing {
			t.Errorf("OutcomeOfPDN(%q) = %v, want Ongoing", token, got)
		}
	}
}

// TestPlayIndex: playing by index along a game gives the record Play gives
// with the same moves, and out-of-range indexes and moves after the end are
// refused.
func TestPlayIndex(t *testing.T) {
	byMove, byIndex := NewGame(StartPosition()), NewGame(StartPosition())
	byIndex.Grow(200)
	var l MoveList
	for ply := 0; byMove.Result().Outcome == Ongoing && ply < 300; ply++ {
		cur := byMove.Current()
		cur.Generate(&l)
		i := (ply * 7) % l.N
		if err := byMove.Play(l.Moves[i]); err != nil {
			t.Fatalf("ply %d: Play: %v", ply, err)
		}
		if _, err := byIndex.PlayIndex(l.N); err == nil {
			t.Fatalf("ply %d: index %d of %d moves accepted", ply, l.N, l.N)
		}
		m, err := byIndex.PlayIndex(i)
		if err != nil || m != l.Moves[i] {
			t.Fatalf("ply %d: PlayIndex(%d) = %v, %v; want %v", ply, i, m, err, l.Moves[i])
		}
	}
	if diff := cmp.Diff(byMove.Positions(), byIndex.Positions()); diff != "" {
		t.Fatalf("positions differ (-Play +PlayIndex):\n%s", diff)
	}
	if byMove.Result().Outcome == Ongoing {
		t.Fatalf("the test game did not end in 300 plies")
	}
	if _, err := byIndex.PlayIndex(0); err == nil {
		t.Errorf("a move after the end was accepted")
	}
}

// TestPlayRecordedPastDraw: a recorded game goes on past a repetition that
// nobody claimed, and UnclaimedDraw finds it; PlayText refuses the move, and
// neither plays on after a side has no legal move or plays an illegal move.
func TestPlayRecordedPastDraw(t *testing.T) {
	start, err := ParseFEN("B:WK29:BK4")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(start)
	for _, m := range strings.Fields("4-8 29-25 8-4 25-29 4-8 29-25 8-4 25-29") {
		if _, err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.PlayText("4-8"); err == nil || !strings.Contains(err.Error(), "threefold repetition") {
		t.Errorf("PlayText after a threefold repetition: %v, want the game over", err)
	}
	cur := g.Current()
	m, err := cur.ParseMove("4-8")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(m); err == nil || !strings.Contains(err.Error(), "threefold repetition") {
		t.Errorf("Play after a threefold repetition: %v, want the game over", err)
	}
	if err := g.PlayRecordedMove(m); err != nil {
		t.Errorf("PlayRecordedMove after a threefold repetition: %v", err)
	}
	g.Undo()
	if _, err := g.PlayRecorded("4-8"); err != nil {
		t.Errorf("PlayRecorded after a threefold repetition: %v", err)
	}
	if err := g.PlayRecordedMove(m); err == nil || !strings.Contains(err.Error(), "illegal") {
		t.Errorf("PlayRecordedMove of a move that is not legal: %v", err)
	}
	if ply, draw, ok := g.UnclaimedDraw(); !ok || ply != 8 || draw.Reason != "threefold repetition" {
		t.Errorf("UnclaimedDraw() = %d, %v, %v; want ply 8, threefold repetition", ply, draw, ok)
	}
	if _, err := g.PlayRecorded("8-12"); err == nil {
		t.Error("PlayRecorded took an illegal move")
	}
	won, err := ParseFEN("W:W18:B14")
	if err != nil {
		t.Fatal(err)
	}
	g = NewGame(won)
	if _, err := g.PlayRecorded("18x9"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.PlayRecorded("9-5"); err == nil || !strings.Contains(err.Error(), "no legal move") {
		t.Errorf("PlayRecorded after no legal move: %v, want the game over", err)
	}
	if err := g.PlayRecordedMove(m); err == nil || !strings.Contains(err.Error(), "no legal move") {
		t.Errorf("PlayRecordedMove after no legal move: %v, want the game over", err)
	}
	if _, _, ok := g.UnclaimedDraw(); ok {
		t.Error("UnclaimedDraw found a draw in a game without one")
	}
}
