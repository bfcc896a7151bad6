package cnn

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
)

const testCSV = "testdata/Gen15WeightsBest.csv"

func best(t testing.TB) *Network {
	t.Helper()
	row, err := readTestTable(t).Row("Gen15_0111")
	if err != nil {
		t.Fatal(err)
	}
	return New(&row.Weights)
}

// goldenFile holds outputs of the seed network given by docs/cnn.md; its
// sources are in testdata/SOURCES.md.
const goldenFile = "testdata/golden.txt"

// goldenCase is one line of goldenFile.
type goldenCase struct {
	line int
	row  string
	pos  engine.Position
	me   engine.Color
	want float64
}

func readGolden(t *testing.T) []goldenCase {
	t.Helper()
	data, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenCase
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 4 || (f[2] != "black" && f[2] != "white") {
			t.Fatalf("%s:%d: want ROW FEN black|white F, got %q", goldenFile, i+1, line)
		}
		c := goldenCase{line: i + 1, row: f[0], me: engine.Black}
		if f[2] == "white" {
			c.me = engine.White
		}
		if c.pos, err = engine.ParseFEN(f[1]); err != nil {
			t.Fatalf("%s:%d: %v", goldenFile, i+1, err)
		}
		if c.want, err = strconv.ParseFloat(f[3], 64); err != nil {
			t.Fatalf("%s:%d: %v", goldenFile, i+1, err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no values", goldenFile)
	}
	return out
}

// TestGolden checks f on each golden position, as given and turned round
// for the other colour, and Raw, which a search uses: for the side to move
// it is 0.5 - f(position seen by the side that has just moved).
func TestGolden(t *testing.T) {
	table := readTestTable(t)
	for _, c := range readGolden(t) {
		row, err := table.Row(c.row)
		if err != nil {
			t.Fatal(err)
		}
		n := New(&row.Weights)
		rot := c.pos.Rotated()
		for _, v := range []struct {
			pos engine.Position
			me  engine.Color
		}{{c.pos, c.me}, {rot, c.me.Opponent()}} {
			if got := n.F(&v.pos, v.me); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("line %d: %s seen by %s: f = %.17g, want %.17g", c.line, v.pos.FEN(), v.me, got, c.want)
			}
			p := v.pos
			p.Side = v.me.Opponent()
			if got, want := n.Raw(&p), 0.5-c.want; math.Abs(got-want) > 1e-12 {
				t.Errorf("line %d: %s with %s to move: Raw = %v, want %v", c.line, p.FEN(), p.Side, got, want)
			}
		}
	}
}

// denseF is the network of docs/cnn.md written plainly: the 8x8 board, both
// convolutions as full cross-correlations, flatten, dense.
func denseF(w *Weights, p *engine.Position, me engine.Color) float64 {
	var in [8][8]float64
	for s := 1; s <= 32; s++ {
		var v float64
		switch p.PieceAt(s) {
		case engine.BlackMan, engine.WhiteMan:
			v = 1
		case engine.BlackKing, engine.WhiteKing:
			v = 2
		}
		if p.Pieces[me]&engine.SquareBit(s) != 0 {
			v = -v
		}
		c := int(cell(s))
		if me == engine.White {
			c = 63 - c
		}
		in[c/8][c%8] = v
	}
	var a1 [4][4][3]float64
	for i := range 4 {
		for j := range 4 {
			for o := range 3 {
				s := w[75+o]
				for di := range 5 {
					for dj := range 5 {
						s += in[i+di][j+dj] * w[(di*5+dj)*3+o]
					}
				}
				a1[i][j][o] = sigmoid(s)
			}
		}
	}
	var flat [12]float64
	for i := range 2 {
		for j := range 2 {
			for o := range 3 {
				s := w[159+o]
				for di := range 3 {
					for dj := range 3 {
						for c := range 3 {
							s += a1[i+di][j+dj][c] * w[78+((di*3+dj)*3+c)*3+o]
						}
					}
				}
				flat[(i*2+j)*3+o] = sigmoid(s)
			}
		}
	}
	out := w[246]
	for o := range 6 {
		s := w[234+o]
		for i := range 12 {
			s += flat[i] * w[162+i*6+o]
		}
		out += sigmoid(s) * w[240+o]
	}
	return sigmoid(out)
}

func TestMatchesDense(t *testing.T) {
	rows := readTestTable(t).Rows
	positions := evaltest.RandomPositions(200, 4)
	for _, row := range rows {
		n := New(&row.Weights)
		for i := range positions {
			for _, me := range []engine.Color{engine.Black, engine.White} {
				got, want := n.F(&positions[i], me), denseF(&row.Weights, &positions[i], me)
				if math.Abs(got-want) > 1e-12 {
					t.Fatalf("%s %s seen by %s: f %v, dense %v", row.Name, positions[i].FEN(), me, got, want)
				}
			}
		}
	}
}

