package blondie

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	net "github.com/nechecb/nechecb/eval/blondie"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/train/evolve"
)

// The modes, as every learner names them.
const Faithful, Improved = evolve.Faithful, evolve.Improved

// Config holds every setting of a Blondie24 run; it is kept in the run
// folder's settings file, so its JSON names are part of the format.
type Config struct {
	Kind string `json:"kind"` // always "blondie"
	Mode string `json:"mode"`
	Seed uint64 `json:"seed"`
	// Arch is 1999 or 2001.
	Arch int `json:"arch"`
	// Parents is the number of parents; each makes one child.
	Parents int `json:"parents"`
	// Depth is the search depth; MaxPlies draws a game at that length (the
	// paper: 100 moves by each side); RandomTies picks at random among
	// equal root moves; Search is the search profile (both modes: plain,
	// the paper's full-width alpha-beta).
	Depth      int            `json:"depth"`
	MaxPlies   int            `json:"max_plies"`
	RandomTies bool           `json:"random_ties"`
	Search     player.Profile `json:"search"`
	// MoverView judges the search's leaves from the side to move instead
	// of the root player's side (engine/search.RootViewer).
	MoverView bool `json:"mover_view,omitempty"`
	// Faithful: Games is the games each network plays as the first mover
	// against opponents drawn at random; Win, Draw and Loss the payoffs;
	// ScoreOpponent also pays the opponent (the spec pays the first mover
	// only).
	Games         int     `json:"games"`
	Win           float64 `json:"win"`
	Draw          float64 `json:"draw"`
	Loss          float64 `json:"loss"`
	ScoreOpponent bool    `json:"score_opponent"`
	// Improved: Pairs is the colour-reversed ballot pairs each network
	// plays against opponents drawn at random (both players scored, points
	// 1, 1/2, 0); Elite the best parents of the previous generation that
	// survive whatever they score.
	Pairs int `json:"pairs,omitempty"`
	Elite int `json:"elite,omitempty"`
	// Ladder names fixed opponents (g1, heuristic) that every network also
	// plays LadderBallots colour-reversed pairs against each generation;
	// the ballots are drawn once a generation, so every network meets the
	// same ones (improved mode).
	Ladder        []string `json:"ladder,omitempty"`
	LadderBallots int      `json:"ladder_ballots,omitempty"`
	// Shaping mixes the final piece balance into every game's score:
	// (1 − Shaping)·points + Shaping·(1 + clamp(balance/12, −1, 1))/2
	// (evolve.Result.Score; improved mode, 0: results only).
	Shaping float64 `json:"shaping,omitempty"`
	// InitSigma is every weight's step size in generation 0; 0 means the
	// paper's 0.05. The piece-difference weight starts at 0.05 whatever it
	// is: one weight whose effect selection sees plainly.
	InitSigma float64 `json:"init_sigma,omitempty"`
	// Tau is the step sizes' learning rate; 0 means the spec's
	// 1/sqrt(2·sqrt(N)), N the evolving weights.
	Tau float64 `json:"tau"`
	// KeepEvery keeps the population of every generation that is a
	// multiple of it (and the latest); the others are removed once the
	// next one is written.
	KeepEvery int `json:"keep_every"`
}

// Default returns the settings of mode.
func Default(mode string) Config {
	c := Config{Kind: "blondie", Mode: mode, Seed: 1, Arch: 1999, Parents: 15, Depth: 4, MaxPlies: 200, Search: player.Plain,
		Games: 5, Win: 1, Draw: 0, Loss: -2, KeepEvery: 10}
	if mode == Improved {
		c.Games, c.Pairs, c.Elite, c.RandomTies = 0, 1, 2, true
		c.Ladder, c.LadderBallots, c.Shaping = []string{evolve.OpponentHeuristic}, 2, 0.5
	}
	return c
}

