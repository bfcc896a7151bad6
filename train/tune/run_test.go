package tune

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/train/selfplay"
)

func TestRunTexelWritesWeightsAndData(t *testing.T) {
	dir := t.TempDir()
	run := TexelRun{
		From: "heuristic", Out: filepath.Join(dir, "w.weights"), Data: filepath.Join(dir, "data.txt"),
		Games: DataConfig{Games: 2, Game: selfplay.Config{Depth: 1, MaxPlies: 60}, RandomPlies: 2, Seed: 4, Workers: 1},
		Fit:   FitConfig{Iterations: 5, Rate: 1},
	}
	var log strings.Builder
	if err := RunTexel(context.Background(), run, &log); err != nil {
		t.Fatal(err)
	}
	if _, err := heuristic.ReadFile(run.Out); err != nil {
		t.Fatalf("the weights do not read back: %v", err)
	}
	if _, err := os.Stat(run.Data); err != nil {
		t.Fatalf("no positions file: %v", err)
	}
	if !strings.Contains(log.String(), "positions from 2 games of heuristic at depth 1") {
		t.Errorf("log:\n%s", log.String())
	}
	// A second run reads the positions instead of playing.
	log.Reset()
	run.Games.Games = 1000
	if err := RunTexel(context.Background(), run, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "positions from the positions in "+run.Data) {
		t.Errorf("second run's log:\n%s", log.String())
	}
	for _, bad := range []TexelRun{{From: "material", Out: run.Out}, {From: "heuristic"}, {From: "heuristic:" + filepath.Join(dir, "none"), Out: run.Out}} {
		if err := RunTexel(context.Background(), bad, nil); err == nil {
			t.Errorf("RunTexel(%+v) accepted", bad)
		}
	}
}

func TestCompare(t *testing.T) {
	c, err := Compare(context.Background(), "heuristic", "material", 2, selfplay.Config{Depth: 1, MaxPlies: 60}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Openings != 2 || c.Tally.Games() != 4 || c.Tally.Pairs() != 2 || !strings.HasPrefix(c.String(), "heuristic vs material, depth 1, 2 openings x 2 colours: +") {
		t.Errorf("comparison %+v: %q", c, c.String())
	}
	if _, err := Compare(context.Background(), "nosuch", "material", 1, selfplay.Config{Depth: 1}, 1); err == nil {
		t.Error("an unknown evaluator was accepted")
	}
}

// TestCommandRefusals: what a tune command refuses before any work, as
// bad input.
func TestCommandRefusals(t *testing.T) {
	game := selfplay.Config{Depth: 1, MaxPlies: 20}
	for _, tc := range []struct {
		c    Command
		want string
	}{
		{Command{Method: "select", Workers: 1, Out: "w.txt"}, "--depth and --workers must be at least 1"},
		{Command{Method: "match", Game: game}, "--depth and --workers must be at least 1"},
		{Command{Method: "texel", Game: game, Workers: 1}, "--out is required"},
		{Command{Method: "select", Game: game, Workers: 1}, "--out is required"},
		{Command{Method: "hill", Game: game, Workers: 1, Out: "w.txt"}, `unknown method "hill"`},
	} {
		err := tc.c.Run(context.Background(), io.Discard, io.Discard)
		if err == nil || err.Error() != tc.want || !badinput.Is(err) {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.want)
		}
	}
}
