package eval

import (
	"math"
	"strconv"
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
	if got := e.Evaluate(&p); got != 100+130-3*100 { // a man and a king against three men
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

// registryRuns counts the runs of TestOneRegistry.
var registryRuns int

// TestOneRegistry checks that a data loader attaches to a kind already
// registered, and only once: the path and bytes loaders of a kind are one
// entry of one registry.
func TestOneRegistry(t *testing.T) {
	panics := func(f func()) (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}
	fromData := func([]byte, string) (Factory, error) { return func() Evaluator { return nil }, nil }
	if !panics(func() { RegisterData("test-no-such-kind", fromData) }) {
		t.Error("RegisterData accepted a kind that is not registered")
	}
	// A name of its own each run, since -count runs the test again in the
	// same process.
	registryRuns++
	name := "test-data-kind-" + strconv.Itoa(registryRuns)
	Register(name, func(string, string) (Factory, error) { return nil, nil })
	if _, ok, _ := LoadData(name, "", nil); ok {
		t.Error("LoadData: a kind with no data loader says it loaded")
	}
	RegisterData(name, fromData)
	if f, ok, err := LoadData(name, "", nil); !ok || err != nil || f == nil {
		t.Errorf("LoadData: %v, %v, %v", f, ok, err)
	}
	if !panics(func() { RegisterData(name, fromData) }) {
		t.Error("RegisterData accepted a second data loader")
	}
}
