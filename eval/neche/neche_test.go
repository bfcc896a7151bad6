package neche

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
)

func mustParse(t testing.TB, text string) Genome {
	t.Helper()
	g, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestMatchesDense checks the compiled network against a direct, dense
// reading of the forward pass of docs/neche-genome.md on random genomes and positions.
func TestMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	positions := evaltest.RandomPositions(50, 9)
	for k := 0; k < 60; k++ {
		g := randomGenome(rng, 1+rng.IntN(300))
		n := Compile(g)
		for i := range positions {
			p := &positions[i]
			want, got := denseForward(g, p), n.Raw(p)
			if math.Abs(want-got) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Fatalf("genome %d position %s: compiled %v, dense %v", k, p.FEN(), got, want)
			}
		}
	}
}

// randomGenome makes genes with sources and sinks skewed toward the ids that
// make kept synapses, so that inner layers are exercised.
func randomGenome(rng *rand.Rand, genes int) Genome {
	g := make(Genome, genes)
	for i := range g {
		src := rng.IntN(64)
		if rng.IntN(2) == 0 {
			src = FirstL1 + rng.IntN(Output-FirstL1)
		}
		sink := FirstL1 + rng.IntN(Output-FirstL1+1)
		if rng.IntN(8) == 0 {
			sink = rng.IntN(64)
		}
		g[i] = Gene{Source: uint8(src), Sink: uint8(sink), Raw: uint32(RawBias + rng.IntN(40000) - 20000)}
	}
	return g
}

// denseForward is the forward pass of docs/neche-genome.md written plainly, with a dense
// 64x64 weight matrix and the board read square by square.
func denseForward(g Genome, p *engine.Position) float64 {
	var w [64][64]float64
	for _, x := range g {
		if x.Kept() {
			w[x.Source][x.Sink] = x.Weight()
		}
	}
	var v [64]float64
	for s := 1; s <= 32; s++ {
		view := s
		if p.Side == engine.Black {
			view = 33 - s
		}
		var x float64
		switch p.PieceAt(s) {
		case engine.BlackMan, engine.WhiteMan:
			x = 1
		case engine.BlackKing, engine.WhiteKing:
			x = 2
		}
		if p.Pieces[p.Side.Opponent()]&engine.SquareBit(s) != 0 {
			x = -x
		}
		v[NecheBit[view-1]] = x
	}
	for b := FirstBias; b < FirstL1; b++ {
		v[b] = 1
	}
	var sum [64]float64
	for j := FirstL1; j <= Output; j++ {
		for i := 0; i < FirstL1; i++ {
			sum[j] += v[i] * w[i][j]
		}
	}
	for j := FirstL1; j < Output; j++ {
		x := max(0, sum[j])
		for k := j + 1; k <= Output; k++ {
			sum[k] += x * w[j][k]
		}
	}
	return sum[Output]
}

func TestLaterGeneReplaces(t *testing.T) {
	g := Genome{
		{Source: 0, Sink: Output, Raw: RawBias + 30000},
		{Source: 0, Sink: Output, Raw: RawBias + 10000},
	}
	p := evaltest.Board(engine.White, map[engine.Piece][]int{engine.WhiteMan: {29}}) // neche bit 0
	if got := Compile(g).Raw(&p); got != 1 {
		t.Errorf("raw %v, want 1 (the later weight, not the sum)", got)
	}
	if n := Compile(g).Synapses(); n != 1 {
		t.Errorf("%d synapses, want 1", n)
	}
}

func TestKeptAndViable(t *testing.T) {
	for _, tc := range []struct {
		src, sink uint8
		kept      bool
	}{
		{0, 39, true}, {38, 63, true}, {39, 55, true}, {54, 63, true}, {55, 63, true},
		{0, 0, false}, {39, 40, false}, {39, 39, false}, {55, 56, false}, {63, 63, false},
		{63, 0, false}, {40, 39, false}, {0, 38, false}, {32, 5, false},
	} {
		if got := (Gene{Source: tc.src, Sink: tc.sink}).Kept(); got != tc.kept {
			t.Errorf("Kept(%d->%d) = %v", tc.src, tc.sink, got)
		}
	}
	if (Genome{{Source: 39, Sink: 55}}).Viable() || !(Genome{{Source: 33, Sink: 63}}).Viable() {
		t.Error("Viable is wrong")
	}
}

