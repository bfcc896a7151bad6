package pattern

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
)

// randomWeights returns version 1 weights; see randomModel.
func randomWeights(seed uint64) *Weights { return randomModel(V1, seed) }

// randomModel fills every weight of model m with a random value, so that
// every term of the model shows in the checks.
func randomModel(m Model, seed uint64) *Weights {
	rng := rand.New(rand.NewPCG(seed, 7))
	w := &Weights{Model: m, Scale: 8, W: make([]int16, m.Params()), Note: "random"}
	for i := range w.W {
		w.W[i] = int16(rng.IntN(2001) - 1000)
	}
	return w
}

func factory(w *Weights) eval.Factory {
	return func() eval.Evaluator { return NewEvaluator(w) }
}

func TestSymmetryAndAllocs(t *testing.T) {
	f := factory(randomWeights(1))
	evaltest.CheckSymmetry(t, f, 3000)
	evaltest.CheckNoAllocs(t, f)
	def, err := eval.Load("pattern")
	if err != nil {
		t.Fatal(err)
	}
	evaltest.CheckSymmetry(t, def, 500)
	evaltest.CheckNoAllocs(t, def)
}

// TestEvaluatorMatchesFeatures checks the evaluator's fused sum against the
// model's definition: the weights of the extracted features.
func TestEvaluatorMatchesFeatures(t *testing.T) {
	w := randomWeights(2)
	e := NewEvaluator(w)
	var f Features
	for _, p := range evaltest.RandomPositions(2000, 5) {
		Extract(&p, &f)
		want := w.Value(&f)
		if got := e.Raw(&p); math.Abs(got-want) > 1e-9 {
			t.Fatalf("%s: Raw %v, features give %v", p.FEN(), got, want)
		}
		if got := e.Evaluate(&p); got != eval.Clamp(int(math.Floor(want+0.5))) {
			t.Fatalf("%s: Evaluate %d, features give %v", p.FEN(), got, want)
		}
	}
}

func TestWindowGeometry(t *testing.T) {
	covered := map[int]int{}
	for w := range NumWindows {
		top, left := w/5, w%5
		seen := map[int]bool{}
		for _, s := range WindowSquaresOf(w) {
			r, c := engine.SquareCoords(s)
			if s < 1 || s > 32 || r < top || r > top+3 || c < left || c > left+3 || seen[s] {
				t.Errorf("window %d (rows %d.., columns %d..): square %d (row %d, column %d) is outside it or repeated", w, top, left, s, r, c)
			}
			seen[s] = true
			covered[s]++
		}
	}
	if len(covered) != 32 {
		t.Errorf("the windows cover %d squares, want 32", len(covered))
	}
}

func mustFEN(t *testing.T, fen string) engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExtractByHand checks features worked out by hand.
func TestExtractByHand(t *testing.T) {
	var f Features
	// The start, Black to move: window 0 (rows 0-3, columns 0-3) holds
	// squares 1, 2, 5, 6, 9, 10, 13, 14; the first six are own men
	// (digit 1), the last two empty.
	p := engine.StartPosition()
	Extract(&p, &f)
	if want := 1 + 3 + 9 + 27 + 81 + 243; f.Windows[0] != uint16(want) {
		t.Errorf("start, window 0: %d, want %d", f.Windows[0], want)
	}
	// Window 20 (rows 4-7, columns 0-3): squares 17, 18, 21, 22, 25, 26,
	// 29, 30; the last six are the opponent's (digit 2).
	if want := 2 * (9 + 27 + 81 + 243 + 729 + 2187); f.Windows[20] != uint16(want) {
		t.Errorf("start, window 20: %d, want %d", f.Windows[20], want)
	}
	if f.Pieces != 24 || f.Globals != [NumGlobals]int8{} || f.OwnKings != 0 || f.OppKings != 0 {
		t.Errorf("start: %+v", f)
	}
	// White to move sees the board turned round: square s becomes 33-s.
	p = mustFEN(t, "W:W21,K32:B28,K3")
	Extract(&p, &f)
	// Oriented: own man 12, own king 1; opp man 5, opp king 30.
	if f.OwnKings != 1<<0 || f.OppKings != 1<<29 {
		t.Errorf("kings: own %b opp %b", f.OwnKings, f.OppKings)
	}
	// Own man on 12 (row 2) plays toward 29-32; the opponent's pieces are
	// on 5 (row 1, behind it) and 30 (row 7): 30 is reached from 12 by
	// 12-16-19-23-26-30, so the man is not a runaway. The opponent's man
	// on 5 plays toward 1-4; own pieces on 1 (reached 5-1) block it.
	if f.Globals != [NumGlobals]int8{GlobalMen: 0, GlobalKings: 0, GlobalRunaways: 0, GlobalSoleKings: 0} {
		t.Errorf("globals %v", f.Globals)
	}
	// With the kings gone, both men run free: one each.
	p = mustFEN(t, "W:W21:B28")
	Extract(&p, &f)
	if f.Globals[GlobalRunaways] != 0 || f.Pieces != 2 {
		t.Errorf("two free men: globals %v pieces %d", f.Globals, f.Pieces)
	}
	p = mustFEN(t, "W:W21:B28,K1")
	Extract(&p, &f)
	// Oriented: own man 12; opp man 5 and opp king 32. 32 lies in 12's
	// cone; 5's cone (toward 1-4) holds no own piece. Runaways 0 - 1; the
	// opponent alone has a king.
	if want := [NumGlobals]int8{GlobalMen: 0, GlobalKings: -1, GlobalRunaways: -1, GlobalSoleKings: -1}; f.Globals != want {
		t.Errorf("globals %v, want %v", f.Globals, want)
	}
}

