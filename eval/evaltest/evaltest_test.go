package evaltest

import (
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

func TestRandomPositionsAreValid(t *testing.T) {
	ps := RandomPositions(200, 7)
	if len(ps) != 200 {
		t.Fatalf("got %d positions", len(ps))
	}
	for i, p := range ps {
		if p.Pieces[engine.Black]&p.Pieces[engine.White] != 0 {
			t.Errorf("position %d: a square holds both colours", i)
		}
		if p.Hash != p.ComputeHash() {
			t.Errorf("position %d: stale hash", i)
		}
		q, err := engine.ParseFEN(p.FEN())
		if err != nil {
			t.Errorf("position %d: %v", i, err)
		} else if !q.SameBoard(&p) {
			t.Errorf("position %d does not survive FEN", i)
		}
	}
	again := RandomPositions(200, 7)
	for i := range ps {
		if !again[i].SameBoard(&ps[i]) {
			t.Fatalf("position %d differs for the same seed", i)
		}
	}
}

func TestMaterialPasses(t *testing.T) {
	f := func() eval.Evaluator { return eval.Material{} }
	CheckSymmetry(t, f, 500)
	CheckNoAllocs(t, f)
}

// blackBias scores Black's material a little higher than White's, so it
// breaks colour symmetry; CheckSymmetry must notice.
type blackBias struct{ eval.Material }

func (b blackBias) Evaluate(p *engine.Position) int {
	if p.Side == engine.Black {
		return b.Material.Evaluate(p) + 1
	}
	return b.Material.Evaluate(p)
}

func TestCheckSymmetryCatchesBias(t *testing.T) {
	rec := &recorder{TB: t}
	CheckSymmetry(rec, func() eval.Evaluator { return blackBias{} }, 20)
	if !rec.failed {
		t.Error("CheckSymmetry passed an evaluator that favours Black")
	}
}

// recorder is a testing.TB that notes failures instead of reporting them.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func BenchmarkMaterial(b *testing.B) {
	Bench(b, func() eval.Evaluator { return eval.Material{} })
}

func TestParseBoard(t *testing.T) {
	p, err := ParseBoard("W:W1,K2:BK29,30")
	if err != nil {
		t.Fatal(err)
	}
	want := Board(engine.White, map[engine.Piece][]int{
		engine.WhiteMan: {1}, engine.WhiteKing: {2}, engine.BlackKing: {29}, engine.BlackMan: {30},
	})
	if p != want {
		t.Errorf("got %s, want %s", p.FEN(), want.FEN())
	}
	if q, err := ParseBoard("B:W:B"); err != nil || q.Side != engine.Black || q.Pieces != [2]uint64{} {
		t.Errorf("empty board: %v, %v", q.FEN(), err)
	}
	for _, bad := range []string{"W:W1", "X:W1:B2", "W:W1:W2", "W:W0:B2", "W:W33:B2", "W:W5:B5", "W:W1-4:B9", "W:Wx:B2"} {
		if _, err := ParseBoard(bad); err == nil {
			t.Errorf("ParseBoard(%q) gave no error", bad)
		}
	}
}
