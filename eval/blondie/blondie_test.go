package blondie

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
)

func TestWeightCounts(t *testing.T) {
	if got := Arch1999.NumWeights(); got != 1741 {
		t.Errorf("1999: %d weights, want 1741", got)
	}
	if got := Arch2001.NumWeights(); got != 5046 {
		t.Errorf("2001: %d weights, want 5046", got)
	}
	if got := Arch(2000).NumWeights(); got != 0 {
		t.Errorf("unknown arch: %d weights", got)
	}
	// The sub-board table of docs/blondie24.md: count, then the playable
	// squares each, then connections, by side N.
	type row struct{ Boards, Small, Large, Connections int }
	got := map[int]row{}
	k := 0
	for n := 3; n <= 8; n++ {
		r := row{Small: 99}
		for range (9 - n) * (9 - n) {
			size := len(subBoards[k])
			k++
			r.Boards++
			r.Small, r.Large = min(r.Small, size), max(r.Large, size)
			r.Connections += size
		}
		got[n] = r
	}
	want := map[int]row{
		3: {36, 4, 5, 162}, 4: {25, 8, 8, 200}, 5: {16, 12, 13, 200},
		6: {9, 18, 18, 162}, 7: {4, 24, 25, 98}, 8: {1, 32, 32, 32},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sub-boards (-want +got):\n%s", diff)
	}
	if k != 91 || spatialWeights != 945 {
		t.Errorf("%d spatial nodes, %d weights; want 91 and 945", k, spatialWeights)
	}
	// The first sub-board is the 3x3 at the top left: squares 1, 5, 6, 9.
	if diff := cmp.Diff([]int{0, 4, 5, 8}, subBoards[0]); diff != "" {
		t.Errorf("first sub-board (-want +got):\n%s", diff)
	}
}

// zeroNet returns a net of arch with every weight 0.
func zeroNet(arch Arch) *Net {
	return &Net{Arch: arch, King: 2, Weights: make([]float64, arch.NumWeights())}
}

func mustCompile(t testing.TB, n *Net) *Network {
	t.Helper()
	net, err := Compile(n)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

func TestPieceDifference(t *testing.T) {
	for _, arch := range []Arch{Arch1999, Arch2001} {
		n := zeroNet(arch)
		n.PieceDiff, n.King = 0.05, 2.5
		net := mustCompile(t, n)
		p := evaltest.Board(engine.White, map[engine.Piece][]int{
			engine.WhiteMan: {21, 22}, engine.WhiteKing: {5}, engine.BlackMan: {1},
		})
		// own 2 men + 1 king (K = 2.5), against 1 man: 3.5.
		want := math.Tanh(0.05 * 3.5)
		for _, q := range []engine.Position{p, p.Rotated()} {
			if got := net.Raw(&q); math.Abs(got-want) > 1e-15 {
				t.Errorf("%s, %s to move: raw %v, want %v", arch, q.Side, got, want)
			}
		}
	}
}

// TestViewpoint wires square 1 (seen by White) straight through to the
// output of the 1999 network: a White man on 1 with White to move, and a
// Black man on 32 with Black to move, must both read +1 on input 0.
func TestViewpoint(t *testing.T) {
	n := zeroNet(Arch1999)
	n.Weights[1] = 1       // first layer node 0, input 0
	n.Weights[40*33+1] = 1 // second layer node 0, from node 0
	n.Weights[40*33+10*41+1] = 1
	net := mustCompile(t, n)
	want := math.Tanh(math.Tanh(math.Tanh(1)))
	for _, tc := range []struct {
		p    engine.Position
		want float64
	}{
		{evaltest.Board(engine.White, map[engine.Piece][]int{engine.WhiteMan: {1}}), want},
		{evaltest.Board(engine.Black, map[engine.Piece][]int{engine.BlackMan: {32}}), want},
		{evaltest.Board(engine.White, map[engine.Piece][]int{engine.BlackMan: {1}}), -want},
		{evaltest.Board(engine.White, map[engine.Piece][]int{engine.WhiteMan: {32}}), 0},
		{evaltest.Board(engine.White, map[engine.Piece][]int{engine.WhiteKing: {1}}), math.Tanh(math.Tanh(math.Tanh(2)))},
	} {
		if got := net.Raw(&tc.p); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: raw %v, want %v", tc.p.FEN(), got, tc.want)
		}
	}
}

