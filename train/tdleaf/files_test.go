package tdleaf

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	tdnet "github.com/nechecb/nechecb/eval/tdleaf"
	"github.com/nechecb/nechecb/internal/badinput"
)

func TestTrainFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "net.txt")
	cfg := Default
	cfg.Games, cfg.Depth, cfg.MaxPlies = 1, 1, 30
	var log strings.Builder
	if err := TrainFile(context.Background(), FileRun{Out: out, Inputs: "men:0.2,kings", Hidden: "3", Opponent: "self", Config: cfg}, &log); err != nil {
		t.Fatal(err)
	}
	n, err := tdnet.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Sizes) != 3 || n.Sizes[0] != 2 || n.Sizes[1] != 3 {
		t.Errorf("network shape %v", n.Sizes)
	}
	if !strings.Contains(log.String(), "opponent self, depth 1") {
		t.Errorf("log %q lacks the summary", log.String())
	}
	bad := cfg
	bad.Depth = 0
	for _, r := range []FileRun{
		{Inputs: "men", Hidden: "3", Opponent: "self", Config: cfg},
		{Out: out, Inputs: "men", Hidden: "3", Opponent: "self", Config: bad},
		{Out: filepath.Join(dir, "b.txt"), Inputs: "wealth", Hidden: "3", Opponent: "self", Config: cfg},
		{Out: filepath.Join(dir, "c.txt"), Inputs: "men", Hidden: "x", Opponent: "self", Config: cfg},
		{Out: out, Inputs: "men", Hidden: "3", Opponent: "nosuch", Config: cfg},
	} {
		if err := TrainFile(context.Background(), r, &log); err == nil || !badinput.Is(err) {
			t.Errorf("%+v: %v, want bad input", r, err)
		}
	}
}
