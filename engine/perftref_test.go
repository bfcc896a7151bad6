package engine

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nechecb/nechecb/engine/internal/sidegen"
)

// referencePerft counts the move tree with Generate and Play only, the
// slow and obvious way, as a check on the per-colour counting code.
func referencePerft(p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var l MoveList
	p.Generate(&l)
	var n uint64
	for _, m := range l.Slice() {
		child := p.Play(m)
		n += referencePerft(&child, depth-1)
	}
	return n
}

// TestPerftMatchesReference compares Perft with the reference count along
// random games, which reach kings, multi-jumps and crowning captures that
// the published positions do not all cover.
func TestPerftMatchesReference(t *testing.T) {
	maxDepth := 4
	if testing.Short() {
		maxDepth = 3
	}
	seen := 0
	forRandomGames(t, 60, func(p *Position) {
		if seen++; seen%5 != 0 {
			return
		}
		want := make([]uint64, maxDepth)
		got := make([]uint64, maxDepth)
		for d := 1; d <= maxDepth; d++ {
			want[d-1] = referencePerft(p, d)
			got[d-1] = Perft(p, d)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: perft depth 1..%d (-reference +Perft):\n%s", p.FEN(), maxDepth, diff)
		}
	})
}

// TestSideCodeGenerated checks that perft_white.go is what go generate makes
// from perft_black.go, so the two colours cannot drift apart.
func TestSideCodeGenerated(t *testing.T) {
	black, err := os.ReadFile("perft_black.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := sidegen.Swap(black, "perft_black.go")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("perft_white.go")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("perft_white.go is stale; run go generate ./engine (-want +got):\n%s", diff)
	}
}
