package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/eval/tdleaf"
)

func TestTuneCommand(t *testing.T) {
	var out, errs strings.Builder
	if status := tuneCommand("match", []string{"--a", "heuristic", "--b", "material", "--depth", "1", "--openings", "1", "--workers", "1"}, &out, &errs); status != 0 {
		t.Fatalf("tune match: status %d: %s", status, errs.String())
	}
	if !strings.HasPrefix(out.String(), "heuristic vs material, depth 1, 1 openings x 2 colours: +") {
		t.Errorf("tune match printed %q", out.String())
	}
	path := filepath.Join(t.TempDir(), "select.weights")
	for _, method := range []string{"select"} {
		errs.Reset()
		if status := tuneCommand(method, []string{"--population", "4", "--rounds", "1", "--depth", "1", "--max-plies", "40", "--out", path}, &out, &errs); status != 0 {
			t.Fatalf("tune %s: status %d: %s", method, status, errs.String())
		}
		if _, err := heuristic.ReadFile(path); err != nil {
			t.Errorf("tune %s wrote a file that does not read: %v", method, err)
		}
	}
	for _, args := range [][]string{
		{"nosuch"}, {"hill"}, {"match", "--depth", "0"}, {"select"}, {"texel"}, {"texel", "--from", "material", "--out", path},
		{"texel", "--games", "0", "--out", path}, {"match", "--a", "nosuch"}, {"match", "extra"},
	} {
		errs.Reset()
		if status := tuneCommand(args[0], args[1:], &out, &errs); status != 2 || errs.Len() == 0 {
			t.Errorf("tune %q: status %d, errors %q; want 2 and a message", args, status, errs.String())
		}
	}
	// A weight file that cannot be written is a runtime failure.
	errs.Reset()
	missing := filepath.Join(t.TempDir(), "no", "such", "select.weights")
	if status := tuneCommand("select", []string{"--population", "2", "--rounds", "1", "--depth", "1", "--max-plies", "20", "--out", missing}, &out, &errs); status != 1 || errs.Len() == 0 {
		t.Errorf("tune select into a missing directory: status %d, errors %q; want 1 and a message", status, errs.String())
	}
}

func TestTDLeafTrainCommand(t *testing.T) {
	dir := t.TempDir()
	net := filepath.Join(dir, "net.txt")
	var errs strings.Builder
	if status := tdleafTrainCommand([]string{"--out", net, "--games", "1", "--depth", "1", "--max-plies", "30", "--inputs", "men:0.2,kings", "--hidden", "3"}, &errs); status != 0 {
		t.Fatalf("status %d: %s", status, errs.String())
	}
	n, err := tdleaf.ReadFile(net)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Sizes) != 3 || n.Sizes[0] != 2 || n.Sizes[1] != 3 || n.Inputs[0].Scale != 0.2 || n.Inputs[1].Scale != 1 {
		t.Errorf("network shape %v, inputs %+v", n.Sizes, n.Inputs)
	}
	for _, args := range [][]string{
		{}, {"--out", filepath.Join(dir, "b.txt"), "--inputs", "wealth"}, {"--out", filepath.Join(dir, "c.txt"), "--hidden", "x"},
		{"--out", net, "--opponent", "nosuch"}, {"--out", net, "--depth", "0"},
	} {
		errs.Reset()
		if status := tdleafTrainCommand(args, &errs); status != 2 || errs.Len() == 0 {
			t.Errorf("tdleaf-train %q: status %d, errors %q; want 2 and a message", args, status, errs.String())
		}
	}
	// A checkpoint that cannot be written is a runtime failure.
	errs.Reset()
	missing := filepath.Join(dir, "no", "such", "net.txt")
	if status := tdleafTrainCommand([]string{"--out", missing, "--games", "1", "--depth", "1", "--max-plies", "10"}, &errs); status != 1 || errs.Len() == 0 {
		t.Errorf("tdleaf-train into a missing directory: status %d, errors %q; want 1 and a message", status, errs.String())
	}
}
