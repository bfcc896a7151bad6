package cbapi

import (
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

func TestParseGameHistOfTheSpec(t *testing.T) {
	hist, err := ParseGameHist("B:WK12,K27,30,32:B21,K24,28,K31 24-19 27-24")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(hist.Positions()); n != 3 {
		t.Fatalf("%d positions, want 3", n)
	}
	last := hist.Current()
	if got := last.FEN(); got != "B:WK12,K24,30,32:BK19,21,28,K31" {
		t.Errorf("last position %s", got)
	}
	if last.Reversible != 2 {
		t.Errorf("last position counts %d reversible plies, want 2", last.Reversible)
	}
}

func TestParseGameHistNamesWhatIsWrong(t *testing.T) {
	for text, want := range map[string]string{
		"":                        "no position",
		"X:W1:B2":                 "side to move",
		"B:W21:B1 1-5 21-17 6-10": "move 3",
		"B:W21:B1 1-9":            "move 1",
	} {
		if _, err := ParseGameHist(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseGameHist(%q): %v, want an error with %q", text, err, want)
		}
	}
}

func TestGameAtTakesTheHistoryOnlyWhenItEndsAtRoot(t *testing.T) {
	hist, err := ParseGameHist("B:WK32:BK1 1-6 32-27")
	if err != nil {
		t.Fatal(err)
	}
	root, err := engine.ParseFEN("B:WK27:BK6")
	if err != nil {
		t.Fatal(err)
	}
	g := gameAt(root, hist)
	if got, earlier := g.Current(), g.History(); got.Reversible != 2 || len(earlier) != 2 {
		t.Errorf("matching history: root counts %d plies, %d earlier positions; want 2 and 2", got.Reversible, len(earlier))
	}
	other, _ := engine.ParseFEN("W:WK27:BK6")
	g = gameAt(other, hist)
	if got, earlier := g.Current(), g.History(); got.Reversible != 0 || len(earlier) != 0 || !got.SameBoard(&other) {
		t.Errorf("history of another position was used: %d plies, %d positions", got.Reversible, len(earlier))
	}
	if g := gameAt(root, nil); g.Ply() != 0 || g.Start() != root {
		start := g.Start()
		t.Errorf("without a history: %d moves from %s, want none from %s", g.Ply(), start.FEN(), root.FEN())
	}
}

// kingWalk plays n non-capture king moves from start, never making a
// position's third occurrence, and returns the "set gamehist" value that
// CheckerBoard would send after them.
func kingWalk(t *testing.T, start string, n int) (string, engine.Position) {
	t.Helper()
	p, err := engine.ParseFEN(start)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]int{p.Hash: 1}
	parts := []string{p.FEN()}
	for i := 0; i < n; i++ {
		// The quiet move to the least-seen position that leaves no capture.
		var best engine.Move
		var next engine.Position
		found := false
		for _, m := range p.LegalMoves() {
			q := p.Play(m)
			if m.IsCapture() || q.HasCapture() || seen[q.Hash] >= 2 {
				continue
			}
			if !found || seen[q.Hash] < seen[next.Hash] {
				best, next, found = m, q, true
			}
		}
		if !found {
			t.Fatalf("the walk is stuck after %d moves at %s", i, p.FEN())
		}
		seen[next.Hash]++
		parts = append(parts, best.String())
		p = next
	}
	return strings.Join(parts, " "), p
}
