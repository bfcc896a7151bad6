package player

import (
	"context"
	"testing"

	"github.com/nechecb/nechecb/engine"
	_ "github.com/nechecb/nechecb/eval/all"
)

func TestSearchFindsForcedWinAndReportsIt(t *testing.T) {
	e := New(Options{HashMB: 1}, nil, "")
	// Black to move captures White's last man: a win in one ply.
	pos, err := engine.ParseFEN("B:W18:B14,1")
	if err != nil {
		t.Fatal(err)
	}
	depths := 0
	r := e.Search(context.Background(), pos, nil, Limits{Depth: 3}, func(Info) { depths++ })
	if !r.HasMove || r.Best.String() != "14x23" {
		t.Fatalf("best %v (has move %v), want 14x23", r.Best, r.HasMove)
	}
	if !r.Score.IsWin() || r.Score.Plies() != 1 || r.Score.String() != "win 1" {
		t.Errorf("score %+v, want a win in 1", r.Score)
	}
	if depths == 0 {
		t.Error("no progress reported")
	}
}

func TestLoadEvaluatorKeepsPreviousOnError(t *testing.T) {
	e, err := Load(Options{HashMB: 1}, "heuristic")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.LoadEvaluator("nosuchkind"); err == nil {
		t.Fatal("an unknown kind loaded")
	}
	if e.Evaluator() != "heuristic" {
		t.Errorf("evaluator %q after a failed load, want heuristic", e.Evaluator())
	}
	if err := e.LoadEvaluator("material"); err != nil {
		t.Fatal(err)
	}
	pos, _ := engine.ParseFEN("B:W18,19:B14")
	if raw, v := e.Evaluate(&pos); raw != -1 || v != -100 {
		t.Errorf("material evaluation %g, %d; want -1, -100", raw, v)
	}
}
