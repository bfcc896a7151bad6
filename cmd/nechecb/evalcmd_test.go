package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
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

func TestEvalCommandCNN(t *testing.T) {
	spec := "cnn:../../eval/cnn/testdata/Gen15WeightsBest.csv#Gen15_0111"
	var out, errs strings.Builder
	if status := evalCommand([]string{"--eval", spec, "--fen", "W:W21-32:B1-12"}, &out, &errs); status != 0 {
		t.Fatalf("status %d: %s", status, errs.String())
	}
	// The command prints what the evaluator gives; eval/cnn checks that
	// against the golden values of its testdata.
	f, err := eval.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.ParseFEN("W:W21-32:B1-12")
	if err != nil {
		t.Fatal(err)
	}
	e := f()
	want := fmt.Sprintf("raw %s\nscore %d\n", strconv.FormatFloat(e.Raw(&p), 'g', -1, 64), e.Evaluate(&p))
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Error(diff)
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
