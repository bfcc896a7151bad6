package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval/evaltest"
	"github.com/nechecb/nechecb/eval/nn"
	"github.com/nechecb/nechecb/train/positions"
)

// TestNNTrain runs nn-train end to end on a tiny net: a net that loads,
// whose note names the command and the data, a plot, a second fit from
// the first that carries its note forward, and the flag errors.
func TestNNTrain(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.pos")
	var recs []positions.Record
	for i, p := range evaltest.RandomPositions(300, 1) {
		recs = append(recs, positions.NewRecord(&p, uint8(i%3), 10*(i%21-10), uint8(i/6*37)))
	}
	if err := positions.WriteFile(data, "test", 50, recs); err != nil {
		t.Fatal(err)
	}
	first, second, plot := filepath.Join(dir, "a.nn"), filepath.Join(dir, "b.nn"), filepath.Join(dir, "loss.svg")
	tiny := []string{"--layout", "stages=1,hidden=16", "--epochs", "2", "--batch", "32", "--validation", "0.2", "--workers", "2"}
	var out, errs strings.Builder
	if status := nnTrainCommand(append([]string{"--data", data + "," + data, "--out", first, "--plot", plot}, tiny...), &out, &errs); status != 0 {
		t.Fatalf("nn-train: status %d: %s", status, errs.String())
	}
	a, err := nn.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"nn-train: nechecb nn-train --data", data + " (300 positions, 50 games, ", "1x(120-16x2-32-32-1)", "kept epoch", "quantisation error", "cumulative "} {
		if !strings.Contains(a.Note, want) {
			t.Errorf("the note lacks %q:\n%s", want, a.Note)
		}
	}
	for _, want := range []string{"epoch 2: ", "positions/s", "quantisation error over "} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, errs.String())
		}
	}
	if svg, err := os.ReadFile(plot); err != nil || !strings.HasPrefix(string(svg), "<svg") {
		t.Errorf("plot: %v", err)
	}
	// From the first net: its layout and note carry over; the data file,
	// which the first fit read twice, is new to neither, so the cumulative
	// count is one copy's training positions both times.
	errs.Reset()
	if status := nnTrainCommand([]string{"--data", data, "--out", second, "--init", first, "--epochs", "1", "--batch", "32", "--remark", "round 2"}, &out, &errs); status != 0 {
		t.Fatalf("nn-train --init: status %d: %s", status, errs.String())
	}
	b, err := nn.ReadFile(second)
	if err != nil {
		t.Fatal(err)
	}
	counts := regexp.MustCompile(`learned from (\d+) positions \(\d+ games\), (\d+) of them new to the lineage, cumulative (\d+) positions`).FindAllStringSubmatch(b.Note, -1)
	if !strings.HasPrefix(b.Note, a.Note+"\n\n") || !strings.Contains(b.Note, "round 2") || b.Layout != a.Layout || len(counts) != 2 {
		t.Fatalf("the second note does not carry the first and add its paragraph:\n%s", b.Note)
	}
	learned, fresh := counts[0][1], counts[0][2]
	if n, _ := strconv.Atoi(learned); fmt.Sprint(n/2) != fresh || counts[0][3] != fresh || counts[1][2] != "0" || counts[1][3] != fresh {
		t.Errorf("cumulative counts %v: want the first fit's new positions half of its %s (one file read twice), none new in the second", counts, learned)
	}
	for _, args := range [][]string{
		{"--out", first},
		{"--data", data},
		{"--data", filepath.Join(dir, "none.pos"), "--out", first},
		{"--data", data, "--out", first, "--init", data},
		{"--data", data, "--out", first, "--lambda", "2"},
		{"--data", data, "--out", first, "--layout", "hidden=100"},
		{"--data", data, "--out", first, "--layout", "stages=3"},
		{"--data", data, "--out", first, "--layout", "width=3"},
		{"--data", data, "--out", first, "--init", first, "--layout", "l2=64"},
		{"--data", data, "--out", first, "--epochs", "0"},
		{"--data", data, "--out", first, "--lr", "-1"},
		{"--data", data, "--out", first, "--validation", "1"},
		{"--data", data, "--out", first, "--workers", "0"},
		{"--data", data, "--out", first, "--max-positions", "-5"},
		{"--data", data, "--out", first, "--checkpoint", first},
		{"--data", data, "--out", first, "--bogus"},
	} {
		errs.Reset()
		if status := nnTrainCommand(args, &out, &errs); status != 2 || errs.Len() == 0 || strings.Contains(errs.String(), "epoch 1") {
			t.Errorf("%q: status %d, errors %q; want 2 and a message before any epoch", args, status, errs.String())
		}
	}
	for _, args := range [][]string{{"--out", filepath.Join(dir, "no", "n.nn")}, {"--out", second, "--plot", filepath.Join(dir, "no", "p.svg")}, {"--out", second, "--checkpoint", filepath.Join(dir, "no", "ck")}} {
		errs.Reset()
		if status := nnTrainCommand(append([]string{"--data", data, "--epochs", "1"}, args...), &out, &errs); status != 1 || strings.Contains(errs.String(), "epoch 1") {
			t.Errorf("nn-train %q: status %d, errors %q; want 1 before training", args, status, errs.String())
		}
	}
}

