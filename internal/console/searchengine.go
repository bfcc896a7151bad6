package console

import (
	"context"
	"fmt"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
)

// searchEngine is the real engine: engine/search behind the console's Engine.
type searchEngine struct {
	s *search.Searcher
}

// NewSearchEngine wraps a new search.Searcher with opts and the evaluator f.
func NewSearchEngine(opts search.Options, f eval.Factory) Engine {
	return &searchEngine{s: search.New(opts, f)}
}

func (e *searchEngine) Search(ctx context.Context, pos engine.Position, history []engine.Position, lim Limits, progress func(Info)) Result {
	sl := search.Limits{Depth: lim.Depth, MoveTime: lim.MoveTime, WTime: lim.WTime, BTime: lim.BTime, Infinite: lim.Infinite}
	r := e.s.Search(ctx, pos, history, sl, func(in search.Info) {
		progress(Info{Depth: in.Depth, SelDepth: in.SelDepth, Score: formatScore(in.Score),
			Nodes: in.Nodes, NPS: in.NPS, Time: in.Time, PV: in.PV})
	})
	return Result{Best: r.Best, HasMove: r.HasMove, Score: formatScore(r.Score), PV: r.PV}
}

func (e *searchEngine) SetEvaluator(f eval.Factory) { e.s.SetEvaluator(f) }
func (e *searchEngine) Clear()                      { e.s.Clear() }

// formatScore writes a search score for people: "+0.35" in men, or "win in
// 7" / "loss in 6" in plies.
func formatScore(s search.Score) string {
	switch {
	case s.IsWin():
		return fmt.Sprintf("win in %d", s.Plies())
	case s.IsLoss():
		return fmt.Sprintf("loss in %d", s.Plies())
	}
	return formatCentis(int(s))
}
