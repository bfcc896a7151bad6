package search

import (
	"context"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// A whole Search call, with a cancellable context, allocates nothing when
// the line is shared: a training loop plays thousands of games with one
// Searcher.
func TestSearchCallDoesNotAllocate(t *testing.T) {
	s := New(Options{HashMB: 1, SharePV: true, RandomTies: true}, nil)
	pos := mustFEN(t, BenchFENs[13])
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Search(ctx, pos, nil, Limits{Depth: 6}, nil) // warm up the reused slices
	allocs := testing.AllocsPerRun(5, func() {
		r := s.Search(ctx, pos, nil, Limits{Depth: 6}, nil)
		if !r.HasMove || len(r.PV) == 0 {
			t.Fatal("no move")
		}
	})
	if allocs != 0 {
		t.Errorf("Search with SharePV allocates %v times, want 0", allocs)
	}
}

// A context cancelled before the search still gets a searched move, and
// the search ends long before its depth limit.
func TestCancelledContextStopsSearch(t *testing.T) {
	s := New(Options{HashMB: 1}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := s.Search(ctx, engine.StartPosition(), nil, Limits{Depth: 40}, nil)
	if !r.HasMove || r.Depth >= 40 {
		t.Errorf("cancelled search: move %v depth %d; want a move from a shallow depth", r.HasMove, r.Depth)
	}
}

// With QuietDraw 20, a root reached after 20 quiet plies scores every quiet
// continuation as a draw; without it, the extra man counts.
func TestQuietDraw(t *testing.T) {
	// White has a king and a man against a lone Black king, far apart: no
	// capture within a few plies.
	pos := mustFEN(t, "W:WK32,20:BK1")
	history := make([]engine.Position, 20)
	for i := range history {
		history[i] = pos // same material throughout: 20 quiet plies
	}
	plain := New(Options{HashMB: 1}, nil).Search(context.Background(), pos, history, Limits{Depth: 4}, nil)
	if plain.Score <= 0 {
		t.Fatalf("without the rule, White a man up scores %v, want > 0", plain.Score)
	}
	quiet := New(Options{HashMB: 1, QuietDraw: 20}, nil).Search(context.Background(), pos, history, Limits{Depth: 4}, nil)
	if quiet.Score != DrawScore {
		t.Errorf("after 20 quiet plies with QuietDraw 20, score %v, want the draw score", quiet.Score)
	}
	// With 10 quiet plies before the root, the rule is 11 plies away and
	// a depth-4 search still sees the extra man.
	early := New(Options{HashMB: 1, QuietDraw: 20}, nil).Search(context.Background(), pos, history[:10], Limits{Depth: 4}, nil)
	if early.Score != plain.Score {
		t.Errorf("10 quiet plies before the root: score %v, want %v as without the rule", early.Score, plain.Score)
	}
}

// Changing the seed between searches gives the random-tie choices of a new
// Searcher made with that seed.
func TestReseedMatchesNewSearcher(t *testing.T) {
	pos := engine.StartPosition()
	choices := func(s *Searcher) []engine.Move {
		var out []engine.Move
		for range 12 {
			s.Clear()
			out = append(out, s.Search(context.Background(), pos, nil, Limits{Depth: 1}, nil).Best)
		}
		return out
	}
	a := New(Options{HashMB: 1, RandomTies: true, Seed: 1}, nil)
	choices(a)
	a.SetOptions(Options{HashMB: 1, RandomTies: true, Seed: 7})
	b := New(Options{HashMB: 1, RandomTies: true, Seed: 7}, nil)
	got, want := choices(a), choices(b)
	distinct := map[engine.Move]bool{}
	for i := range got {
		distinct[want[i]] = true
		if got[i] != want[i] {
			t.Fatalf("choice %d after reseeding: %v, a new searcher with the seed: %v", i, got[i], want[i])
		}
	}
	if len(distinct) < 2 {
		t.Errorf("12 tied choices were all %v: the test shows nothing", want[0])
	}
}
