package nn

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
)

// defaultLayout is the layout of the default net, used for speed.
var defaultLayout = Layout{Stages: 4, Hidden: 128, L2: 32, L3: 32}

// randomGames plays n random games from the start to their end (or 200
// plies) and returns, game after game, each position followed by its
// children: the order in which a shallow search meets them.
func randomGames(n int, seed uint64) []engine.Position {
	rng := rand.New(rand.NewPCG(seed, 2))
	var out []engine.Position
	var list engine.MoveList
	for range n {
		p := engine.StartPosition()
		for ply := 0; ply < 200; ply++ {
			out = append(out, p)
			if p.Generate(&list); list.N == 0 {
				break
			}
			for _, m := range list.Moves[:list.N] {
				out = append(out, p.Play(m))
			}
			p = p.Play(list.Moves[rng.IntN(list.N)])
		}
	}
	return out
}

// scratch returns the accumulators of p for the first layer f built from
// the biases: Black's view's units, then White's.
func scratch(f *FirstLayer, p *engine.Position) []int16 {
	h := len(f.B)
	acc := make([]int16, 2*h)
	for v := range 2 {
		copy(acc[v*h:], f.B)
		var act [MaxActive]int16
		for _, i := range act[:Active(p, engine.Color(v), &act)] {
			for j := range h {
				acc[v*h+j] += f.W[int(i)*h+j]
			}
		}
	}
	return acc
}

// checkAlong evaluates positions in order with e and fails t where the
// output or the accumulators differ from those built from scratch.
func checkAlong(t *testing.T, n *Net, e *Evaluator, positions []engine.Position, what string) {
	t.Helper()
	l := n.Layout
	for i := range positions {
		p := &positions[i]
		got, want := e.Output(p), n.Output(p)
		if got != want {
			t.Fatalf("%s %s, position %d %s: output %d, from scratch %d", l, what, i, p.FEN(), got, want)
		}
		fi := l.First(l.Stage(p))
		if acc := scratch(&n.First[fi], p); !slices.Equal(e.accumulators(fi, boardKey(p)), acc) {
			t.Fatalf("%s %s, position %d %s: the accumulators differ from those built from scratch", l, what, i, p.FEN())
		}
	}
}

func TestEvaluatorMatchesOutput(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	for i, l := range append(slices.Clone(testLayouts), defaultLayout) {
		n := randomNet(l, uint64(20+i))
		m, err := newModel(n)
		if err != nil {
			t.Fatal(err)
		}
		inOrder := randomGames(games, uint64(i))
		shuffled := slices.Clone(inOrder)
		rand.New(rand.NewPCG(uint64(i), 3)).Shuffle(len(shuffled), func(a, b int) {
			shuffled[a], shuffled[b] = shuffled[b], shuffled[a]
		})
		for _, slots := range []int{1, 4} {
			checkAlong(t, n, newEvaluator(m, slots), inOrder, "in game order")
			checkAlong(t, n, newEvaluator(m, slots), shuffled, "shuffled")
			checkAlong(t, n, newEvaluator(m, slots), evaltest.RandomPositions(300, uint64(i)), "random")
		}
	}
}

// The accumulators wrap alike in the reference and the evaluator when the
// first layer's weights are large enough to overflow int16.
func TestEvaluatorWrapsLikeOutput(t *testing.T) {
	n := randomNet(defaultLayout, 5)
	rng := rand.New(rand.NewPCG(5, 5))
	for _, f := range n.First {
		for i := range f.W {
			f.W[i] = int16(rng.IntN(1<<16) - 1<<15)
		}
	}
	m, err := newModel(n)
	if err != nil {
		t.Fatal(err)
	}
	checkAlong(t, n, newEvaluator(m, DefaultSlots), randomGames(1, 9), "with large weights")
}

func TestEvaluatorContract(t *testing.T) {
	f, err := NewFactory(randomNet(defaultLayout, 3))
	if err != nil {
		t.Fatal(err)
	}
	evaltest.CheckSymmetry(t, f, 300)
	evaltest.CheckNoAllocs(t, f)
}

func TestSpecs(t *testing.T) {
	n := randomNet(testLayouts[0], 4)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.nn")
	if err := n.WriteFile(good); err != nil {
		t.Fatal(err)
	}
	f, err := eval.Load("nn:" + good)
	if err != nil {
		t.Fatal(err)
	}
	e := f()
	positions := evaltest.RandomPositions(50, 8)
	for i := range positions {
		p := &positions[i]
		want := n.Output(p)
		if got := e.Raw(p); got != float64(want)/OutputOne {
			t.Fatalf("%s: raw %v, want %v", p.FEN(), got, float64(want)/OutputOne)
		}
		if got := e.Evaluate(p); got != eval.Clamp(n.Centipawns(want)) {
			t.Fatalf("%s: score %d, want %d", p.FEN(), got, eval.Clamp(n.Centipawns(want)))
		}
	}
	// The description travels and loads back to the same values.
	kind, sel, data := e.(eval.Describer).Describe()
	g, ok, err := eval.LoadData(kind, sel, data)
	if err != nil || !ok {
		t.Fatalf("LoadData of the description: ok %v, %v", ok, err)
	}
	for i := range positions {
		if a, b := e.Evaluate(&positions[i]), g().Evaluate(&positions[i]); a != b {
			t.Fatalf("described evaluator gives %d, the original %d", b, a)
		}
	}

	bad := filepath.Join(dir, "bad.nn")
	data = n.Format()
	data[len(data)/2] ^= 1
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]string{
		"nn:" + bad:         bad + ": offset ",
		"nn:" + good + "#x": "nn takes no selector",
	} {
		if _, err := eval.Load(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", spec, err, want)
		}
	}
	// A missing file: the operating system words it its own way (js says
	// "No such file or directory"), so the error is matched by kind.
	missing := "nn:" + filepath.Join(dir, "none")
	if _, err := eval.Load(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: error %v, want one that the file does not exist", missing, err)
	}
}

// TestDefaultNet checks that the embedded net loads, that "nn" evaluates
// with it, and that its note carries a lineage that names a gate.
func TestDefaultNet(t *testing.T) {
	n, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	f, err := eval.Load("nn")
	if err != nil {
		t.Fatal(err)
	}
	ev := f()
	for _, p := range evaltest.RandomPositions(50, 8) {
		if got, want := ev.Evaluate(&p), eval.Clamp(n.Centipawns(n.Output(&p))); got != want {
			t.Fatalf("%v: nn gives %d, the embedded net's reference %d", p, got, want)
		}
	}
	for _, want := range []string{"nn-train", "cumulative", "gate"} {
		if !strings.Contains(n.Note, want) {
			t.Errorf("the embedded net's note does not say %q:\n%s", want, n.Note)
		}
	}
}

func TestNewFactoryRefusesBadNets(t *testing.T) {
	n := randomNet(testLayouts[0], 6)
	n.Heads[1].W3[5] = -128
	if _, err := NewFactory(n); err == nil || !strings.Contains(err.Error(), "-128") {
		t.Errorf("a weight of -128: error %v", err)
	}
	n = randomNet(testLayouts[0], 6)
	n.First[2].W = n.First[2].W[:10]
	if _, err := NewFactory(n); err == nil || !strings.Contains(err.Error(), "first layer 2") {
		t.Errorf("a short first layer: error %v", err)
	}
}
