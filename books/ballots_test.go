package books

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
)

// TestBallotsReachTheirFEN is the ballot self-check: every embedded ballot's
// FEN is the position its moves reach from the start, and the FEN reads and
// writes back to the same position.
func TestBallotsReachTheirFEN(t *testing.T) {
	for _, set := range [][]Ballot{TwoMove(), ThreeMove()} {
		for _, b := range set {
			g, err := b.Play()
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			want, err := b.Position()
			if err != nil {
				t.Errorf("ballot %q: %v", b.Name, err)
				continue
			}
			got := g.Current()
			if !got.SameBoard(&want) {
				t.Errorf("ballot %q: moves reach %s, FEN says %s", b.Name, got.FEN(), want.FEN())
			}
			again, err := engine.ParseFEN(want.FEN())
			if err != nil || again != want {
				t.Errorf("ballot %q: FEN %s does not round-trip (%v)", b.Name, want.FEN(), err)
			}
		}
	}
}

func TestBallotCounts(t *testing.T) {
	two, _ := Standard("2move")
	three, _ := Standard("3move")
	got := map[string]int{"2move": len(TwoMove()), "3move": len(ThreeMove()), "2move standard": len(two), "3move standard": len(three)}
	want := map[string]int{"2move": 49, "3move": 174, "2move standard": 43, "3move standard": 157}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ballot counts (-want +got):\n%s", diff)
	}
	if _, err := Standard("4move"); err == nil {
		t.Error("Standard(4move) gave no error")
	}
}
