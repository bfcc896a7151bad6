package tdleaf

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
	"github.com/nechecb/nechecb/eval/heuristic"
)

func testNetwork(t testing.TB, seed uint64) *Network {
	t.Helper()
	n, err := New(DefaultInputs, []int{6, 6}, rand.New(rand.NewPCG(seed, 2)))
	if err != nil {
		t.Fatal(err)
	}
	// Non-zero biases, so that the gradient test covers them.
	for k := range n.B {
		for i := range n.B[k] {
			n.B[k][i] = 0.1 * float64(i%3-1)
		}
	}
	return n
}

func TestForwardByHand(t *testing.T) {
	// One input (men, scale 0.5), one hidden unit, one output.
	n := &Network{
		Inputs: []Input{{heuristic.Men, 0.5}},
		Sizes:  []int{1, 1, 1},
		W:      [][]float64{{2}, {0.25}},
		B:      [][]float64{{-1}, {0.1}},
	}
	p, _ := engine.ParseFEN("B:W30:B1,2,3,4") // Black, to move, has 3 men more
	// hidden = relu(2·(3·0.5) − 1) = 2; J = tanh(0.25·2 + 0.1)
	want := math.Tanh(0.6)
	e := NewEvaluator(n)
	if got := e.Raw(&p); math.Abs(got-want) > 1e-12 {
		t.Errorf("J = %v, want %v", got, want)
	}
	if got, want := e.Evaluate(&p), int(math.Round(200*0.6)); got != want {
		t.Errorf("score = %d, want %d", got, want)
	}
	r := p.Rotated()
	if got := e.Raw(&r); math.Abs(got-want) > 1e-12 {
		t.Errorf("rotated J = %v, want %v", got, want)
	}
	// White to move is 3 men down: relu(2·(−1.5) − 1) = 0, J = tanh(0.1).
	p.Side = engine.White
	if got := e.Raw(&p); math.Abs(got-math.Tanh(0.1)) > 1e-12 {
		t.Errorf("J for White = %v, want tanh(0.1)", got)
	}
}

// TestGradientMatchesFiniteDifferences checks every parameter's derivative
// against a central difference on random positions.
func TestGradientMatchesFiniteDifferences(t *testing.T) {
	n := testNetwork(t, 1)
	s := n.NewScratch()
	const h = 1e-6
	for pi, p := range evaltest.RandomPositions(20, 5) {
		grad := n.Zero()
		n.Gradient(&p, s, 1, grad)
		for k := range n.W {
			for _, set := range []struct {
				name      string
				param, gr []float64
			}{{"W", n.W[k], grad.W[k]}, {"B", n.B[k], grad.B[k]}} {
				for i := range set.param {
					old := set.param[i]
					set.param[i] = old + h
					up := n.Value(&p, s)
					set.param[i] = old - h
					down := n.Value(&p, s)
					set.param[i] = old
					fd := (up - down) / (2 * h)
					if math.Abs(fd-set.gr[i]) > 1e-6*max(1, math.Abs(fd)) {
						t.Errorf("position %d, layer %d %s[%d]: gradient %v, finite difference %v", pi, k+1, set.name, i, set.gr[i], fd)
					}
				}
			}
		}
	}
}

func TestSymmetryAndAllocs(t *testing.T) {
	f := Factory(testNetwork(t, 3))
	evaltest.CheckSymmetry(t, f, 1000)
	evaltest.CheckNoAllocs(t, f)
}

func BenchmarkEvaluate(b *testing.B) {
	evaltest.Bench(b, Factory(testNetwork(b, 3)))
}

func TestRoundTripAndLoad(t *testing.T) {
	n := testNetwork(t, 4)
	path := filepath.Join(t.TempDir(), "net.txt")
	if err := n.WriteFile(path, "a test network\nwith two comment lines"); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(n, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	f, err := eval.Load("tdleaf:" + path)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.StartPosition()
	if a, b := f().Raw(&p), NewEvaluator(n).Raw(&p); a != b {
		t.Errorf("loaded network gives %v, the original %v", a, b)
	}
	if _, err := eval.Load("tdleaf"); err == nil {
		t.Error("tdleaf without a file gave no error")
	}
}

func TestReadErrors(t *testing.T) {
	good := string(testNetwork(t, 5).Format(""))
	lines := strings.Split(good, "\n")
	replace := func(i int, with string) string {
		c := append([]string(nil), lines...)
		c[i] = with
		return strings.Join(c, "\n")
	}
	for _, tc := range []struct {
		name, text, want string
	}{
		{"header", replace(0, "tdleaf v2"), "n.txt:1: want the header"},
		{"empty", "", "n.txt:0: the file ends where the header should be"},
		{"layers", replace(1, "layers 8 6 6 2"), "n.txt:2: the last layer has 2 units"},
		{"layer size", replace(1, "layers 8 x 6 1"), "n.txt:2: bad layer size \"x\""},
		{"input count", replace(1, "layers 9 6 6 1"), "n.txt:11: want \"input NAME SCALE\" (9 inputs)"},
		{"unknown input", replace(2, "input wealth 1"), "n.txt:3: unknown feature \"wealth\""},
		{"duplicate input", replace(3, "input men 1"), "n.txt:4: input men appears twice (first on line 3)"},
		{"bad scale", replace(2, "input men NaN"), "n.txt:3: bad number \"NaN\""},
		{"layer tag", replace(10, "layer 2"), "n.txt:11: want \"layer 1\""},
		{"short row", replace(11, "1 2 3"), "n.txt:12: layer 1 row 1 has 3 numbers, want 8 weights and a bias"},
		{"bad weight", replace(11, "1 2 3 4 5 6 7 8 +Inf"), "n.txt:12: bad number \"+Inf\""},
		{"truncated", strings.Join(lines[:20], "\n"), "n.txt:20: the file ends where row 3 of layer 2"},
		{"trailing", good + "1 2 3\n", "unexpected line after the last layer"},
	} {
		_, err := Read(strings.NewReader(tc.text), "n.txt")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Read = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add(string(testNetwork(f, 6).Format("seed")))
	f.Add("tdleaf v1\nlayers 1 1\ninput men 1\nlayer 1\n0.5 0\n")
	f.Add("tdleaf v1\nlayers 2 1\ninput men 1\ninput men 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		n, err := Read(strings.NewReader(text), "fuzz")
		if err != nil {
			return
		}
		if err := n.check(); err != nil {
			t.Fatalf("Read accepted a network that check rejects: %v", err)
		}
		again, err := Read(bytes.NewReader(n.Format("again")), "again")
		if err != nil {
			t.Fatalf("written network does not read back: %v", err)
		}
		if diff := cmp.Diff(n, again); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
	})
}