// TestScoreByHand checks Evaluate on material-only weights.
func TestScoreByHand(t *testing.T) {
	m := V1
	w := &Weights{Model: m, Scale: 4, W: make([]int16, m.Params())}
	w.W[m.Param(GlobalsOffset+GlobalMen, 0)] = 400   // 100 cp at 24 pieces
	w.W[m.Param(GlobalsOffset+GlobalMen, 1)] = 800   // 200 cp at 2 pieces
	w.W[m.Param(GlobalsOffset+GlobalKings, 1)] = 200 // 50 cp more per king at 2
	e := NewEvaluator(w)
	// 13 pieces, Black to move: Black 7 men, White 5 men and 1 king.
	p := mustFEN(t, "B:W20,21,22,23,24,K32:B1,2,3,4,5,6,7")
	share := 11.0 / 22
	want := share*(2*100-1*0) + (1-share)*(2*200-1*50)
	if got := e.Raw(&p); math.Abs(got-want) > 1e-9 {
		t.Errorf("Raw %v, want %v", got, want)
	}
	if got := e.Evaluate(&p); got != int(math.Floor(want+0.5)) {
		t.Errorf("Evaluate %d, want %v rounded", got, want)
	}
	r := p.Rotated()
	if got := e.Evaluate(&r); got != int(math.Floor(want+0.5)) {
		t.Errorf("rotated: Evaluate %d, want %v rounded", got, want)
	}
}

// TestFileRoundTrip writes and reads back weights of version 1 and of
// several version 2 models.
func TestFileRoundTrip(t *testing.T) {
	for _, m := range []Model{V1, V2, {Knots: []int{24, 12, 2}}, {Knots: V1.Knots, Ending: true}} {
		w := randomModel(m, 3)
		w.Note = "made by a test ✓"
		path := filepath.Join(t.TempDir(), "w.pat")
		if err := w.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint16(w.Format()[6:]); int(v) != m.Version() {
			t.Errorf("%v written as version %d", m, v)
		}
		// cmp.Diff is slow on a million weights: compare them apart.
		if !slices.Equal(w.W, got.W) {
			t.Errorf("%v: the weights read differ from those written", m)
		}
		w.W, got.W = nil, nil
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%v (-written +read):\n%s", m, diff)
		}
		if _, err := eval.Load("pattern:" + path); err != nil {
			t.Errorf("Load: %v", err)
		}
	}
}

// TestReadRefuses damages a good file in each way the reader checks and
// wants the error to name the file, the offset and the problem.
func TestReadRefuses(t *testing.T) {
	good := randomWeights(4).Format()
	le := binary.LittleEndian
	reseal := func(b []byte) []byte {
		le.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
		return b
	}
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "offset 0: the file ends inside"},
		{"magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), "offset 0: not a pattern weight file"},
		{"version", edit(func(b []byte) []byte { b[6] = 9; return reseal(b) }), "offset 6: version 9"},
		{"windows", edit(func(b []byte) []byte { b[8] = 24; return reseal(b) }), "offset 8: 24 windows, the model has 25"},
		{"phases", edit(func(b []byte) []byte { b[24] = 3; return reseal(b) }), "offset 24: 3 phases"},
		{"scale", edit(func(b []byte) []byte { le.PutUint32(b[28:], 0); return reseal(b) }), "offset 28: scale 0"},
		{"note length", edit(func(b []byte) []byte { le.PutUint32(b[32:], 1<<20); return b }), "offset 32: note of 1048576 bytes"},
		{"short", good[:len(good)-10], "the file ends early"},
		{"long", append(bytes.Clone(good), 0), "1 bytes after the checksum"},
		{"checksum", edit(func(b []byte) []byte { b[1000]++; return b }), "the file is damaged"},
	}
	// A note that is not UTF-8.
	w := randomWeights(5)
	w.Note = "ab"
	bad := w.Format()
	bad[baseSize] = 0xff
	cases = append(cases, struct {
		name string
		data []byte
		want string
	}{"note", reseal(bad), "offset 36: the note is not UTF-8"})
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.data), "w.pat")
		if err == nil || !strings.HasPrefix(err.Error(), "w.pat: offset ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming w.pat and containing %q", c.name, err, c.want)
		}
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "none.pat")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := eval.Load("pattern:#x"); err == nil {
		t.Errorf("a selector was accepted")
	}
}

func FuzzRead(f *testing.F) {
	f.Add(randomWeights(6).Format())
	f.Add([]byte("nchpat"))
	f.Add(randomModel(V2, 6).Format())
	f.Add(randomModel(Model{Knots: []int{20, 3}}, 6).Format())
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Read(bytes.NewReader(data), "f")
		if err != nil {
			return
		}
		if len(w.W) != w.Model.Params() || w.Model.Check() != nil || w.Scale < 1 || w.Scale > MaxScale {
			t.Fatalf("accepted weights with %d weights, scale %d", len(w.W), w.Scale)
		}
		if !bytes.Equal(w.Format(), data) {
			t.Fatalf("the accepted file does not write back the same")
		}
	})
}

func BenchmarkEvaluate(b *testing.B) {
	evaltest.Bench(b, factory(randomWeights(7)))
}

func BenchmarkExtract(b *testing.B) {
	positions := evaltest.RandomPositions(64, 3)
	var f Features
	for i := 0; i < b.N; i++ {
		Extract(&positions[i&63], &f)
	}
}
