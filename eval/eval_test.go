package eval

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spec
	}{
		{"heuristic", Spec{Name: "heuristic"}},
		{"neche:best_networks.txt#last", Spec{Name: "neche", Path: "best_networks.txt", Selector: "last"}},
		{"cnn:/data/a#b.csv#Gen15_0111", Spec{Name: "cnn", Path: "/data/a#b.csv", Selector: "Gen15_0111"}},
		{"blondie:C:/nets/b.txt", Spec{Name: "blondie", Path: "C:/nets/b.txt"}},
	} {
		got, err := ParseSpec(tc.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tc.in, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseSpec(%q) (-want +got):\n%s", tc.in, diff)
		}
		if again, _ := ParseSpec(got.String()); again != got {
			t.Errorf("spec %q does not round-trip: %q", tc.in, got.String())
		}
	}
	if _, err := ParseSpec(":x"); err == nil {
		t.Error("ParseSpec(:x) gave no error")
	}
}

func TestLoadUnknown(t *testing.T) {
	_, err := Load("nosuch:file")
	if err == nil || !strings.Contains(err.Error(), "unknown evaluator") {
		t.Errorf("Load(nosuch) = %v", err)
	}
	if _, err := Load("material:file.txt"); err == nil {
		t.Error("material with a file gave no error")
	}
}

func TestMaterial(t *testing.T) {
	f, err := Load("material")
	if err != nil {
		t.Fatal(err)
	}
	e := f()
	p, _ := engine.ParseFEN("W:W21,K22:B1,2,3")
	if got := e.Evaluate(&p); got != MaterialMan+MaterialKing-3*MaterialMan {
		t.Errorf("Evaluate = %d", got)
	}
	r := p.Rotated()
	if e.Evaluate(&r) != e.Evaluate(&p) {
		t.Errorf("material is not symmetric under rotation")
	}
}

func TestScoreFromFloat(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want int
	}{
		{0, 0}, {149.5, 150}, {-149.5, -150}, {-0.4, 0}, {1e300, ScoreLimit}, {-1e300, -ScoreLimit},
		{math.Inf(1), ScoreLimit}, {math.Inf(-1), -ScoreLimit}, {math.NaN(), 0},
	} {
		if got := ScoreFromFloat(tc.in); got != tc.want {
			t.Errorf("ScoreFromFloat(%v) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
