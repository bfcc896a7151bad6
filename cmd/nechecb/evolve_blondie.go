package main

import (
	"flag"
	"strings"

	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/train/evolve"
	blondievo "github.com/nechecb/nechecb/train/evolve/blondie"
)

// blondieKind is `nechecb evolve blondie`.
func blondieKind() evolveKind[blondievo.Config] {
	return evolveKind[blondievo.Config]{
		name:     "blondie",
		defaults: blondievo.Default,
		seedMode: func(c *blondievo.Config) (*uint64, *string) { return &c.Seed, &c.Mode },
		learner: func(dir string, c blondievo.Config) (evolve.Learner, error) {
			return blondievo.New(dir, c)
		},
		bind: func(fs *flag.FlagSet, c *blondievo.Config, f, i blondievo.Config) {
			fs.IntVar(&c.Arch, "arch", c.Arch, "network: 1999 (32-40-10-1) or 2001 (with the 91-node spatial layer)")
			fs.IntVar(&c.Parents, "parents", c.Parents, "parents; each makes one child (the paper: 15)")
			fs.IntVar(&c.Depth, "depth", c.Depth, "search depth of every move (the paper: 4)")
			fs.IntVar(&c.MaxPlies, "max-plies", c.MaxPlies, "draw a game at this length (the paper: 100 moves a side)")
			fs.BoolVar(&c.RandomTies, "random-ties", c.RandomTies, "choose at random among equal root moves"+cli.Modes(f.RandomTies, i.RandomTies))
			bindSearch(fs, &c.MoverView, &c.Search, f.MoverView, i.MoverView, f.Search, i.Search)
			fs.IntVar(&c.Games, "games", c.Games, "faithful: games each network plays as the first mover (the paper: 5)")
			fs.Float64Var(&c.Win, "win", c.Win, "faithful: payoff of a win")
			fs.Float64Var(&c.Draw, "draw", c.Draw, "faithful: payoff of a draw")
			fs.Float64Var(&c.Loss, "loss", c.Loss, "faithful: payoff of a loss")
			fs.BoolVar(&c.ScoreOpponent, "score-opponent", c.ScoreOpponent, "faithful: pay the opponent too, not only the first mover")
			fs.IntVar(&c.Pairs, "pairs", c.Pairs, "improved: colour-reversed ballot pairs each network plays against random opponents"+cli.Modes(f.Pairs, i.Pairs))
			fs.IntVar(&c.Elite, "elite", c.Elite, "improved: the best parents that survive whatever they score"+cli.Modes(f.Elite, i.Elite))
			fs.Var((*cli.NameList)(&c.Ladder), "ladder", "improved: fixed opponents (g1, heuristic; comma-separated, empty for none) every network also plays, the same ballots for all"+cli.Modes(strings.Join(f.Ladder, ","), strings.Join(i.Ladder, ",")))
			fs.IntVar(&c.LadderBallots, "ladder-ballots", c.LadderBallots, "improved: colour-reversed pairs, each from its own ballot, against each ladder opponent a generation"+cli.Modes(f.LadderBallots, i.LadderBallots))
			fs.Float64Var(&c.Shaping, "shaping", c.Shaping, "improved: weight in a game's score of the final piece balance, (1+clamp(balance/12,-1,1))/2, against the result (0: results only)"+cli.Modes(f.Shaping, i.Shaping))
			fs.Float64Var(&c.InitSigma, "init-sigma", c.InitSigma, "every weight's step size in generation 0, the piece-difference weight's excepted (0: the paper's 0.05)"+cli.Modes(f.InitSigma, i.InitSigma))
			fs.Float64Var(&c.Tau, "tau", c.Tau, "learning rate of the step sizes (0: the spec's 1/sqrt(2·sqrt(N)))")
			fs.IntVar(&c.KeepEvery, "keep-every", c.KeepEvery, "keep the parents of every K-th generation (and the latest)")
		},
	}
}
