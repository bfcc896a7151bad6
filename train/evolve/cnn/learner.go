package cnn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/nechecb/nechecb/eval"
	net "github.com/nechecb/nechecb/eval/cnn"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/train/evolve"
)

// The modes, as every learner names them.
const Faithful, Improved = evolve.Faithful, evolve.Improved

// Config holds every setting of a CNN run; it is kept in the run folder's
// settings file, so its JSON names are part of the format.
type Config struct {
	Kind string `json:"kind"` // always "cnn"
	Mode string `json:"mode"`
	Seed uint64 `json:"seed"`
	// Population is the size of generation 0 (the seed: 1028). Later
	// generations hold the Survivors, a crossover pair of children for
	// every pair of them, and Mutants mutants of each of those (the seed:
	// 16 + 240 + 768 = 1024).
	Population int `json:"population"`
	Survivors  int `json:"survivors"`
	Mutants    int `json:"mutants"`
	// Mutation is the half-width of the uniform noise added to every
	// weight of a mutant (the seed: 0.1); InitRange that of the weights of
	// generation 0 (the seed: 1).
	Mutation  float64 `json:"mutation"`
	InitRange float64 `json:"init_range"`
	// Duels builds generation 0 from the winners of games between pairs of
	// random vectors (the seed's way); without it, from random vectors.
	Duels bool `json:"duels"`
	// Faithful tournament: Rounds single-elimination rounds, cut to Field
	// players, then round robins in groups of GroupSize whose top
	// GroupKeep go through, until Survivors are left.
	Rounds    int `json:"rounds,omitempty"`
	Field     int `json:"field,omitempty"`
	GroupSize int `json:"group_size,omitempty"`
	GroupKeep int `json:"group_keep,omitempty"`
	// Improved: Pairs colour-reversed ballot pairs per network against
	// opponents drawn at random, both players scored.
	Pairs int `json:"pairs,omitempty"`
	// Depth is the search depth; 0 plays without search (the seed).
	// CaptureDraw draws a game after that many plies without a capture
	// (the seed's library: 40); MaxPlies adjudicates a draw at a length;
	// Search is the search profile (both modes: plain).
	Depth       int            `json:"depth"`
	CaptureDraw int            `json:"capture_draw"`
	MaxPlies    int            `json:"max_plies"`
	RandomTies  bool           `json:"random_ties"`
	Search      player.Profile `json:"search"`
	// MoverView judges the search's leaves from the side to move instead
	// of the root player's side (engine/search.RootViewer).
	MoverView bool `json:"mover_view,omitempty"`
}

// Default returns the settings of mode.
func Default(mode string) Config {
	c := Config{Kind: "cnn", Mode: mode, Seed: 1, Population: 1028, Survivors: 16, Mutants: 3, Mutation: 0.1, InitRange: 1,
		Duels: true, Rounds: 3, Field: 128, GroupSize: 4, GroupKeep: 2, CaptureDraw: 40, MaxPlies: 400, Search: player.Plain}
	if mode == Improved {
		c.Population, c.Survivors, c.Duels = 256, 8, false
		c.Rounds, c.Field, c.GroupSize, c.GroupKeep = 0, 0, 0, 0
		c.Pairs, c.Depth, c.CaptureDraw, c.RandomTies = 2, 2, 0, true
	}
	return c
}

// Size returns the number of networks in generation gen.
func (c *Config) Size(gen int) int {
	if gen == 0 {
		return c.Population
	}
	s := c.Survivors
	return (s + s*(s-1)) * (1 + c.Mutants)
}

// Check reports a setting that cannot work.
func (c *Config) Check() error {
	switch {
	case c.Mode != Faithful && c.Mode != Improved:
		return fmt.Errorf("mode %q: want faithful or improved", c.Mode)
	case c.Search.Check() != nil:
		return c.Search.Check()
	case c.Survivors < 2 || c.Population < c.Survivors || c.Mutants < 0 || c.Mutation < 0 || c.InitRange <= 0:
		return fmt.Errorf("need 2 <= survivors <= population, mutants and mutation not negative, init-range positive")
	case c.Depth < 0 || c.MaxPlies < 0 || c.CaptureDraw < 0:
		return fmt.Errorf("depth, max-plies and capture-draw may not be negative")
	case c.Mode == Faithful && (c.Rounds < 0 || c.Field < c.Survivors || c.GroupSize < 2 || c.GroupKeep < 1 || c.GroupKeep >= c.GroupSize):
		return fmt.Errorf("the tournament needs field >= survivors, group size >= 2 and 1 <= group keep < group size")
	case c.Mode == Improved && c.Pairs < 1:
		return fmt.Errorf("improved mode needs at least one pair per network")
	}
	return nil
}

