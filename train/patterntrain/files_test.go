package patterntrain

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/train/positions"
)

func TestTrainFiles(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.pos")
	if err := positions.WriteFile(data, "test", 1, labelled(400, pattern.V2, teacher(pattern.V2, 1), 1, 2)); err != nil {
		t.Fatal(err)
	}
	cfg := Default
	cfg.Epochs, cfg.Validation, cfg.Workers = 2, 0, 2
	out, plot := filepath.Join(dir, "w.pat"), filepath.Join(dir, "loss.svg")
	var log strings.Builder
	if err := TrainFiles(context.Background(), Files{Data: []string{data}, Out: out, Plot: plot, Config: cfg, Log: &log}); err != nil {
		t.Fatal(err)
	}
	w, err := pattern.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.Note, "--from material") || !strings.Contains(w.Note, data+" (400 positions, 1 games, ") {
		t.Errorf("note %q does not name the start and the data", w.Note)
	}
	if !strings.Contains(log.String(), "training on 400 positions") || !strings.Contains(log.String(), "epoch 2: ") {
		t.Errorf("log %q", log.String())
	}
	if svg, err := os.ReadFile(plot); err != nil || !strings.HasPrefix(string(svg), "<svg") {
		t.Errorf("plot: %v", err)
	}
	for _, f := range []Files{
		{Out: out},
		{Data: []string{filepath.Join(dir, "none.pos")}, Out: out},
		{Data: []string{data}, Out: out, From: data},
	} {
		f.Config, f.Log = cfg, &log
		if err := TrainFiles(context.Background(), f); err == nil || !badinput.Is(err) {
			t.Errorf("%+v: %v, want bad input", f, err)
		}
	}
}
