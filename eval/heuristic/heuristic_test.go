package heuristic

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
)

func TestFeaturesAreOwnMinusOpponent(t *testing.T) {
	for _, p := range evaltest.RandomPositions(300, 1) {
		own, opp := SideFeatures(&p, p.Side), SideFeatures(&p, p.Side.Opponent())
		var want Vector
		for i := range want {
			want[i] = float64(own[i]-opp[i]) * featureScale[i]
		}
		if diff := cmp.Diff(want, Features(&p)); diff != "" {
			t.Fatalf("%s: Features (-want +got):\n%s", p.FEN(), diff)
		}
	}
}

func TestSymmetryAndAllocs(t *testing.T) {
	f, err := eval.Load("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	evaltest.CheckSymmetry(t, f, 2000)
	evaltest.CheckNoAllocs(t, f)
}

// TestBlend checks the evaluation against a hand computation: with only the
// men and kings weighted, the value is the blended material sum.
func TestBlend(t *testing.T) {
	var w Weights
	w.Opening[Men], w.Endgame[Men] = 100, 200
	w.Opening[Kings], w.Endgame[Kings] = 10, 20
	e := NewEvaluator(NewModel(w))
	// 6 pieces: Black men 1, 2, 3, king 10; White men 30, 31 (White to move).
	p := mustFEN(t, "W:W30,31:B1,2,3,K10")
	tOpen := 6.0 / 24
	menW := tOpen*100 + (1-tOpen)*200
	kingW := (tOpen*10 + (1-tOpen)*20) * 1.5
	wantRaw := (2-3)*menW - kingW
	if got := e.Raw(&p); math.Abs(got-wantRaw) > 1e-9 {
		t.Errorf("Raw = %v, want %v", got, wantRaw)
	}
	if got, want := e.Evaluate(&p), int(math.Round(wantRaw)); got != want {
		t.Errorf("Evaluate = %d, want %d", got, want)
	}
	if BlendFactor(30) != 1 || BlendFactor(12) != 0.5 {
		t.Errorf("BlendFactor(30) = %v, BlendFactor(12) = %v", BlendFactor(30), BlendFactor(12))
	}
}

func BenchmarkEvaluate(b *testing.B) {
	f, err := eval.Load("heuristic")
	if err != nil {
		b.Fatal(err)
	}
	evaltest.Bench(b, f)
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{"opening.men 100\nopening.menn 3\n", "w.txt:2: unknown weight \"opening.menn\""},
		{"men 100\n", "w.txt:1: unknown weight \"men\""},
		{"# c\n\nendgame.kings x1\n", "w.txt:3: bad number \"x1\" for endgame.kings"},
		{"endgame.kings NaN\n", "w.txt:1: bad number \"NaN\""},
		{"endgame.kings 1e999\n", "w.txt:1: bad number \"1e999\""},
		{"endgame.kings -2e6\n", "w.txt:1: weight endgame.kings = -2e6 is outside ±1e+06"},
		{"opening.jumps 1\nopening.jumps 2 # again\n", "w.txt:2: duplicate weight \"opening.jumps\" (first on line 1)"},
		{"opening.jumps\n", "w.txt:1: want \"NAME VALUE\", got 1 fields"},
		{"opening.jumps 1 2\n", "w.txt:1: want \"NAME VALUE\", got 3 fields"},
	} {
		_, err := Read(strings.NewReader(tc.text), "w.txt")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}

func TestWeightsRoundTrip(t *testing.T) {
	w := DefaultWeights()
	w.Endgame[Runaways] = 1.0 / 3
	path := filepath.Join(t.TempDir(), "w.weights")
	if err := w.WriteFile(path, "test weights\nsecond line"); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files after an atomic write, want 1", len(entries))
	}
}

func TestLoadSpec(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.weights")
	if err := os.WriteFile(path, []byte("opening.men 100\nendgame.men 100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := eval.Load("heuristic:" + path)
	if err != nil {
		t.Fatal(err)
	}
	p := mustFEN(t, "B:W30,31:B1,2,3,K10")
	if got := f().Evaluate(&p); got != 100 {
		t.Errorf("men-only weights give %d, want 100", got)
	}
	bad := filepath.Join(dir, "bad.weights")
	os.WriteFile(bad, []byte("opening.men 1\nopening.foo 2\n"), 0o644)
	if _, err := eval.Load("heuristic:" + bad); err == nil || !strings.Contains(err.Error(), bad+":2: unknown weight") {
		t.Errorf("bad file: %v", err)
	}
	if _, err := eval.Load("heuristic:" + filepath.Join(dir, "none")); err == nil {
		t.Error("missing file gave no error")
	}
	if _, err := eval.Load("heuristic:#x"); err == nil {
		t.Error("selector gave no error")
	}
}

func FuzzRead(f *testing.F) {
	f.Add(string(defaultWeightsText))
	f.Add("opening.men 1e3\n# x\nendgame.kings -0.5 # y\n")
	f.Add("opening.men 1\nopening.men 2\n")
	f.Fuzz(func(t *testing.T, text string) {
		w, err := Read(strings.NewReader(text), "fuzz")
		if err != nil {
			return
		}
		again, err := Read(bytes.NewReader(w.Format("round trip")), "again")
		if err != nil {
			t.Fatalf("written weights do not read back: %v", err)
		}
		if diff := cmp.Diff(w, again); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
	})
}

func BenchmarkFeatures(b *testing.B) {
	ps := evaltest.RandomPositions(64, 3)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = Features(&ps[i&63])
	}
}