// Rules returns the rules of the run's games.
func (c *Config) Rules() evolve.Rules {
	return evolve.Rules{Depth: c.Depth, RandomTies: c.RandomTies, CaptureDraw: c.CaptureDraw, MaxPlies: c.MaxPlies, Search: c.Search, MoverView: c.MoverView}
}

// Random-number purposes.
const (
	streamInit     = evolve.StreamLearner
	streamBreed    = evolve.StreamLearner + 1
	streamSchedule = evolve.StreamLearner + 2
	streamGames    = evolve.StreamLearner + 3
	streamDuels    = evolve.StreamLearner + 4
)

// Learner is a CNN run in a folder.
type Learner struct {
	evolve.Base[Config, *Config]
	pop  []net.Row // the population of the next generation
	done int
}

// New makes the learner of a run folder with settings cfg (checked).
func New(dir string, cfg Config) (*Learner, error) {
	b, err := evolve.NewBase(dir, cfg)
	if err != nil {
		return nil, err
	}
	return &Learner{Base: b}, nil
}

// Open counts the complete generations (GenGWeightsBest.csv from 0 on,
// without a gap) and reads the population of the next one.
func (l *Learner) Open() (int, error) {
	done := evolve.Complete(func(gen int) string { return net.BestFile(l.Dir, gen) })
	l.done, l.pop = done, nil
	if !evolve.Started(done, func(gen int) string { return net.GenFile(l.Dir, gen) }) {
		return 0, nil
	}
	path := net.GenFile(l.Dir, done)
	t, err := net.ReadFile(path)
	if err != nil {
		return 0, badinput.Mark(err)
	}
	if want := l.Cfg.Size(done); len(t.Rows) != want {
		return 0, badinput.Mark(fmt.Errorf("%s:%d: %d networks, generation %d has %d", path, min(len(t.Rows), want)+2, len(t.Rows), done, want))
	}
	l.pop = t.Rows
	return done, nil
}

// Best returns the best network of complete generation gen.
func (l *Learner) Best(gen int) (eval.Factory, error) {
	t, err := net.ReadFile(net.BestFile(l.Dir, gen))
	if err != nil {
		return nil, err
	}
	n := net.New(&t.Rows[0].Weights)
	return func() eval.Evaluator { return n }, nil
}

// Population returns the population of the next generation.
func (l *Learner) Population() []net.Row { return l.pop }

// Step runs generation gen: its tournament (or scores) picks the
// survivors, which breed the next generation (Gen<gen+1>.csv); then the
// survivors, best first, go to Gen<gen>WeightsBest.csv, which completes
// the generation.
func (l *Learner) Step(ctx context.Context, gen int, pool *evolve.Pool) (evolve.Stats, error) {
	if gen != l.done {
		return evolve.Stats{}, fmt.Errorf("cnn: step %d, but %d generations are complete", gen, l.done)
	}
	ar := &arena{ctx: ctx, pool: pool, rng: evolve.Rand(l.Cfg.Seed, gen, streamSchedule), seed: l.Cfg.Seed, gen: gen}
	if l.pop == nil {
		pop, err := l.initial(ar)
		if err != nil {
			return evolve.Stats{}, err
		}
		if err := net.WriteCSV(net.GenFile(l.Dir, 0), pop); err != nil {
			return evolve.Stats{}, err
		}
		l.pop = pop
	}
	ar.cast = make([]eval.Factory, len(l.pop))
	for i := range l.pop {
		// Built on first use, by whichever worker plays the network
		// first, so that the workers share building the generation's
		// networks.
		w := &l.pop[i].Weights
		n := sync.OnceValue(func() *net.Network { return net.New(w) })
		ar.cast[i] = func() eval.Evaluator { return n() }
	}
	var ranked []int
	var best, mean float64
	var err error
	if l.Cfg.Mode == Faithful {
		ranked, best, mean, err = l.tournament(ar)
	} else {
		ranked, best, mean, err = l.scores(ar)
	}
	if err != nil {
		return evolve.Stats{}, err
	}
	survivors := make([]net.Row, len(ranked))
	for i, k := range ranked {
		survivors[i] = l.pop[k]
	}
	next := Breed(evolve.Rand(l.Cfg.Seed, gen, streamBreed), survivors, gen+1, l.Cfg.Mutants, l.Cfg.Mutation)
	if err := net.WriteCSV(net.GenFile(l.Dir, gen+1), next); err != nil {
		return evolve.Stats{}, err
	}
	if err := net.WriteCSV(net.BestFile(l.Dir, gen), survivors); err != nil {
		return evolve.Stats{}, err
	}
	l.pop, l.done = next, gen+1
	return evolve.Stats{Games: ar.games, Best: best, Mean: mean}, nil
}

