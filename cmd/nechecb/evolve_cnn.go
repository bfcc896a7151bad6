package main

import (
	"flag"

	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/train/evolve"
	cnnevo "github.com/nechecb/nechecb/train/evolve/cnn"
)

// cnnKind is `nechecb evolve cnn`.
func cnnKind() evolveKind[cnnevo.Config] {
	return evolveKind[cnnevo.Config]{
		name:     "cnn",
		defaults: cnnevo.Default,
		seedMode: func(c *cnnevo.Config) (*uint64, *string) { return &c.Seed, &c.Mode },
		learner: func(dir string, c cnnevo.Config) (evolve.Learner, error) {
			return cnnevo.New(dir, c)
		},
		bind: func(fs *flag.FlagSet, c *cnnevo.Config, f, i cnnevo.Config) {
			fs.IntVar(&c.Population, "population", c.Population, "networks in generation 0"+cli.Modes(f.Population, i.Population))
			fs.IntVar(&c.Survivors, "survivors", c.Survivors, "networks that breed the next generation, which holds them, two crossover children of every pair and the mutants of all"+cli.Modes(f.Survivors, i.Survivors))
			fs.IntVar(&c.Mutants, "mutants", c.Mutants, "mutants of each survivor and child (the seed: 3)")
			fs.Float64Var(&c.Mutation, "mutation", c.Mutation, "a mutant adds noise uniform in ±this to every weight (the seed: 0.1)")
			fs.Float64Var(&c.InitRange, "init-range", c.InitRange, "weights of generation 0 uniform in ±this (the seed: 1)")
			fs.BoolVar(&c.Duels, "duels", c.Duels, "build generation 0 from the winners of games between random networks (the seed's way)"+cli.Modes(f.Duels, i.Duels))
			fs.IntVar(&c.Rounds, "rounds", c.Rounds, "faithful: single-elimination rounds (the seed: 3)")
			fs.IntVar(&c.Field, "field", c.Field, "faithful: players the elimination leaves (the seed: 128)")
			fs.IntVar(&c.GroupSize, "group-size", c.GroupSize, "faithful: players per round-robin group (the seed: 4)")
			fs.IntVar(&c.GroupKeep, "group-keep", c.GroupKeep, "faithful: the best of each group that go through (the seed: 2)")
			fs.IntVar(&c.Pairs, "pairs", c.Pairs, "improved: colour-reversed ballot pairs each network plays against random opponents"+cli.Modes(f.Pairs, i.Pairs))
			fs.IntVar(&c.Depth, "depth", c.Depth, "search depth; 0 plays each move by the network's judgement of the position after it (the seed)"+cli.Modes(f.Depth, i.Depth))
			fs.IntVar(&c.CaptureDraw, "capture-draw", c.CaptureDraw, "draw a game after this many plies without a capture (the seed's library: 40; 0: off)"+cli.Modes(f.CaptureDraw, i.CaptureDraw))
			fs.IntVar(&c.MaxPlies, "max-plies", c.MaxPlies, "adjudicate a game as drawn at this length")
			fs.BoolVar(&c.RandomTies, "random-ties", c.RandomTies, "choose at random among equally valued moves"+cli.Modes(f.RandomTies, i.RandomTies))
			bindSearch(fs, &c.MoverView, &c.Search, f.MoverView, i.MoverView, f.Search, i.Search)
		},
	}
}