func TestRoundTrip(t *testing.T) {
	for _, text := range []string{goldenText(t, "G2"), goldenText(t, "G3"), G1().String()} {
		g := mustParse(t, text+"\r\n")
		if g.String() != text {
			t.Errorf("%s does not write back", text)
		}
	}
	file, err := ReadFile("testdata/best_networks.txt")
	if err != nil {
		t.Fatal(err)
	}
	gs, err := file.Genomes()
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 6 || len(gs[0]) != 200 {
		t.Fatalf("read %d genomes", len(gs))
	}
	path := filepath.Join(t.TempDir(), "out.txt")
	if err := WriteGenomes(path, gs); err != nil {
		t.Fatal(err)
	}
	if got, want := mustRead(t, path), mustRead(t, "testdata/best_networks.txt"); string(got) != string(want) {
		t.Error("writing the file back changed it")
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func readTestFile(t testing.TB, selector string) Genome {
	t.Helper()
	f, err := ReadFile("testdata/best_networks.txt")
	if err != nil {
		t.Fatal(err)
	}
	g, err := f.Select(selector)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// readString reads a genome file held in text, named "f".
func readString(t testing.TB, text string) *File {
	t.Helper()
	f, err := Read(strings.NewReader(text), "f")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSelectors(t *testing.T) {
	data := mustRead(t, "testdata/best_networks.txt")
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for _, tc := range []struct{ sel, want string }{
		{"1", lines[0]}, {"3", lines[2]}, {"6", lines[5]}, {"last", lines[5]}, {"LAST", lines[5]}, {"", lines[5]},
	} {
		if got := readTestFile(t, tc.sel).String(); got != tc.want {
			t.Errorf("selector %q gave a different genome", tc.sel)
		}
	}
	for _, spec := range []string{"neche:#g1", "neche:=" + G1().String()} {
		f, err := eval.Load(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		p := evaltest.Board(engine.White, map[engine.Piece][]int{engine.WhiteMan: {1}})
		if got := f().Raw(&p); got != 1 {
			t.Errorf("%s: raw %v, want 1", spec[:12], got)
		}
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "nets.txt")
	good := G1().String()
	content := good + "\n" + good[:20] + "x" + good[21:] + "\n" + good[:33] + "\n\n"
	if err := os.WriteFile(bad, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ spec, want string }{
		{"neche:" + bad + "#2", bad + ":2:21: bad letter 'x'"},
		{"neche:" + bad + "#3", bad + ":3: length 33 is not a multiple of 16"},
		{"neche:" + bad + "#4", bad + ":4: empty genome"},
		{"neche:" + bad + "#5", bad + ": line 5 is past the end (the file has 4 lines)"},
		{"neche:" + bad + "#0", "is not a line number"},
		{"neche:" + bad + "#x", "is not a line number"},
		{"neche:" + filepath.Join(dir, "none.txt"), "no such file"},
		{"neche:=ACGT", "length 4 is not a multiple of 16"},
		{"neche:=AAAAAAAAAAAAAAAAAAAZ", "column 20: bad letter 'Z'"},
		{"neche:=aaaaaaaaaaaaaaaa", "column 1: bad letter 'a'"},
		{"neche:=" + good + "#3", "takes no #selector"},
		{"neche", "no genome given"},
	} {
		_, err := eval.Load(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%.60q) = %v, want an error containing %q", tc.spec, err, tc.want)
		}
	}
	g2Text := goldenText(t, "G2")
	if g, err := readString(t, good+"\r\n"+g2Text+"\r\n\n \n").Select("last"); err != nil || g.String() != g2Text {
		t.Errorf("last line before blank lines: %v", err)
	}
	if _, err := readString(t, "\n\n").Select("last"); err == nil || err.Error() != "f: no genomes in the file" {
		t.Errorf("blank file: %v", err)
	}
	if _, err := FromSpec(bad, "1"); err != nil {
		t.Errorf("a good line of a file with bad lines: %v", err)
	}
	if _, err := readString(t, content).Genomes(); err == nil || !strings.Contains(err.Error(), "f:2:21:") {
		t.Errorf("Genomes = %v", err)
	}
	if err := WriteGenomes(filepath.Join(dir, "w.txt"), []Genome{G1(), {}}); err == nil {
		t.Error("writing an empty genome gave no error")
	}
}

func TestSymmetryAndAllocs(t *testing.T) {
	for _, sel := range []string{"1", "2", "3", "4", "5", "6"} {
		n := Compile(readTestFile(t, sel))
		f := func() eval.Evaluator { return n }
		evaltest.CheckSymmetry(t, f, 300)
		evaltest.CheckNoAllocs(t, f)
	}
}

func TestDOT(t *testing.T) {
	var b strings.Builder
	g := append(mustParse(t, goldenText(t, "G3")), Gene{Source: 0, Sink: 40, Raw: RawBias + 1})
	if err := WriteDOT(&b, g); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"digraph neche {", "n43 -> n63", "n0 -> n40", "style=dashed", `label="OUT"`, `n23 [label="d8 2"]`, "shape=tripleoctagon", "}\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("DOT output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "->") != linksOf(g).count {
		t.Errorf("DOT has %d edges, want %d", strings.Count(out, "->"), linksOf(g).count)
	}
}

// BenchmarkEvaluate times a 200-gene genome from the sample file.
func BenchmarkEvaluate(b *testing.B) {
	for _, sel := range []string{"1", "2"} {
		b.Run("line"+sel, func(b *testing.B) {
			n := Compile(readTestFile(b, sel))
			evaltest.Bench(b, func() eval.Evaluator { return n })
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{goldenText(f, "G2"), goldenText(f, "G3"), "CGATGGTAGTCGGATC\r\n", "ACGX", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		g, err := Parse(text)
		if err != nil {
			return
		}
		if got := g.String(); got != strings.TrimRight(text, "\r\n") {
			t.Fatalf("wrote back %q", got)
		}
		again, err := Parse(g.String())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(g, again); diff != "" {
			t.Fatalf("read back differently: %s", diff)
		}
		Compile(g)
	})
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(goldenText(f, "G2") + "\n" + goldenText(f, "G3") + "\n"))
	f.Add([]byte("ACGT\n\nTTTT"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(bytes.NewReader(data), "f")
		if err != nil {
			t.Fatalf("Read failed on data in memory: %v", err)
		}
		_, _ = file.Select("last")
		gs, err := file.Genomes()
		if err != nil {
			return
		}
		file, err = Read(bytes.NewReader(FormatGenomes(gs)), "f")
		if err != nil {
			t.Fatal(err)
		}
		again, err := file.Genomes()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(gs, again); diff != "" {
			t.Fatalf("read back differently: %s", diff)
		}
	})
}

// A folder is a run: neche:RUN is the last line of its best_networks.txt,
// and neche:RUN#K line K, so the spec follows a run as it goes.
func TestRunFolderSpec(t *testing.T) {
	dir := t.TempDir()
	g2, g3 := mustParse(t, goldenText(t, "G2")), mustParse(t, goldenText(t, "G3"))
	path := filepath.Join(dir, RunBestFile)
	for i, gs := range [][]Genome{{G1()}, {G1(), g2, g3}} {
		if err := WriteGenomes(path, gs); err != nil {
			t.Fatal(err)
		}
		g, err := FromSpec(dir, "")
		if err != nil || g.String() != gs[len(gs)-1].String() {
			t.Errorf("run with %d lines (%d): neche:RUN = %v, %v; want the last line", len(gs), i, g, err)
		}
	}
	if g, err := FromSpec(dir, "2"); err != nil || g.String() != g2.String() {
		t.Errorf("neche:RUN#2 = %v, %v; want G2", g, err)
	}
	if _, err := eval.Load("neche:" + t.TempDir()); err == nil || !strings.Contains(err.Error(), RunBestFile) {
		t.Errorf("an empty folder: %v, want an error naming %s", err, RunBestFile)
	}
}

// The score map is 100 per unit up to ±50, strictly increasing beyond, and
// stays inside the score limit for the largest outputs a genome can give.
func TestScoreMap(t *testing.T) {
	for _, x := range []float64{0, 1, -2.5, 49.99, -50} {
		if got, want := Score(x), int(math.Round(100*x)); got != want {
			t.Errorf("Score(%v) = %d, want %d", x, got, want)
		}
	}
	// An increasing grid from -2e9 to 2e9, fine near 0 and coarse far out.
	var grid []float64
	for x := 2e9; x > 1e-4; x /= 1.01 {
		grid = append(grid, -x)
	}
	for i := len(grid) - 1; i >= 0; i-- {
		grid = append(grid, -grid[i])
	}
	for i := 1; i < len(grid); i++ {
		if Score(grid[i]) < Score(grid[i-1]) {
			t.Fatalf("Score decreases from %v to %v: %d, %d", grid[i-1], grid[i], Score(grid[i-1]), Score(grid[i]))
		}
	}
	for _, pair := range [][2]float64{{100, 101}, {1000, 1010}, {1e5, 1.03e5}, {-1000, -1010}} {
		if Score(pair[0]) == Score(pair[1]) {
			t.Errorf("Score does not tell %v from %v", pair[0], pair[1])
		}
	}
	if s := Score(1.3e9); s >= eval.ScoreLimit || Score(-1.3e9) <= -eval.ScoreLimit {
		t.Errorf("Score(±1.3e9) = ±%d reaches the limit %d", s, eval.ScoreLimit)
	}
	if Score(math.NaN()) != 0 {
		t.Error("Score(NaN) is not 0")
	}
}

// TestLoadData checks that a genome file loaded from bytes (as a work
// unit's weights arrive) gives the network the file gives, and that bad
// bytes are refused with the line named.
func TestLoadData(t *testing.T) {
	data, err := os.ReadFile("testdata/best_networks.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, sel := range []string{"1", "last"} {
		fromFile, err := eval.Load("neche:testdata/best_networks.txt#" + sel)
		if err != nil {
			t.Fatal(err)
		}
		fromData, ok, err := eval.LoadData("neche", sel, data)
		if !ok || err != nil {
			t.Fatalf("LoadData #%s: ok %v, err %v", sel, ok, err)
		}
		a, b := fromFile().(*Network), fromData().(*Network)
		for i, p := range evaltest.RandomPositions(200, 3) {
			if x, y := a.Raw(&p), b.Raw(&p); x != y {
				t.Fatalf("#%s position %d: %v from the file, %v from bytes", sel, i, x, y)
			}
		}
	}
	if _, ok, err := eval.LoadData("neche", "1", []byte("ACGTX\n")); !ok || err == nil || !strings.Contains(err.Error(), "weights:1:5") {
		t.Errorf("a bad genome from bytes: ok %v, err %v; want an error naming line 1, column 5", ok, err)
	}
	if _, ok, _ := eval.LoadData("material", "", data); ok {
		t.Error("material claims to load from bytes")
	}
}

// TestBothSides checks the view from both sides: the value for the side to
// move is exactly minus the value for its opponent, whatever the genome;
// G1, whose values already cancel, keeps them; a network whose values do
// not cancel changes; and the kind neche-both loads it from a file and
// from bytes, and describes it so.
func TestBothSides(t *testing.T) {
	positions := evaltest.RandomPositions(300, 5)
	g1 := Compile(G1())
	for _, sel := range []string{"2", "3", "6"} {
		plain := Compile(readTestFile(t, sel))
		both := plain.BothSides()
		changed := false
		for i, p := range positions {
			q := p
			q.Side = p.Side.Opponent()
			if a, b := both.Raw(&p), both.Raw(&q); a != -b {
				t.Fatalf("#%s position %d: %v for the side to move, %v for the other", sel, i, a, b)
			}
			if a, b := both.Raw(&p), (plain.Raw(&p)-plain.Raw(&q))/2; a != b {
				t.Fatalf("#%s position %d: %v, want (v(mover) - v(opponent))/2 = %v", sel, i, a, b)
			}
			changed = changed || both.Raw(&p) != plain.Raw(&p)
		}
		if !changed {
			t.Errorf("#%s: judging from both sides changed no value", sel)
		}
		if both.RootView() || !plain.RootView() {
			t.Errorf("#%s: root view %v from both sides, %v plain", sel, both.RootView(), plain.RootView())
		}
		f := func() eval.Evaluator { return both }
		evaltest.CheckSymmetry(t, f, 300)
		evaltest.CheckNoAllocs(t, f)
	}
	for i, p := range positions {
		if a, b := g1.BothSides().Raw(&p), g1.Raw(&p); a != b {
			t.Fatalf("G1 position %d: %v from both sides, %v plain", i, a, b)
		}
	}
	data, err := os.ReadFile("testdata/best_networks.txt")
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := eval.Load(BothKind + ":testdata/best_networks.txt#2")
	if err != nil {
		t.Fatal(err)
	}
	fromData, ok, err := eval.LoadData(BothKind, "2", data)
	if !ok || err != nil {
		t.Fatalf("LoadData: ok %v, err %v", ok, err)
	}
	want := Compile(readTestFile(t, "2")).BothSides()
	for i, p := range positions {
		if a, b, c := fromFile().Raw(&p), fromData().Raw(&p), want.Raw(&p); a != c || b != c {
			t.Fatalf("position %d: %v from the file, %v from bytes, want %v", i, a, b, c)
		}
	}
	if kind, _, _ := want.Describe(); kind != BothKind {
		t.Errorf("Describe gives kind %q, want %q", kind, BothKind)
	}
}