// Check reports a setting that cannot work.
func (c *Config) Check() error {
	switch {
	case c.Mode != Faithful && c.Mode != Improved:
		return fmt.Errorf("mode %q: want faithful or improved", c.Mode)
	case c.Search.Check() != nil:
		return c.Search.Check()
	case !net.Arch(c.Arch).Valid():
		return fmt.Errorf("arch %d: want 1999 or 2001", c.Arch)
	case c.Parents < 1 || c.Depth < 1 || c.MaxPlies < 0 || c.Tau < 0 || c.KeepEvery < 1:
		return fmt.Errorf("parents and depth must be at least 1, keep-every at least 1, tau and max-plies not negative")
	case c.Mode == Faithful && c.Games < 1:
		return fmt.Errorf("faithful mode needs at least one game per network")
	case c.Mode == Improved && (c.Pairs < 0 || (c.Pairs == 0 && len(c.Ladder) == 0) || c.Elite < 0 || c.Elite > c.Parents):
		return fmt.Errorf("improved mode needs pairs >= 0, at least one game per network (pairs or a ladder) and 0 <= elite <= parents")
	case c.Mode == Faithful && (len(c.Ladder) > 0 || c.Shaping != 0):
		return fmt.Errorf("--ladder and --shaping belong to improved mode")
	case c.InitSigma < 0 || math.IsNaN(c.InitSigma) || math.IsInf(c.InitSigma, 0):
		return fmt.Errorf("init sigma (%g) must be a positive number, or 0 for the paper's %g", c.InitSigma, net.InitSigma)
	case c.Shaping < 0 || c.Shaping > 1:
		return fmt.Errorf("shaping (%g) must lie in [0, 1]", c.Shaping)
	case c.LadderBallots < 0 || (len(c.Ladder) > 0 && c.LadderBallots < 1):
		return fmt.Errorf("a ladder needs at least one ballot a rung (ladder ballots %d)", c.LadderBallots)
	}
	for _, name := range c.Ladder {
		if _, err := evolve.FixedOpponent(name); err != nil {
			return err
		}
	}
	return nil
}

// Rules returns the rules of the run's games.
func (c *Config) Rules() evolve.Rules {
	return evolve.Rules{Depth: c.Depth, RandomTies: c.RandomTies, MaxPlies: c.MaxPlies, Search: c.Search, MoverView: c.MoverView}
}

// tau returns the learning rate in force.
func (c *Config) tau() float64 {
	if c.Tau > 0 {
		return c.Tau
	}
	return Tau(Weights(net.Arch(c.Arch)))
}

// ParentsDir is the folder of a run that holds the kept populations.
const ParentsDir = "parents"

// ParentPath returns the file of parent i (0 the best) of generation gen.
func ParentPath(dir string, gen, i int) string {
	return filepath.Join(dir, ParentsDir, fmt.Sprintf("%04d", gen), fmt.Sprintf("%02d.txt", i))
}

// Random-number purposes.
const (
	streamInit     = evolve.StreamLearner
	streamBreed    = evolve.StreamLearner + 1
	streamSchedule = evolve.StreamLearner + 2
	streamGames    = evolve.StreamLearner + 3
)

// Learner is a Blondie24 run in a folder.
type Learner struct {
	evolve.Base[Config, *Config]
	parents []*net.Net // the population of the next generation, best first
	done    int
}

// New makes the learner of a run folder with settings cfg (checked).
func New(dir string, cfg Config) (*Learner, error) {
	b, err := evolve.NewBase(dir, cfg)
	if err != nil {
		return nil, err
	}
	return &Learner{Base: b}, nil
}

// Open counts the complete generations (best/0000.txt, best/0001.txt, ...
// without a gap) and reads the parents of the next one.
func (l *Learner) Open() (int, error) {
	done := evolve.Complete(func(gen int) string { return net.RunBestFile(l.Dir, gen) })
	l.done, l.parents = done, nil
	if !evolve.Started(done, func(gen int) string { return ParentPath(l.Dir, gen, 0) }) {
		return 0, nil
	}
	parents, err := l.readParents(done)
	if err != nil {
		return 0, err
	}
	l.parents = parents
	return done, nil
}

