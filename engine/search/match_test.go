package search

import (
	"cmp"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/eval"
	_ "github.com/nechecb/nechecb/eval/all"
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
// NECHECB_MOVETIMES the times per move in ms (default "100,1000"), and
// NECHECB_EVAL the evaluator spec (default heuristic).

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func matchEval(t *testing.T) eval.Factory {
	spec := os.Getenv("NECHECB_EVAL")
	if spec == "" {
		spec = "heuristic"
	}
	f, err := eval.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("evaluator %s", spec)
	return f
}

func logGame(t *testing.T) func(GameRecord, bool) {
	return func(rec GameRecord, aBlack bool) {
		side := "white"
		if aBlack {
			side = "black"
		}
		t.Logf("  %s, A %s: %s after %d plies", rec.Opening, side, rec.Result, rec.Plies)
	}
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
		eng := &EnginePlayer{Searcher: New(Options{HashMB: 64}, ev), Limits: Limits{MoveTime: mt}}
		rnd := RandomPlayer{Rng: rand.New(rand.NewPCG(uint64(mt), 1))}
		ms, err := PlayMatch(eng, rnd, games, logGame(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v/move vs 1-ply random player: %v", mt, ms)
		if ms.Wins != 2*games {
			t.Errorf("%v/move: the engine must win every game against the random player, got %v", mt, ms)
		}
		half := &EnginePlayer{Searcher: New(Options{HashMB: 64}, ev), Limits: Limits{MoveTime: mt}, HalfOf: eng}
		ms, err = PlayMatch(eng, half, halfGames, logGame(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v/move vs itself at half the depth: %v", mt, ms)
	}
}

// TestAB plays the default search against one with a feature switched off
// (NECHECB_AB names it), both with the same node budget per move
// (NECHECB_NODES, default 40000), to show whether the feature earns its
// place.
func TestAB(t *testing.T) {
	feature := os.Getenv("NECHECB_AB")
	if feature == "" {
		t.Skip("set NECHECB_AB=<feature> to play an A/B match")
	}
	off := defaultTuning
	switch feature {
	case "lmr":
		off.lmr = false
	default:
		t.Fatalf("unknown feature %q", feature)
	}
	ev := matchEval(t)
	limits := Limits{Nodes: uint64(envInt("NECHECB_NODES", 40000))}
	a := &EnginePlayer{Searcher: New(Options{HashMB: 16}, ev), Limits: limits}
	b := &EnginePlayer{Searcher: New(Options{HashMB: 16}, ev), Limits: limits}
	b.Searcher.tune = off
	ms, err := PlayMatch(a, b, envInt("NECHECB_GAMES", 20), logGame(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("default (with %s) vs without, %d nodes/move: %v", feature, limits.Nodes, ms)
}
