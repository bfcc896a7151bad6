package main

import (
	"flag"
	"strings"

	"github.com/nechecb/nechecb/internal/cli"
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
			fs.IntVar(&c.Population, "population", c.Population, "genomes per generation"+cli.Modes(f.Population, i.Population))
			fs.IntVar(&c.Genes, "genes", c.Genes, "genes per genome of generation 0 (neche: 200)")
			fs.IntVar(&c.Depth, "depth", c.Depth, "search depth of every move"+cli.Modes(f.Depth, i.Depth))
			fs.IntVar(&c.QuietDraw, "quiet-draw", c.QuietDraw, "a draw after more than this many plies without capture or promotion, in the search and the game (neche: 20; 0: off)"+cli.Modes(f.QuietDraw, i.QuietDraw))
			fs.BoolVar(&c.RandomTies, "random-ties", c.RandomTies, "choose at random among equal root moves (neche's way)")
			bindSearch(fs, &c.MoverView, &c.Search, f.MoverView, i.MoverView, f.Search, i.Search)
			fs.BoolVar(&c.BothSides, "both-sides", c.BothSides, "judge every position from both sides, (v(mover) - v(opponent))/2, so a genome's offset cancels (evaluator kind neche-both)"+cli.Modes(f.BothSides, i.BothSides))
			fs.IntVar(&c.MaxPlies, "max-plies", c.MaxPlies, "adjudicate a game as drawn at this length")
			fs.IntVar(&c.Rounds, "rounds", c.Rounds, "faithful: quicksort rankings per generation (neche's code: 2, its text: 3)")
			fs.Float64Var(&c.PointRate, "point-rate", c.PointRate, "chance of each letter to be redrawn"+cli.Modes(f.PointRate, i.PointRate))
			fs.Float64Var(&c.TranslocationRate, "translocation-rate", c.TranslocationRate, "chance of each child to have a run of genes moved"+cli.Modes(f.TranslocationRate, i.TranslocationRate))
			fs.IntVar(&c.Opponents, "opponents", c.Opponents, "improved: every genome plays a colour-reversed ballot pair against this many of the best of the previous generation"+cli.Modes(f.Opponents, i.Opponents))
			fs.IntVar(&c.Elite, "elite", c.Elite, "improved: the best genomes copied unchanged into the next generation"+cli.Modes(f.Elite, i.Elite))
			fs.IntVar(&c.Tournament, "tournament", c.Tournament, "improved: genomes per selection tournament"+cli.Modes(f.Tournament, i.Tournament))
			fs.IntVar(&c.Hall, "hall", c.Hall, "improved: the best genomes of this many earlier generations (g-2, g-4, g-8, ...) join the opponents"+cli.Modes(f.Hall, i.Hall))
			fs.IntVar(&c.Panel, "panel", c.Panel, "improved: the first genomes of generation 0 join every generation's opponents, a fixed yardstick"+cli.Modes(f.Panel, i.Panel))
			fs.BoolVar(&c.KeptInit, "kept-init", c.KeptInit, "draw generation 0's genes among the kept synapses only (neche draws every letter uniformly)"+cli.Modes(f.KeptInit, i.KeptInit))
			fs.StringVar(&c.Init, "init", c.Init, "genome file whose lines begin generation 0 (the rest random)")
			fs.BoolVar(&c.LayerInit, "layer-init", c.LayerInit, "draw generation 0's genes layer first (sink layer uniform among inner 1, inner 2 and output, then sink, then a source that may feed it): a third reach the output"+cli.Modes(f.LayerInit, i.LayerInit))
			fs.Float64Var(&c.InitWeight, "init-weight", c.InitWeight, "with --layer-init: generation 0's weights uniform within [-W, +W] (0: the whole range, +-52.4)"+cli.Modes(f.InitWeight, i.InitWeight))
			fs.Var((*cli.RateList)(&c.LayerMix), "layer-mix", "with --layer-init: 3 comma-separated positive weights of the sink's layer (inner 1, inner 2, output; empty: equal)"+cli.Modes(cli.RateList(f.LayerMix).String(), cli.RateList(i.LayerMix).String()))
			fs.Var((*cli.RateList)(&c.LetterRates), "letter-rates", "16 comma-separated point-mutation rates, one per letter position of a gene (source 0-2, sink 3-5, weight 6-15), in place of --point-rate (empty: --point-rate for all)"+cli.Modes(cli.RateList(f.LetterRates).String(), cli.RateList(i.LetterRates).String()))
			fs.Var((*cli.NameList)(&c.Ladder), "ladder", "improved: fixed opponents (g1, heuristic; comma-separated, empty for none) every genome also plays"+cli.Modes(strings.Join(f.Ladder, ","), strings.Join(i.Ladder, ",")))
			fs.IntVar(&c.LadderBallots, "ladder-ballots", c.LadderBallots, "improved: colour-reversed pairs, each from its own ballot, against each ladder opponent a generation"+cli.Modes(f.LadderBallots, i.LadderBallots))
			fs.Float64Var(&c.Shaping, "shaping", c.Shaping, "improved: weight in a game's score of the final piece balance, (1+clamp(balance/12,-1,1))/2, against the result (0: results only)"+cli.Modes(f.Shaping, i.Shaping))
		},
	}
}