// denseRaw is the forward pass of docs/blondie24.md read straight off the
// flat weights, for comparison with the compiled network.
func denseRaw(n *Net, p *engine.Position) float64 {
	var x [Inputs]float64
	for i := range x {
		s := i + 1
		if p.Side == engine.Black {
			s = 32 - i
		}
		switch pc := p.PieceAt(s); {
		case pc == engine.Empty:
		case p.KingsOf(p.Side)&engine.SquareBit(s) != 0:
			x[i] = n.King
		case p.Pieces[p.Side]&engine.SquareBit(s) != 0:
			x[i] = 1
		case p.Kings&engine.SquareBit(s) != 0:
			x[i] = -n.King
		default:
			x[i] = -1
		}
	}
	w := n.Weights
	k := 0
	layer := func(in []float64, sources func(j int) []int, size int, extra float64) []float64 {
		out := make([]float64, size)
		for j := range out {
			s := w[k] + extra
			k++
			for _, i := range sources(j) {
				s += in[i] * w[k]
				k++
			}
			out[j] = math.Tanh(s)
		}
		return out
	}
	all := func(n int) func(int) []int {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return func(int) []int { return idx }
	}
	in := x[:]
	if n.Arch == Arch2001 {
		in = layer(in, func(j int) []int { return subBoards[j] }, 91, 0)
	}
	h1 := layer(in, all(len(in)), 40, 0)
	h2 := layer(h1, all(40), 10, 0)
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	return layer(h2, all(10), 1, n.PieceDiff*sum)[0]
}

func TestMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	positions := evaltest.RandomPositions(100, 8)
	for _, arch := range []Arch{Arch1999, Arch2001} {
		for k := 0; k < 5; k++ {
			n := Random(arch, rng)
			n.King = 1 + 2*rng.Float64()
			for i := range n.Weights { // wider weights, so layers do not sit near 0
				n.Weights[i] *= 5
			}
			net := mustCompile(t, n)
			for i := range positions {
				got, want := net.Raw(&positions[i]), denseRaw(n, &positions[i])
				if math.Abs(got-want) > 1e-12 {
					t.Fatalf("%s net %d, %s: raw %v, dense %v", arch, k, positions[i].FEN(), got, want)
				}
			}
		}
	}
}

func TestRandom(t *testing.T) {
	for _, arch := range []Arch{Arch1999, Arch2001} {
		n := Random(arch, rand.New(rand.NewPCG(1, 1)))
		if err := n.Check(); err != nil {
			t.Fatal(err)
		}
		if n.King != 2 || math.Abs(n.PieceDiff) > 0.2 {
			t.Errorf("%s: king %v, piecediff %v", arch, n.King, n.PieceDiff)
		}
		mean := 0.0
		for i, w := range n.Weights {
			if w < -0.2 || w > 0.2 || n.Sigmas[i] != 0.05 {
				t.Fatalf("%s: weight %d is %v, step size %v", arch, i, w, n.Sigmas[i])
			}
			mean += w
		}
		// Uniform on [-0.2, 0.2] has standard deviation 0.115; the mean of
		// 1741 draws is within 0.02 of 0 by far more than 5 sigma.
		if mean /= float64(len(n.Weights)); math.Abs(mean) > 0.02 {
			t.Errorf("%s: mean weight %v", arch, mean)
		}
		again := Random(arch, rand.New(rand.NewPCG(1, 1)))
		if diff := cmp.Diff(n, again); diff != "" {
			t.Errorf("%s: the same seed gave a different net", arch)
		}
	}
}

func TestFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 7))
	for _, arch := range []Arch{Arch1999, Arch2001} {
		for _, sigmas := range []bool{true, false} {
			n := Random(arch, rng)
			if !sigmas {
				n.Sigmas = nil
			}
			path := filepath.Join(dir, "net.txt")
			if err := n.WriteFile(path); err != nil {
				t.Fatal(err)
			}
			back, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(n, back); diff != "" {
				t.Errorf("%s sigmas %v (-wrote +read):\n%s", arch, sigmas, diff)
			}
			f, err := eval.Load("blondie:" + path)
			if err != nil {
				t.Fatal(err)
			}
			start := engine.StartPosition()
			if got, want := f().Raw(&start), denseRaw(n, &start); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s loaded by spec: raw %v, want %v", arch, got, want)
			}
		}
	}
	bad := zeroNet(Arch1999)
	bad.Weights = bad.Weights[:10]
	if err := bad.WriteFile(filepath.Join(dir, "bad.txt")); err == nil {
		t.Error("writing a net with too few weights gave no error")
	}
}

func TestReadErrors(t *testing.T) {
	good := string(zeroNet(Arch1999).Format())
	replace := func(old, new string) string { return strings.Replace(good, old, new, 1) }
	// firstNode is the line of the first node of the first layer.
	lines := strings.Split(good, "\n")
	firstNode := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "0 ") {
			firstNode = i + 1
			break
		}
	}
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "f: at the end of the file: want \"blondie24\""},
		{"header", "blondie23 v1\n", "f:1:1: want \"blondie24\", not \"blondie23\""},
		{"version", "blondie24 v2\n", "f:1:11: want \"v1\", not \"v2\""},
		{"arch", replace("arch 1999", "arch 2000"), "f:2:6: unknown arch \"2000\""},
		{"king range", replace("king 2", "king 3.5"), "f:3:6: king value 3.5 is outside [1, 3]"},
		{"king nan", replace("king 2", "king NaN"), "f:3:6: king value \"NaN\" is not finite"},
		{"count", replace("weights 1741", "weights 1740"), "f:5:9: weights count \"1740\": this arch has 1741"},
		{"inf", replace("\n0 ", "\n+Inf "), "not finite"},
		{"bad number", replace("\n0 ", "\n0.5.1 "), "found \"0.5.1\" after 0 of 1741 numbers"},
		{"short", good[:len(good)-3] + "\n", "the file ends after 1740 of 1741 numbers"},
		{"trailing", good + "extra\n", "unexpected \"extra\" after the weights"},
		{"sigma", good + "sigmas 1741\n" + strings.Repeat("0.05 ", 1740) + "0\n", "step size 1741 is 0, not positive"},
		{"sigma count", good + "sigmas 3\n1 2 3\n", "sigmas count \"3\": this arch has 1741"},
		{"piecediff sigma", replace("piecediff 0\n", "piecediff 0\npiecediffsigma  -1\n"), "f:5:17: piece-difference step size -1 is not positive"},
		{"piecediff sigma nan", replace("piecediff 0\n", "piecediff 0\npiecediffsigma x\n"), "f:5:16: piece-difference step size \"x\" is not a number"},
	} {
		_, err := Read(strings.NewReader(tc.text), "f")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	_, err := Read(strings.NewReader(replace("\n0 ", "\nInf ")), "f")
	if err == nil || !strings.HasPrefix(err.Error(), "f:"+strconv.Itoa(firstNode)+":1:") {
		t.Errorf("non-finite weight: %v, want line %d", err, firstNode)
	}
	if _, err := Read(strings.NewReader("# a comment\n"+good+"# the end\n"), "f"); err != nil {
		t.Errorf("comments: %v", err)
	}
	if _, err := eval.Load("blondie:" + filepath.Join(t.TempDir(), "none.txt")); err == nil {
		t.Error("a missing file gave no error")
	}
	if _, err := eval.Load("blondie"); err == nil {
		t.Error("no file gave no error")
	}
}

func TestSymmetryAndAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, arch := range []Arch{Arch1999, Arch2001} {
		n := Random(arch, rng)
		n.King = 2.7
		net := mustCompile(t, n)
		f := func() eval.Evaluator { return net }
		evaltest.CheckSymmetry(t, f, 300)
		evaltest.CheckNoAllocs(t, f)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, arch := range []Arch{Arch1999, Arch2001} {
		b.Run(arch.String(), func(b *testing.B) {
			net := mustCompile(b, Random(arch, rand.New(rand.NewPCG(1, 2))))
			evaltest.Bench(b, func() eval.Evaluator { return net })
		})
	}
}

func FuzzRead(f *testing.F) {
	f.Add(zeroNet(Arch1999).Format())
	f.Add(Random(Arch2001, rand.New(rand.NewPCG(1, 1))).Format())
	f.Add([]byte("blondie24 v1\narch 1999\nking 2 # K\npiecediff 0.1\nweights 3\n1 2 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Read(bytes.NewReader(data), "f")
		if err != nil {
			return
		}
		if err := n.Check(); err != nil {
			t.Fatalf("Read accepted a net that fails Check: %v", err)
		}
		again, err := Read(bytes.NewReader(n.Format()), "f")
		if err != nil {
			t.Fatalf("written net does not read: %v", err)
		}
		if diff := cmp.Diff(n, again); diff != "" {
			t.Fatalf("(-read +reread):\n%s", diff)
		}
		mustCompile(t, n)
	})
}

func TestSampleFile(t *testing.T) {
	n, err := ReadFile("testdata/random1999.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := Random(Arch1999, rand.New(rand.NewPCG(1999, 24)))
	if diff := cmp.Diff(want, n); diff != "" {
		t.Errorf("(-Random +file):\n%s", diff)
	}
}

func TestCompileCopies(t *testing.T) {
	n := Random(Arch1999, rand.New(rand.NewPCG(5, 5)))
	net := mustCompile(t, n)
	p := engine.StartPosition()
	before := net.Raw(&p)
	for i := range n.Weights {
		n.Weights[i] = 1
	}
	n.PieceDiff, n.King = 3, 3
	if after := net.Raw(&p); after != before {
		t.Errorf("changing the Net changed the compiled network: %v, then %v", before, after)
	}
}

// A run folder loads the best net of its highest-numbered generation.
func TestRunFolderSpec(t *testing.T) {
	dir := t.TempDir()
	if _, err := eval.Load("blondie:" + dir); err == nil || !strings.Contains(err.Error(), "not a blondie run folder") {
		t.Errorf("an empty folder: %v", err)
	}
	os.MkdirAll(filepath.Join(dir, RunBestDir), 0o755)
	if _, err := eval.Load("blondie:" + dir); err == nil || !strings.Contains(err.Error(), "no generation is complete") {
		t.Errorf("no best file: %v", err)
	}
	nets := map[string]*Net{}
	for i, name := range []string{"0000.txt", "0009.txt", "0010.txt", "notes.txt"} {
		n := Random(Arch1999, rand.New(rand.NewPCG(uint64(i), 7)))
		nets[name] = n
		if err := n.WriteFile(filepath.Join(dir, RunBestDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	f, err := eval.Load("blondie:" + dir)
	if err != nil {
		t.Fatal(err)
	}
	want := mustCompile(t, nets["0010.txt"])
	start := engine.StartPosition()
	if got := f().Raw(&start); got != want.Raw(&start) {
		t.Errorf("blondie:RUN evaluates the start as %v, generation 10's best as %v", got, want.Raw(&start))
	}
}
