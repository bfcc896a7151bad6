package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/eval/blondie"
)

func TestEvalCommand(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		status     int
		out, error string
	}{
		{[]string{"--eval", "material", "--fen", "W:W21,K22:B1,2,3"}, 0, "raw -0.7\nscore -70\n", ""},
		{[]string{"--eval", "neche:#g1", "--fen", "B:W21,K22:B1,2,3"}, 0, "raw 0\nscore 0\n", ""},
		{[]string{"--eval", "neche:#g1", "--fen", "B:WK22:B1,2,3"}, 0, "raw 1\nscore 100\n", ""},
		{[]string{"--eval", "neche:../../eval/neche/testdata/best_networks.txt#1", "--fen", "W:WK22:B1,2,3"}, 0, "raw -1\nscore -100\n", ""},
		{[]string{"--eval", "nosuch"}, 2, "", "unknown evaluator"},
		{[]string{"--fen", "X:1"}, 2, "", "side to move"},
		{[]string{"--eval", "neche:../../eval/neche/testdata/best_networks.txt#9"}, 2, "", "past the end"},
		{[]string{"--eval", "material", "--dot"}, 2, "", "neche networks only"},
		{[]string{"extra"}, 2, "", "unexpected argument"},
	} {
		var out, errs strings.Builder
		status := evalCommand(tc.args, &out, &errs)
		if status != tc.status || out.String() != tc.out || !strings.Contains(errs.String(), tc.error) {
			t.Errorf("eval %q: status %d, out %q, errors %q", tc.args, status, out.String(), errs.String())
		}
	}
}

func TestEvalDOT(t *testing.T) {
	var out, errs strings.Builder
	if status := evalCommand([]string{"--eval", "neche:#g1", "--dot"}, &out, &errs); status != 0 {
		t.Fatalf("status %d: %s", status, errs.String())
	}
	lines := strings.Split(out.String(), "\n")
	if diff := cmp.Diff("digraph neche {", lines[0]); diff != "" {
		t.Error(diff)
	}
	if n := strings.Count(out.String(), " -> n63 "); n != 32 {
		t.Errorf("G1 drawing has %d edges into the output, want 32", n)
	}
}

func TestEvalCommandCNN(t *testing.T) {
	var out, errs strings.Builder
	args := []string{"--eval", "cnn:../../eval/cnn/testdata/Gen15WeightsBest.csv#Gen15_0111", "--fen", "W:W21-32:B1-12"}
	if status := evalCommand(args, &out, &errs); status != 0 {
		t.Fatalf("status %d: %s", status, errs.String())
	}
	// 0.5 - f(start seen by Black), f from cnn.md.
	var raw float64
	var score int
	if _, err := fmt.Sscanf(out.String(), "raw %g\nscore %d\n", &raw, &score); err != nil {
		t.Fatalf("output %q: %v", out.String(), err)
	}
	if math.Abs(raw-(0.5-0.48175755403709675)) > 1e-12 || score != 182 {
		t.Errorf("raw %v score %d", raw, score)
	}
}

func TestEvalCommandBlondie(t *testing.T) {
	n := &blondie.Net{Arch: blondie.Arch2001, King: 2, PieceDiff: 0.1, Weights: make([]float64, blondie.Arch2001.NumWeights())}
	path := filepath.Join(t.TempDir(), "b.txt")
	if err := n.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	// Black to move, two men up: tanh(0.1 * 2).
	args := []string{"--eval", "blondie:" + path, "--fen", "B:W21:B1,2,3"}
	if status := evalCommand(args, &out, &errs); status != 0 {
		t.Fatalf("status %d: %s", status, errs.String())
	}
	want := fmt.Sprintf("raw %s\nscore %d\n", strconv.FormatFloat(math.Tanh(0.2), 'g', -1, 64), int(math.Round(2000*math.Tanh(0.2))))
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Error(diff)
	}
}

func TestEvalHelp(t *testing.T) {
	var out, errs strings.Builder
	if status := evalCommand([]string{"-h"}, &out, &errs); status != 0 || !strings.Contains(out.String(), "neche:PATH#LINE") {
		t.Errorf("status %d, help %q", status, out.String())
	}
}