// TestNNTrainCompareAndAnnotate: a fit with --compare reports the
// evaluators' held-out losses in its summary and note; --epochs 0 with
// --init measures a net against pattern and writes nothing; --annotate adds
// a line to a net's note; and each refuses what it cannot do, at once.
func TestNNTrainCompareAndAnnotate(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.pos")
	var recs []positions.Record
	for i, p := range evaltest.RandomPositions(200, 2) {
		recs = append(recs, positions.NewRecord(&p, uint8(i%3), 10*(i%21-10), uint8(i/5*41)))
	}
	if err := positions.WriteFile(data, "test", 40, recs); err != nil {
		t.Fatal(err)
	}
	net, gated := filepath.Join(dir, "a.nn"), filepath.Join(dir, "b.nn")
	var out, errs strings.Builder
	args := []string{"--data", data, "--out", net, "--layout", "stages=1,hidden=16", "--epochs", "1", "--batch", "32", "--validation", "0.2", "--compare", "material"}
	if status := nnTrainCommand(args, &out, &errs); status != 0 {
		t.Fatalf("nn-train --compare: status %d: %s", status, errs.String())
	}
	row := regexp.MustCompile(`(?m)^  material +\d\.\d{6} \[2-6 `)
	if !strings.Contains(errs.String(), "held-out loss compared on the same ") || !row.MatchString(errs.String()) || !strings.Contains(errs.String(), "  this net (integer scores) ") {
		t.Errorf("the summary lacks the comparison:\n%s", errs.String())
	}
	a, err := nn.ReadFile(net)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Note, "held-out loss compared on ") || !regexp.MustCompile(`; material \d\.\d{6} \[2-6 `).MatchString(a.Note) {
		t.Errorf("the note lacks the comparison:\n%s", a.Note)
	}
	errs.Reset()
	if status := nnTrainCommand([]string{"--data", data, "--init", net, "--epochs", "0", "--validation", "0.2", "--compare", "pattern,material", "--workers", "2"}, &out, &errs); status != 0 {
		t.Fatalf("nn-train --epochs 0: status %d: %s", status, errs.String())
	}
	for _, want := range []string{"measuring a ", "  this net (integer scores) ", "  pattern ", "  material "} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("--epochs 0: the log lacks %q:\n%s", want, errs.String())
		}
	}
	if strings.Contains(errs.String(), "epoch 1") || strings.Contains(errs.String(), "quantisation") {
		t.Errorf("--epochs 0 fitted:\n%s", errs.String())
	}
	errs.Reset()
	if status := nnTrainCommand([]string{"--annotate", net, "--remark", "gate: H1", "--out", gated}, &out, &errs); status != 0 {
		t.Fatalf("nn-train --annotate: status %d: %s", status, errs.String())
	}
	if b, err := nn.ReadFile(gated); err != nil || b.Note != a.Note+"\ngate: H1" {
		t.Errorf("annotated: %v, note:\n%s", err, b.Note)
	}
	for _, args := range [][]string{
		{"--data", data, "--out", net, "--epochs", "1", "--compare", "bogus"},
		{"--data", data, "--out", net, "--epochs", "1", "--compare", "material", "--validation", "0"},
		{"--data", data, "--epochs", "0", "--compare", "material"},
		{"--data", data, "--init", net, "--epochs", "0", "--out", gated},
		{"--annotate", data, "--remark", "x", "--out", gated},
		{"--annotate", net, "--out", gated},
		{"--annotate", net, "--remark", "x"},
		{"--annotate", net, "--remark", "x", "--out", gated, "--data", data},
	} {
		errs.Reset()
		if status := nnTrainCommand(args, &out, &errs); status != 2 || errs.Len() == 0 || strings.Contains(errs.String(), "positions from") {
			t.Errorf("%q: status %d, errors %q; want 2 and a message before the data is read", args, status, errs.String())
		}
	}
}
