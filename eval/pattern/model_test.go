package pattern

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
)

// TestBlend checks the knots' shares: version 1's are those of its two
// phases, and a version 2 model's are worked out by hand.
func TestBlend(t *testing.T) {
	b := newBlend(V1)
	if b.den != 22 {
		t.Errorf("V1 denominator %d, want 22", b.den)
	}
	for n := range MaxPieces + 1 {
		if want := int64(min(max(n-2, 0), 22)); b.seg[n] != 0 || b.up[n] != want {
			t.Errorf("V1, %d pieces: segment %d share %d, want 0 and %d", n, b.seg[n], b.up[n], want)
		}
	}
	// Knots 24, 16, 12, 9, 6, 2: spans 8, 4, 3, 3, 4, so 1/24 units. At a
	// knot other than the first, the segment above it is used, with the
	// knot's own weights in full.
	b = newBlend(Model{Knots: []int{24, 16, 12, 9, 6, 2}})
	for _, c := range []struct {
		n       int
		seg     uint8
		upper24 int64 // the upper knot's share in 1/24
	}{{24, 0, 24}, {20, 0, 12}, {16, 0, 0}, {14, 1, 12}, {12, 1, 0}, {10, 2, 8}, {9, 2, 0}, {7, 3, 8}, {6, 3, 0}, {3, 4, 6}, {2, 4, 0}, {1, 4, 0}, {0, 4, 0}} {
		if b.den != 24 || b.seg[c.n] != c.seg || b.up[c.n] != c.upper24 {
			t.Errorf("%d pieces: segment %d share %d/%d, want %d and %d/24", c.n, b.seg[c.n], b.up[c.n], b.den, c.seg, c.upper24)
		}
	}
	// Knots that do not reach 24 or 2 hold their ends' weights beyond them.
	b = newBlend(Model{Knots: []int{20, 10, 4}})
	if b.seg[24] != 0 || b.up[24] != b.den || b.seg[2] != 1 || b.up[2] != 0 || b.seg[10] != 0 && b.up[10] != 0 {
		t.Errorf("knots 20, 10, 4: %+v", b)
	}
}

func TestModelCheck(t *testing.T) {
	for _, k := range [][]int{{24}, {24, 24}, {2, 24}, {25, 2}, {24, -1}, make([]int, MaxKnots+1)} {
		if (Model{Knots: k}).Check() == nil {
			t.Errorf("knots %v accepted", k)
		}
	}
	for _, m := range []Model{V1, V2, {Knots: []int{24, 0}, Ending: true}} {
		if err := m.Check(); err != nil {
			t.Errorf("%+v: %v", m, err)
		}
	}
	if V1.Version() != 1 || V2.Version() != 2 || (Model{Knots: V1.Knots, Ending: true}).Version() != 2 {
		t.Errorf("versions")
	}
}

func TestV2SymmetryAndAllocs(t *testing.T) {
	f := factory(randomModel(V2, 21))
	evaltest.CheckSymmetry(t, f, 3000)
	evaltest.CheckNoAllocs(t, f)
}

// TestV2MatchesFeatures checks the fused evaluator against the features'
// value for models of several shapes.
func TestV2MatchesFeatures(t *testing.T) {
	positions := evaltest.RandomPositions(3000, 22)
	for _, m := range []Model{V2, {Knots: V1.Knots, Ending: true}, {Knots: []int{24, 12, 2}}, {Knots: []int{22, 17, 11, 7, 5, 4, 3}, Ending: true}} {
		w := randomModel(m, 23)
		e := NewEvaluator(w)
		var f Features
		for _, p := range positions {
			Extract(&p, &f)
			want := w.Value(&f)
			if got := e.Raw(&p); got != want {
				t.Fatalf("%v: %s: Raw %v, features give %v", m, p.FEN(), got, want)
			}
			if got := e.Evaluate(&p); got != eval.Clamp(int(math.Floor(want+0.5))) {
				t.Fatalf("%v: %s: Evaluate %d, features give %v", m, p.FEN(), got, want)
			}
		}
	}
}