// readParents reads and checks the population of generation gen.
func (l *Learner) readParents(gen int) ([]*net.Net, error) {
	var out []*net.Net
	for i := range l.Cfg.Parents {
		path := ParentPath(l.Dir, gen, i)
		n, err := net.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, badinput.Mark(fmt.Errorf("generation %d has no parent %d: %s is missing", gen, i, path))
		}
		if err != nil {
			return nil, badinput.Mark(err)
		}
		if int(n.Arch) != l.Cfg.Arch {
			return nil, badinput.Mark(fmt.Errorf("%s:2: arch %s, the run's is %d", path, n.Arch, l.Cfg.Arch))
		}
		out = append(out, n)
	}
	return out, nil
}

// writeParents writes the population of generation gen.
func (l *Learner) writeParents(gen int, parents []*net.Net) error {
	if err := os.MkdirAll(filepath.Dir(ParentPath(l.Dir, gen, 0)), 0o755); err != nil {
		return err
	}
	for i, n := range parents {
		if err := n.WriteFile(ParentPath(l.Dir, gen, i)); err != nil {
			return err
		}
	}
	return nil
}

// Best returns the best network of complete generation gen.
func (l *Learner) Best(gen int) (eval.Factory, error) {
	n, err := net.ReadFile(net.RunBestFile(l.Dir, gen))
	if err != nil {
		return nil, err
	}
	c, err := net.Compile(n)
	if err != nil {
		return nil, err
	}
	return func() eval.Evaluator { return c }, nil
}

// Parents returns the population of the next generation, best first.
func (l *Learner) Parents() []*net.Net { return l.parents }

// SetParents replaces the population of the next generation (for tests).
func (l *Learner) SetParents(p []*net.Net) { l.parents = p }

// Step runs generation gen: every parent makes a child, the parents and
// children play, the best Parents of them become the next parents
// (parents/<gen+1>/), and the best of all is written to best/<gen>.txt,
// which completes the generation.
func (l *Learner) Step(ctx context.Context, gen int, pool *evolve.Pool) (evolve.Stats, error) {
	if gen != l.done {
		return evolve.Stats{}, fmt.Errorf("blondie: step %d, but %d generations are complete", gen, l.done)
	}
	if l.parents == nil {
		rng := evolve.Rand(l.Cfg.Seed, 0, streamInit)
		for range l.Cfg.Parents {
			n := net.Random(net.Arch(l.Cfg.Arch), rng)
			if l.Cfg.InitSigma > 0 {
				for i := range n.Sigmas {
					n.Sigmas[i] = l.Cfg.InitSigma
				}
			}
			l.parents = append(l.parents, n)
		}
		if err := l.writeParents(0, l.parents); err != nil {
			return evolve.Stats{}, err
		}
	}
	rng := evolve.Rand(l.Cfg.Seed, gen, streamBreed)
	all := append([]*net.Net(nil), l.parents...)
	for _, p := range l.parents {
		all = append(all, Offspring(rng, p, l.Cfg.tau()))
	}
	cast := make([]eval.Factory, len(all))
	for i, n := range all {
		c, err := net.Compile(n)
		if err != nil {
			return evolve.Stats{}, fmt.Errorf("blondie: network %d of generation %d: %w", i, gen, err)
		}
		cast[i] = func() eval.Evaluator { return c }
	}
	var fitness []float64
	var games int
	var err error
	if l.Cfg.Mode == Faithful {
		fitness, games, err = l.playFaithful(ctx, pool, cast, gen)
	} else {
		fitness, games, err = l.playImproved(ctx, pool, cast, gen)
	}
	if err != nil {
		return evolve.Stats{}, err
	}
	ranked := l.survivors(fitness)
	next := make([]*net.Net, l.Cfg.Parents)
	for i := range next {
		next[i] = all[ranked[i]]
	}
	if err := l.writeParents(gen+1, next); err != nil {
		return evolve.Stats{}, err
	}
	if err := os.MkdirAll(filepath.Join(l.Dir, net.RunBestDir), 0o755); err != nil {
		return evolve.Stats{}, err
	}
	if err := next[0].WriteFile(net.RunBestFile(l.Dir, gen)); err != nil {
		return evolve.Stats{}, err
	}
	if gen%l.Cfg.KeepEvery != 0 {
		os.RemoveAll(filepath.Dir(ParentPath(l.Dir, gen, 0)))
	}
	l.parents, l.done = next, gen+1
	mean := 0.0
	for _, f := range fitness {
		mean += f
	}
	return evolve.Stats{Games: games, Best: fitness[ranked[0]], Mean: mean / float64(len(fitness))}, nil
}