func readTestTable(t testing.TB) *Table {
	t.Helper()
	table, err := ReadFile(testCSV)
	if err != nil {
		t.Fatal(err)
	}
	return table
}

// TestScorePerUnit checks the claims behind ScorePerUnit on row
// Gen15_0111: taking one of the opponent's men off changes Raw by far less
// than its spread across positions (the network does not count material),
// and that spread is a couple of men on the engine's scale.
func TestScorePerUnit(t *testing.T) {
	n := best(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var raws, gains []float64
	for _, p := range evaltest.RandomPositions(2000, 11) {
		raws = append(raws, n.Raw(&p))
		men := engine.Squares(p.Men(p.Side.Opponent()))
		if len(men) == 0 {
			continue
		}
		q := p
		q.SetPiece(men[rng.IntN(len(men))], engine.Empty)
		gains = append(gains, n.Raw(&q)-n.Raw(&p))
	}
	meanGain, _ := meanSD(gains)
	_, sd := meanSD(raws)
	t.Logf("Raw: sd %.5f over %d positions; one man more: mean change %.5f", sd, len(raws), meanGain)
	if math.Abs(meanGain) > sd/10 {
		t.Errorf("a man changes Raw by %.5f on average, not small against its spread %.5f", meanGain, sd)
	}
	if spread := sd * ScorePerUnit; spread < 100 || spread > 400 {
		t.Errorf("the spread of scores is %.0f points, want 100..400", spread)
	}
	if ScorePerUnit*0.5 > eval.ScoreLimit {
		t.Error("the output range does not fit the score limit")
	}
}

func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)))
}

func TestSymmetryAndAllocs(t *testing.T) {
	for _, row := range readTestTable(t).Rows {
		n := New(&row.Weights)
		f := func() eval.Evaluator { return n }
		evaltest.CheckSymmetry(t, f, 200)
		evaltest.CheckNoAllocs(t, f)
	}
}

func TestLoadSpecs(t *testing.T) {
	f, err := eval.Load("cnn:" + testCSV + "#Gen15_0111")
	if err != nil {
		t.Fatal(err)
	}
	// The evaluator made from the spec is the row's network.
	n := best(t)
	for _, p := range evaltest.RandomPositions(50, 3) {
		if got, want := f().Raw(&p), n.Raw(&p); got != want {
			t.Errorf("%s: Raw = %v, want %v", p.FEN(), got, want)
		}
	}
	if _, err := eval.Load("cnn:" + testCSV); err == nil || !strings.Contains(err.Error(), "choose one with #NAME") {
		t.Errorf("no row name: %v", err)
	}
}