// initial makes generation 0: random vectors with weights uniform in
// ±InitRange, or with Duels the winners of games between two of them
// (a drawn duel keeps neither), named Gen0_0000 on in the order won.
func (l *Learner) initial(ar *arena) ([]net.Row, error) {
	need := l.Cfg.Population
	var pop []net.Row
	if !l.Cfg.Duels {
		rng := evolve.Rand(l.Cfg.Seed, 0, streamInit)
		for i := range need {
			pop = append(pop, net.Row{Name: net.RowName(0, i), Weights: randomWeights(rng, l.Cfg.InitRange)})
		}
		return pop, nil
	}
	// Duel k draws its two vectors from its own seed, so the duels can be
	// played in batches, and their winners taken in order of k.
	for k := 0; len(pop) < need; {
		batch := need - len(pop) + (need-len(pop))/2 + 8
		var cand []net.Row
		ar.cast = nil
		var duels []duel
		for range batch {
			rng := rand.New(rand.NewPCG(evolve.GameSeed(l.Cfg.Seed, 0, streamDuels, k), 0))
			for range 2 {
				row := net.Row{Weights: randomWeights(rng, l.Cfg.InitRange)}
				n := net.New(&row.Weights)
				cand = append(cand, row)
				ar.cast = append(ar.cast, func() eval.Evaluator { return n })
			}
			duels = append(duels, duel{len(cand) - 2, len(cand) - 1})
			k++
		}
		scores, err := ar.play(duels)
		if err != nil {
			return nil, err
		}
		for i, d := range duels {
			if len(pop) == need {
				break
			}
			w := -1
			switch scores[i] {
			case 1:
				w = d.a
			case 0:
				w = d.b
			}
			if w >= 0 {
				pop = append(pop, net.Row{Name: net.RowName(0, len(pop)), Weights: cand[w].Weights})
			}
		}
	}
	return pop, nil
}

func randomWeights(rng *rand.Rand, r float64) net.Weights {
	var w net.Weights
	for i := range w {
		w[i] = (2*rng.Float64() - 1) * r
	}
	return w
}

// tournament runs the seed's selection and returns the survivors ranked
// by a round robin among them (3 points a win, 1 a draw, ties by wins),
// with the best's and the mean points of that round robin.
func (l *Learner) tournament(ar *arena) ([]int, float64, float64, error) {
	field := make([]int, len(l.pop))
	for i := range field {
		field[i] = i
	}
	var err error
	for r := 0; r < l.Cfg.Rounds && len(field) > l.Cfg.Field; r++ {
		if field, err = ar.eliminationRound(field); err != nil {
			return nil, 0, 0, err
		}
	}
	if field, err = ar.playIn(field, l.Cfg.Field); err != nil {
		return nil, 0, 0, err
	}
	// Round robins while they leave at least Survivors; a play-in takes
	// off any surplus.
	for len(field) > l.Cfg.Survivors && groupRoundLeaves(len(field), l.Cfg.GroupSize, l.Cfg.GroupKeep) >= l.Cfg.Survivors {
		if field, err = ar.groupRound(field, l.Cfg.GroupSize, l.Cfg.GroupKeep); err != nil {
			return nil, 0, 0, err
		}
	}
	if field, err = ar.playIn(field, l.Cfg.Survivors); err != nil {
		return nil, 0, 0, err
	}
	sort.Ints(field) // the ranking's ties go by population order
	st, err := ar.roundRobin(field)
	if err != nil {
		return nil, 0, 0, err
	}
	ranked := make([]int, len(st))
	total := 0
	for i, s := range st {
		ranked[i] = s.player
		total += s.points
	}
	return ranked, float64(st[0].points), float64(total) / float64(len(st)), nil
}

// groupRoundLeaves returns how many of n players a round of round robins
// in groups of size (the last one smaller) lets through, keep a group.
func groupRoundLeaves(n, size, keep int) int {
	left := n / size * keep
	if r := n % size; r > 0 {
		left += min(keep, r)
	}
	return left
}

// scores plays the improved mode's games: Pairs colour-reversed pairs per
// network from random standard 3-move ballots against opponents drawn at
// random, both players scored; the Survivors with the best mean points
// go through, best first (ties by population order).
func (l *Learner) scores(ar *arena) ([]int, float64, float64, error) {
	s, err := evolve.NewSchedule(ar.rng, l.Cfg.Seed, ar.gen, streamGames)
	if err != nil {
		return nil, 0, 0, err
	}
	n := len(l.pop)
	if err := s.RandomPairs(n, l.Cfg.Pairs); err != nil {
		return nil, 0, 0, err
	}
	points, err := s.Scores(ar.ctx, ar.pool, ar.cast, 0)
	if err != nil {
		return nil, 0, 0, err
	}
	ar.games += len(s.Games)
	mean := 0.0
	for _, p := range points {
		mean += p
	}
	idx := evolve.ByFitness(points)
	return idx[:l.Cfg.Survivors], points[idx[0]], mean / float64(n), nil
}
