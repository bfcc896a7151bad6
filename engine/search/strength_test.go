package search_test

import (
	"cmp"
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
	_ "github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/train/selfplay"
)

// The strength runs play real games and take minutes, so they run only when
// asked for through the environment:
//
//	NECHECB_STRENGTH=1 go test -run Strength -v ./engine/search
//	NECHECB_AB=lmr go test -run AB -v ./engine/search
//
// NECHECB_GAMES sets the number of openings (each played with both
// colours; default 10 against the random player, 20 in A/B matches),
// NECHECB_HALF_GAMES the openings against the half-depth engine (default 4),
// NECHECB_MOVETIMES the times per move in ms (default "100,1000"),
// NECHECB_NODES the nodes per move in A/B matches (default 40000), and
// NECHECB_EVAL the evaluator spec (default heuristic). The games are played
// by train/selfplay from the standard 3-move ballots.

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func matchEval(t *testing.T) eval.Factory {
	spec := cmp.Or(os.Getenv("NECHECB_EVAL"), "heuristic")
	f, err := eval.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("evaluator %s", spec)
	return f
}

// player is one side of a strength match: a searcher under fixed limits, or
// (with no searcher) a 1-ply random-choice player. With halfOf set, its depth
// is capped at half the depth halfOf reached on its last move.
type player struct {
	searcher *search.Searcher
	limits   search.Limits
	halfOf   *player
	rng      *rand.Rand

	last, depthSum, moves int
}

// mover returns the selfplay.Mover that plays for p in one game.
func (p *player) mover(ctx context.Context) selfplay.Mover {
	if p.searcher != nil {
		p.searcher.Clear()
	}
	return func(g *engine.Game) (engine.Move, bool) {
		cur := g.Current()
		if p.searcher == nil {
			moves := cur.LegalMoves()
			if len(moves) == 0 {
				return engine.Move{}, false
			}
			return moves[p.rng.IntN(len(moves))], true
		}
		l := p.limits
		if p.halfOf != nil && p.halfOf.last > 0 {
			l.Depth = max(1, p.halfOf.last/2)
		}
		positions := g.Positions()
		r := p.searcher.Search(ctx, cur, positions[:len(positions)-1], l, nil)
		p.last = r.Depth
		p.depthSum += r.Depth
		p.moves++
		return r.Best, r.HasMove
	}
}

func (p *player) averageDepth() float64 { return float64(p.depthSum) / float64(max(p.moves, 1)) }

// playMatch plays a against b from n standard 3-move ballots spread over the
// list, each with both colours, and returns a's score.
func playMatch(t *testing.T, a, b *player, n int) selfplay.Score {
	ballots, err := books.Standard("3move")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	n = min(n, len(ballots))
	var score selfplay.Score
	for i := 0; i < n; i++ {
		ballot := ballots[i*len(ballots)/n]
		for _, aColor := range []engine.Color{engine.Black, engine.White} {
			g, err := ballot.Play()
			if err != nil {
				t.Fatal(err)
			}
			black, white := a.mover(ctx), b.mover(ctx)
			if aColor == engine.White {
				black, white = white, black
			}
			r := selfplay.Play(ctx, g, black, white, selfplay.DefaultMaxPlies)
			score.Add(r, aColor)
			t.Logf("  %s, A %s: %s after %d plies", ballot.Name, aColor, r, g.Ply())
		}
	}
	return score
}

func TestStrength(t *testing.T) {
	if os.Getenv("NECHECB_STRENGTH") == "" {
		t.Skip("set NECHECB_STRENGTH=1 to play the strength matches")
	}
	ev := matchEval(t)
	games := envInt("NECHECB_GAMES", 10)
	halfGames := envInt("NECHECB_HALF_GAMES", 4)
	var times []time.Duration
	for _, f := range strings.Split(cmp.Or(os.Getenv("NECHECB_MOVETIMES"), "100,1000"), ",") {
		ms, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || ms <= 0 {
			t.Fatalf("NECHECB_MOVETIMES: bad time %q", f)
		}
		times = append(times, time.Duration(ms)*time.Millisecond)
	}
	for _, mt := range times {
		eng := &player{searcher: search.New(search.Options{HashMB: 64}, ev), limits: search.Limits{MoveTime: mt}}
		rnd := &player{rng: rand.New(rand.NewPCG(uint64(mt), 1))}
		score := playMatch(t, eng, rnd, games)
		t.Logf("%v/move vs 1-ply random player: %v (engine's average depth %.1f)", mt, score, eng.averageDepth())
		if score.Wins != 2*games {
			t.Errorf("%v/move: the engine must win every game against the random player, got %v", mt, score)
		}
		eng = &player{searcher: search.New(search.Options{HashMB: 64}, ev), limits: search.Limits{MoveTime: mt}}
		half := &player{searcher: search.New(search.Options{HashMB: 64}, ev), limits: search.Limits{MoveTime: mt}, halfOf: eng}
		score = playMatch(t, eng, half, halfGames)
		t.Logf("%v/move vs itself at half the depth: %v (average depth %.1f vs %.1f)", mt, score, eng.averageDepth(), half.averageDepth())
	}
}

// TestAB plays the default search against one with a feature switched off
// (NECHECB_AB names it), both with the same node budget per move, to show
// whether the feature earns its place.
func TestAB(t *testing.T) {
	feature := os.Getenv("NECHECB_AB")
	if feature == "" {
		t.Skip("set NECHECB_AB=<feature> to play an A/B match")
	}
	ev := matchEval(t)
	limits := search.Limits{Nodes: uint64(envInt("NECHECB_NODES", 40000))}
	a := &player{searcher: search.New(search.Options{HashMB: 16}, ev), limits: limits}
	b := &player{searcher: search.New(search.Options{HashMB: 16}, ev), limits: limits}
	if err := search.DisableFeature(b.searcher, feature); err != nil {
		t.Fatal(err)
	}
	score := playMatch(t, a, b, envInt("NECHECB_GAMES", 20))
	t.Logf("default (with %s) vs without, %d nodes/move: %v", feature, limits.Nodes, score)
}