func TestErrors(t *testing.T) {
	data, err := os.ReadFile(testCSV)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	dir := t.TempDir()
	write := func(name string, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	short := write("short.csv", lines[0]+lines[1]+lines[2][:strings.LastIndex(lines[2], ",")]+"\n")
	bad := write("bad.csv", lines[0]+lines[1]+strings.Replace(lines[2], ",", ",x", 3))
	fields := strings.SplitN(lines[1], ",", 3)
	inf := write("inf.csv", lines[0]+fields[0]+",NaN,"+fields[2])
	dup := write("dup.csv", lines[0]+lines[1]+lines[1])
	head := write("head.csv", strings.Replace(lines[0], "w7", "w8", 1)+lines[1])
	empty := write("empty.csv", lines[0])
	ctrl := write("ctrl.csv", lines[0]+"\"a\nb\""+lines[1][strings.Index(lines[1], ","):])
	quote := write("quote.csv", lines[0]+"\"abc,"+lines[1])
	long := write("long.csv", lines[0]+strings.TrimSuffix(lines[1], "\n")+",1.5\n")
	for _, tc := range []struct{ spec, want string }{
		{"cnn:" + testCSV + "#Gen99", `no row named "Gen99"`},
		{"cnn:" + short + "#Gen14_0055", fmt.Sprintf(`%s:3:%d: row "Gen14_0055" has 246 weights, want 247`, short, strings.LastIndex(lines[2], ",")+1)},
		{"cnn:" + bad + "#Gen14_0041", bad + `:3:12: row "Gen14_0055" weight w0: "x0.752404251" is not a finite number`},
		{"cnn:" + inf + "#Gen14_0041", inf + `:2:12: row "Gen14_0041" weight w0: "NaN" is not a finite number`},
		{"cnn:" + long + "#Gen14_0041", fmt.Sprintf(`%s:2:%d: row "Gen14_0041" has 248 weights, want 247`, long, len(lines[1])+1)},
		{"cnn:" + dup + "#Gen14_0041", dup + `:3: row "Gen14_0041" repeats the name of line 2`},
		{"cnn:" + head + "#Gen14_0041", head + ":1: the header must be names,w0,...,w246"},
		{"cnn:" + empty + "#Gen14_0041", empty + ": no weight rows"},
		{"cnn:" + quote + "#Gen14_0041", quote + ":2:"},
		{"cnn:" + filepath.Join(dir, "none.csv") + "#a", "no such file"},
		{"cnn:" + ctrl + "#a", ctrl + `:2:1: row name "a\nb" holds a control character`},
	} {
		_, err := eval.Load(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%s) = %v, want an error containing %q", tc.spec, err, tc.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	rows := readTestTable(t).Rows
	path := filepath.Join(t.TempDir(), "w.csv")
	if err := WriteCSV(path, rows); err != nil {
		t.Fatal(err)
	}
	again, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rows, again.Rows); diff != "" {
		t.Errorf("(-wrote +read):\n%s", diff)
	}
}

// A table of many rows, formatted in chunks at once, is byte for byte
// what encoding/csv writes, names that need quotes included, and reads
// back whole and in order.
func TestRoundTripManyRows(t *testing.T) {
	base := readTestTable(t).Rows
	odd := []string{"a,b", `say "hi"`, " lead", `\.`, "two\nlines", "x\ry", "é"}
	var rows []Row
	for i := range 301 {
		r := base[i%len(base)]
		r.Name = fmt.Sprintf("Gen3_%04d", i)
		if i%43 == 0 {
			r.Name = odd[i/43%len(odd)]
		}
		r.Weights[i%len(r.Weights)] += float64(i) / 7
		rows = append(rows, r)
	}
	data, err := FormatCSV(rows)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	w := csv.NewWriter(&want)
	w.Write(header())
	for _, r := range rows {
		rec := []string{r.Name}
		for _, v := range r.Weights {
			rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
		}
		w.Write(rec)
	}
	w.Flush()
	if !bytes.Equal(data, want.Bytes()) {
		t.Fatal("FormatCSV differs from encoding/csv's Writer")
	}
	rows = slices.DeleteFunc(rows, func(r Row) bool { return strings.ContainsAny(r.Name, "\r\n") })
	if data, err = FormatCSV(rows); err != nil {
		t.Fatal(err)
	}
	again, err := Read(bytes.NewReader(data), "many")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rows, again.Rows); diff != "" {
		t.Errorf("(-wrote +read):\n%s", diff)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	n := best(b)
	evaltest.Bench(b, func() eval.Evaluator { return n })
}

func FuzzRead(f *testing.F) {
	data, err := os.ReadFile(testCSV)
	if err != nil {
		f.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	f.Add([]byte(lines[0] + lines[1]))
	f.Add([]byte(lines[0] + "a,1,2\n"))
	f.Add([]byte("names\n"))
	f.Add([]byte(lines[0] + "\"a\r\nb\"" + lines[1][strings.Index(lines[1], ","):]))
	f.Fuzz(func(t *testing.T, data []byte) {
		table, err := Read(bytes.NewReader(data), "f")
		if err != nil {
			return
		}
		out, err := FormatCSV(table.Rows)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Read(bytes.NewReader(out), "f")
		if err != nil {
			t.Fatalf("written file does not read: %v", err)
		}
		if diff := cmp.Diff(table.Rows, again.Rows); diff != "" {
			t.Fatalf("(-read +reread):\n%s", diff)
		}
		if _, err := table.Row(table.Rows[0].Name); err != nil {
			t.Fatalf("the first row is not found by its name: %v", err)
		}
		New(&table.Rows[0].Weights)
	})
}

// A run folder loads the first row of its highest GenGWeightsBest.csv, or
// a row of GenG.csv by its name.
func TestRunFolderSpec(t *testing.T) {
	rows := readTestTable(t).Rows
	dir := t.TempDir()
	if _, err := eval.Load("cnn:" + dir); err == nil || !strings.Contains(err.Error(), "no generation is complete") {
		t.Errorf("an empty run: %v", err)
	}
	for g, first := range []int{3, 0, 7} {
		best := []Row{rows[first], rows[first+1]}
		if err := WriteCSV(filepath.Join(dir, fmt.Sprintf("Gen%dWeightsBest.csv", g)), best); err != nil {
			t.Fatal(err)
		}
	}
	gen2 := append([]Row(nil), rows[:5]...)
	gen2[4].Name = "Gen2_0004"
	if err := WriteCSV(filepath.Join(dir, "Gen2.csv"), gen2); err != nil {
		t.Fatal(err)
	}
	start := engine.StartPosition()
	for spec, want := range map[string]*Weights{"cnn:" + dir: &rows[7].Weights, "cnn:" + dir + "#Gen2_0004": &rows[4].Weights} {
		f, err := eval.Load(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if got := f().Raw(&start); got != New(want).Raw(&start) {
			t.Errorf("%s: Raw %v, want %v", spec, got, New(want).Raw(&start))
		}
	}
	if _, err := eval.Load("cnn:" + dir + "#best"); err == nil || !strings.Contains(err.Error(), "not named GenG_IIII") {
		t.Errorf("a bad row name: %v", err)
	}
}
