package booksearch

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/internal/player"
)

func TestBuildScoresEveryMoveAndResumes(t *testing.T) {
	ballots, err := Ballots("2move")
	if err != nil {
		t.Fatal(err)
	}
	ballots = ballots[:2]
	positions, err := books.BallotPositions(ballots)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "b.book")
	cfg := Config{Ballots: ballots, Limits: player.Limits{Depth: 2}, HashMB: 1, Out: out, Text: true, CheckpointEvery: 1}
	book, err := Open(out, false)
	if err != nil {
		t.Fatal(err)
	}
	var seen []Progress
	if err := Build(context.Background(), book, cfg, func(p Progress) { seen = append(seen, p) }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(positions) || seen[len(seen)-1].Done != len(positions) || seen[0].Total != len(positions) {
		t.Errorf("%d progress reports for %d positions: %+v", len(seen), len(positions), seen)
	}
	written, err := books.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if written.Len() != len(positions) || book.Len() != len(positions) {
		t.Fatalf("%d and %d entries written, want one per position (%d)", written.Len(), book.Len(), len(positions))
	}
	for _, p := range positions {
		e := written.Probe(&p)
		if e == nil || len(e.Moves) != len(p.LegalMoves()) {
			t.Fatalf("%s: entry %+v, want every legal move", p.FEN(), e)
		}
		for _, m := range e.Moves {
			if m.Weight != 1 {
				t.Errorf("%s: move %s weight %d", p.FEN(), m.Move, m.Weight)
			}
		}
	}

	// Without resume the file is not overwritten; with resume nothing is
	// searched again, so a build with no time to search still completes it.
	if _, err := Open(out, false); !errors.Is(err, ErrExists) {
		t.Errorf("Open of an existing book without resume: %v", err)
	}
	again, err := Open(out, true)
	if err != nil || again.Len() != len(positions) {
		t.Fatalf("resume: %v, %d entries", err, again.Len())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Build(ctx, again, cfg, nil); err != nil {
		t.Errorf("resuming a complete book searched: %v", err)
	}
	// A fresh build under a cancelled context stops with its error.
	fresh := cfg
	fresh.Out = filepath.Join(t.TempDir(), "c.book")
	if err := Build(ctx, books.New(), fresh, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled build: %v", err)
	}
	if _, err := Ballots("4move"); err == nil {
		t.Error("Ballots(4move) accepted")
	}
}
