package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/train/positions"
)

// TestDatagenAndPatternTrain runs the two commands end to end on a few
// games: positions, then weights that load, and a loss plot.
func TestDatagenAndPatternTrain(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.pos")
	var out, errs strings.Builder
	if status := datagenCommand([]string{"--out", data, "--games", "4", "--chunk", "2", "--nodes", "200", "--max-plies", "60", "--workers", "2"}, &out, &errs); status != 0 {
		t.Fatalf("datagen: status %d: %s", status, errs.String())
	}
	f, err := positions.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Games != 4 || len(f.Records) == 0 || !strings.Contains(errs.String(), "games 4, positions ") {
		t.Fatalf("datagen wrote %d games, %d positions; said %q", f.Games, len(f.Records), errs.String())
	}
	// Resuming with a larger target adds games; other settings are refused.
	errs.Reset()
	if status := datagenCommand([]string{"--out", data, "--resume", "--games", "6", "--chunk", "2", "--nodes", "200", "--max-plies", "60"}, &out, &errs); status != 0 {
		t.Fatalf("datagen --resume: status %d: %s", status, errs.String())
	}
	if f, err = positions.ReadFile(data); err != nil || f.Games != 6 {
		t.Fatalf("after resuming: %v, %d games", err, f.Games)
	}
	weights, plot := filepath.Join(dir, "w.pat"), filepath.Join(dir, "loss.svg")
	errs.Reset()
	if status := patternTrainCommand([]string{"--data", data + "," + data, "--out", weights, "--plot", plot, "--epochs", "2", "--batch", "64", "--validation", "0"}, &out, &errs); status != 0 {
		t.Fatalf("pattern-train: status %d: %s", status, errs.String())
	}
	w, err := pattern.ReadFile(weights)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.Note, "nechecb pattern-train") || !strings.Contains(errs.String(), "epoch 2: ") {
		t.Errorf("note %q; log %q", w.Note, errs.String())
	}
	if svg, err := os.ReadFile(plot); err != nil || !strings.HasPrefix(string(svg), "<svg") {
		t.Errorf("plot: %v", err)
	}
	for _, c := range []struct {
		run  func([]string) int
		args []string
	}{
		{func(a []string) int { return datagenCommand(a, &out, &errs) }, []string{}},
		{func(a []string) int { return datagenCommand(a, &out, &errs) }, []string{"--out", data, "--games", "8"}},             // exists
		{func(a []string) int { return datagenCommand(a, &out, &errs) }, []string{"--out", data, "--resume", "--games", "8"}}, // other settings
		{func(a []string) int { return datagenCommand(a, &out, &errs) }, []string{"--out", filepath.Join(dir, "e.pos")}},      // no target
		{func(a []string) int { return datagenCommand(a, &out, &errs) }, []string{"--out", filepath.Join(dir, "e.pos"), "--games", "1", "--eval", "nosuch"}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--out", weights}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--data", filepath.Join(dir, "none.pos"), "--out", weights}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--data", data, "--out", weights, "--from", data}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--data", data, "--out", weights, "--lambda", "3"}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--data", data, "--out", weights, "--model", "v3"}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--data", data, "--out", weights, "--knots", "24,2,12"}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--data", data, "--out", weights, "--model", "v1", "--knots", "24,2"}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--data", data, "--out", weights, "--drop", "speed"}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--data", data, "--out", weights, "--bucket-weights", "1,1,1,1"}},
		{func(a []string) int { return patternTrainCommand(a, &out, &errs) }, []string{"--data", data, "--out", weights, "--bucket-weights", "1,x,1,1,1"}},
	} {
		errs.Reset()
		if status := c.run(c.args); status != 2 || errs.Len() == 0 {
			t.Errorf("%q: status %d, errors %q; want 2 and a message", c.args, status, errs.String())
		}
	}
	// Weights that cannot be written are a runtime failure, found before
	// the training (which would log an epoch).
	for _, args := range [][]string{{"--out", filepath.Join(dir, "no", "w.pat")}, {"--out", weights, "--plot", filepath.Join(dir, "no", "p.svg")}} {
		errs.Reset()
		if status := patternTrainCommand(append([]string{"--data", data, "--epochs", "1", "--validation", "0"}, args...), &out, &errs); status != 1 || strings.Contains(errs.String(), "epoch 1") {
			t.Errorf("pattern-train %q: status %d, errors %q; want 1 before training", args, status, errs.String())
		}
	}
	// So is a positions file or a run folder that cannot be written: a
	// path under a regular file (even root cannot write there).
	under := filepath.Join(data, "x")
	errs.Reset()
	if status := datagenCommand([]string{"--out", under, "--games", "1"}, &out, &errs); status != 1 {
		t.Errorf("datagen --out %s: status %d, errors %q; want 1", under, status, errs.String())
	}
}
