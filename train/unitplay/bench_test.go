package unitplay

import (
	"context"
	"testing"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/neche"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/train/evolve"
)

// benchUnit is a unit of 8 depth-2 games between neche genomes, as an
// improved neche run plays them.
func benchUnit(b *testing.B) *workunit.Unit {
	b.Helper()
	g1 := neche.Compile(neche.G1())
	cast := []eval.Factory{func() eval.Evaluator { return g1 }, eval.Factory(func() eval.Evaluator { return eval.Material{} })}
	described, ok := describe(cast)
	if !ok {
		b.Fatal("the cast does not describe itself")
	}
	openings, err := evolve.Openings(4)
	if err != nil {
		b.Fatal(err)
	}
	var games []evolve.Game
	for i, o := range openings {
		games = append(games, evolve.Game{Black: 0, White: 1, Start: o, Seed: uint64(i)}, evolve.Game{Black: 1, White: 0, Start: o, Seed: uint64(i)})
	}
	rules := evolve.Rules{Depth: 2, MaxPlies: 400, RandomTies: true}
	u := Units(rules, described, games, []int{len(games)})[0]
	u.ID = "bench-1"
	return u
}

// BenchmarkUnit measures what a unit costs beyond its games: encoding and
// decoding it and its result, and validating the result; and the games
// themselves for scale.
func BenchmarkUnit(b *testing.B) {
	u := benchUnit(b)
	x, err := NewExecutor()
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	r, err := x.Execute(context.Background(), u)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("play", func(b *testing.B) {
		for b.Loop() {
			if _, err := x.Execute(context.Background(), u); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("codec", func(b *testing.B) {
		for b.Loop() {
			ud, _ := u.Encode()
			if _, err := workunit.DecodeUnit(ud); err != nil {
				b.Fatal(err)
			}
			rd, _ := r.Encode()
			if _, err := workunit.DecodeResult(rd); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			if err := workunit.Validate(u, r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
