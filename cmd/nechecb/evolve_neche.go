package main

import (
	"flag"

	"github.com/nechecb/nechecb/train/evolve"
	nechevo "github.com/nechecb/nechecb/train/evolve/neche"
)

// necheKind is `nechecb evolve neche`.
func necheKind() evolveKind[nechevo.Config] {
	return evolveKind[nechevo.Config]{
		name:     "neche",
		defaults: nechevo.Default,
		seedMode: func(c *nechevo.Config) (*uint64, *string) { return &c.Seed, &c.Mode },
		learner: func(dir string, c nechevo.Config) (evolve.Learner, error) {
			return nechevo.New(dir, c)
		},
		bind: func(fs *flag.FlagSet, c *nechevo.Config, f, i nechevo.Config) {
			fs.IntVar(&c.Population, "population", c.Population, "genomes per generation"+modes(f.Population, i.Population))
			fs.IntVar(&c.Genes, "genes", c.Genes, "genes per genome of generation 0 (neche: 200)")
			fs.IntVar(&c.Depth, "depth", c.Depth, "search depth of every move"+modes(f.Depth, i.Depth))
			fs.IntVar(&c.QuietDraw, "quiet-draw", c.QuietDraw, "a draw after more than this many plies without capture or promotion, in the search and the game (neche: 20; 0: off)"+modes(f.QuietDraw, i.QuietDraw))
			fs.BoolVar(&c.RandomTies, "random-ties", c.RandomTies, "choose at random among equal root moves (neche's way)")
			fs.BoolVar(&c.NoLMR, "no-lmr", c.NoLMR, "plain full-width alpha-beta, no late-move reductions"+modes(f.NoLMR, i.NoLMR))
			fs.IntVar(&c.MaxPlies, "max-plies", c.MaxPlies, "adjudicate a game as drawn at this length")
			fs.IntVar(&c.Rounds, "rounds", c.Rounds, "faithful: quicksort rankings per generation (neche's code: 2, its text: 3)")
			fs.Float64Var(&c.PointRate, "point-rate", c.PointRate, "chance of each letter to be redrawn"+modes(f.PointRate, i.PointRate))
			fs.Float64Var(&c.TranslocationRate, "translocation-rate", c.TranslocationRate, "chance of each child to have a run of genes moved"+modes(f.TranslocationRate, i.TranslocationRate))
			fs.IntVar(&c.Opponents, "opponents", c.Opponents, "improved: every genome plays a colour-reversed ballot pair against this many of the best of the previous generation"+modes(f.Opponents, i.Opponents))
			fs.IntVar(&c.Elite, "elite", c.Elite, "improved: the best genomes copied unchanged into the next generation"+modes(f.Elite, i.Elite))
			fs.IntVar(&c.Tournament, "tournament", c.Tournament, "improved: genomes per selection tournament"+modes(f.Tournament, i.Tournament))
			fs.IntVar(&c.Hall, "hall", c.Hall, "improved: the best genomes of this many earlier generations (g-2, g-4, g-8, ...) join the opponents"+modes(f.Hall, i.Hall))
			fs.IntVar(&c.Panel, "panel", c.Panel, "improved: the first genomes of generation 0 join every generation's opponents, a fixed yardstick"+modes(f.Panel, i.Panel))
			fs.BoolVar(&c.KeptInit, "kept-init", c.KeptInit, "draw generation 0's genes among the kept synapses only (neche draws every letter uniformly)"+modes(f.KeptInit, i.KeptInit))
			fs.StringVar(&c.Init, "init", c.Init, "genome file whose lines begin generation 0 (the rest random)")
		},
	}
}