// TestV2ScoreByHand evaluates a material-only version 2 model by hand.
func TestV2ScoreByHand(t *testing.T) {
	m := Model{Knots: []int{24, 12, 6}, Ending: true}
	w := &Weights{Model: m, Scale: 2, W: make([]int16, m.Params())}
	w.W[m.Param(GlobalsOffset+GlobalMen, 1)] = 300             // 150 cp at 12 pieces
	w.W[m.Param(GlobalsOffset+GlobalMen, 2)] = 500             // 250 cp at 6 pieces
	w.W[m.Param(GlobalsOffset+NumGlobals+EndKingMen, 2)] = 10  // 5 cp per king-man pair at 6
	w.W[m.Param(GlobalsOffset+NumGlobals+EndTheMove, 1)] = -40 // -20 cp for the move at 12
	e := NewEvaluator(w)
	// 8 pieces, Black to move: Black 3 men, White 4 men and 1 king. The
	// blend is 2/6 of knot 12 and 4/6 of knot 6. Men -1, king-men
	// 0·4 - 1·3 = -3, the move 0 (5 pieces against 3).
	p := mustFEN(t, "B:W20,21,22,23,K32:B1,2,3")
	want := 2.0/6*(-150) + 4.0/6*(-250-15)
	if got := e.Raw(&p); math.Abs(got-want) > 1e-9 {
		t.Errorf("Raw %v, want %v", got, want)
	}
	if got, want := e.Evaluate(&p), int(math.Floor(want+0.5)); got != want {
		t.Errorf("Evaluate %d, want %d", got, want)
	}
}

// TestEndingByHand checks the ending terms of a few positions worked out
// by hand.
func TestEndingByHand(t *testing.T) {
	var f Features
	// Black to move: a black king on 1 hemmed in by white men on 5 and 6;
	// a black man on 12 (row 2), white men on 5 (row 1) and 6 (row 1).
	p := mustFEN(t, "B:W5,6:BK1,12")
	Extract(&p, &f)
	// Steps: king 1 has none (5 and 6 are full); man 12, on the edge, has
	// one, to 16. White 5's only forward square, 1, is full; white 6 steps
	// to 2. Mobility 1 - 1 = 0. The move: 2 against 2 pieces; on rows 0,
	// 2, 4 and 6 stand 1 and 12, two pieces, even: -1. Tempo: black man 12
	// on row 2 gives 2; white men on row 1 have come 6 rows each: 2 - 12 =
	// -10. Back rank 0 - 0. King-men 1·2 - 0·1 = 2.
	want := [NumEnding]int16{EndMobility: 0, EndTheMove: -1, EndTempo: -10, EndBackRank: 0, EndKingMen: 2}
	if f.Ending != want {
		t.Errorf("%s: ending %v, want %v", p.FEN(), f.Ending, want)
	}
	// The start: seven steps each, the move 12 against 12 with 8 pieces
	// on rows 0 and 2 and 4 on row 6: 12, even, -1; tempo 12 men on rows
	// 0-2 each side: 4·(0+1+2) both, 0; back rank 4 - 4.
	p = mustFEN(t, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
	Extract(&p, &f)
	if want := [NumEnding]int16{EndTheMove: -1}; f.Ending != want {
		t.Errorf("start: ending %v, want %v", f.Ending, want)
	}
}

// TestV2ReadRefuses damages a version 2 file in each way the reader checks
// its header.
func TestV2ReadRefuses(t *testing.T) {
	good := randomModel(V2, 25).Format()
	le := binary.LittleEndian
	edit := func(f func(b []byte)) []byte {
		b := bytes.Clone(good)
		f(b)
		le.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
		return b
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"globals", edit(func(b []byte) { b[16] = 7 }), "offset 16: 7 global terms, a version 2 model has 4 or 9"},
		{"v1 globals", edit(func(b []byte) { b[6] = 1 }), "offset 16: 9 global terms, a version 1 model has 4"},
		{"knots", edit(func(b []byte) { b[24] = 13 }), "offset 24: 13 knots"},
		{"one knot", edit(func(b []byte) { b[24] = 1 }), "offset 24: 1 knots"},
		{"order", edit(func(b []byte) { b[baseSize+8] = 17 }), "offset 44: knot 2 is 17 pieces"},
		{"too many pieces", edit(func(b []byte) { b[baseSize] = 25 }), "offset 36: knot 0 is 25 pieces"},
		{"header", good[:baseSize+6], "offset 42: the file ends inside the list of 6 knots"},
		{"size", edit(func(b []byte) { b[24] = 5 }), "bytes after the checksum"},
	}
	// A version 1 file made version 2 by listing its knots 24 and 2.
	v1 := randomWeights(26).Format()
	b := append(bytes.Clone(v1[:baseSize]), le.AppendUint32(le.AppendUint32(nil, 24), 2)...)
	b = append(b, v1[baseSize:]...)
	b[6] = 2
	le.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	cases = append(cases, struct {
		name string
		data []byte
		want string
	}{"v1 model", b, "offset 6: version 2 holds the model of version 1"})
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.data), "v2.pat")
		if err == nil || !strings.HasPrefix(err.Error(), "v2.pat: offset ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming v2.pat and containing %q", c.name, err, c.want)
		}
	}
}

func BenchmarkEvaluateV2(b *testing.B) {
	evaltest.Bench(b, factory(randomModel(V2, 27)))
}