// survivors returns the networks that become the next parents, in order:
// the Elite first parents (improved mode), then the fittest of the rest.
func (l *Learner) survivors(fitness []float64) []int {
	var out []int
	taken := map[int]bool{}
	if l.Cfg.Mode == Improved {
		for i := range l.Cfg.Elite {
			out = append(out, i)
			taken[i] = true
		}
	}
	for _, i := range evolve.ByFitness(fitness) {
		if len(out) == l.Cfg.Parents {
			break
		}
		if !taken[i] {
			out = append(out, i)
		}
	}
	// The next parents go best first, elites included by their score.
	sort.SliceStable(out, func(a, b int) bool { return fitness[out[a]] > fitness[out[b]] })
	return out
}

// playFaithful plays the paper's games: each network, as the first mover
// (Black) from the starting position, against Games opponents drawn at
// random from the others, with replacement; the first mover scores Win,
// Draw or Loss (and the opponent too when ScoreOpponent).
func (l *Learner) playFaithful(ctx context.Context, pool *evolve.Pool, cast []eval.Factory, gen int) ([]float64, int, error) {
	rng := evolve.Rand(l.Cfg.Seed, gen, streamSchedule)
	var games []evolve.Game
	start := engine.StartPosition()
	for i := range cast {
		for range l.Cfg.Games {
			j := rng.IntN(len(cast) - 1)
			if j >= i {
				j++
			}
			games = append(games, evolve.Game{Black: i, White: j, Start: start, Seed: evolve.GameSeed(l.Cfg.Seed, gen, streamGames, len(games))})
		}
	}
	results := make([]evolve.Result, len(games))
	if err := pool.Play(ctx, cast, games, results); err != nil {
		return nil, 0, err
	}
	fitness := make([]float64, len(cast))
	for k, g := range games {
		fitness[g.Black] += l.payoff(results[k].Points(engine.Black))
		if l.Cfg.ScoreOpponent {
			fitness[g.White] += l.payoff(results[k].Points(engine.White))
		}
	}
	return fitness, len(games), nil
}

// payoff turns points (1, 1/2, 0) into the run's payoff.
func (l *Learner) payoff(points float64) float64 {
	switch points {
	case 1:
		return l.Cfg.Win
	case 0:
		return l.Cfg.Loss
	}
	return l.Cfg.Draw
}

// playImproved plays Pairs colour-reversed pairs per network against
// opponents drawn at random from the others, each pair from a standard
// 3-move ballot drawn at random, scoring both players; then LadderBallots
// pairs per network against each fixed opponent of the Ladder, from
// ballots drawn once for the generation. The fitness is the mean game
// score (evolve.Result.Score with Shaping).
func (l *Learner) playImproved(ctx context.Context, pool *evolve.Pool, cast []eval.Factory, gen int) ([]float64, int, error) {
	s, err := evolve.NewSchedule(evolve.Rand(l.Cfg.Seed, gen, streamSchedule), l.Cfg.Seed, gen, streamGames)
	if err != nil {
		return nil, 0, err
	}
	players := len(cast)
	if err := s.RandomPairs(players, l.Cfg.Pairs); err != nil {
		return nil, 0, err
	}
	for _, name := range l.Cfg.Ladder {
		f, err := evolve.FixedOpponent(name)
		if err != nil {
			return nil, 0, err
		}
		cast = append(cast[:len(cast):len(cast)], f)
		rung := len(cast) - 1
		for range l.Cfg.LadderBallots {
			pos, err := s.Opening()
			if err != nil {
				return nil, 0, err
			}
			for i := range players {
				s.Pair(i, rung, pos, true)
			}
		}
	}
	points, err := s.Scores(ctx, pool, cast, l.Cfg.Shaping)
	if err != nil {
		return nil, 0, err
	}
	return points[:players], len(s.Games), nil
}
