package neche

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	genome "github.com/nechecb/nechecb/eval/neche"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/train/evolve"
)

// The modes, as every learner names them.
const Faithful, Improved = evolve.Faithful, evolve.Improved

// Config holds every setting of a neche run. It is kept in the run
// folder's settings file, so its JSON names are part of the format.
type Config struct {
	Kind string `json:"kind"` // always "neche"
	Mode string `json:"mode"`
	Seed uint64 `json:"seed"`
	// Population is the number of genomes and Genes their length.
	Population int `json:"population"`
	Genes      int `json:"genes"`
	// Depth is the search depth of every move; QuietDraw neche's draw
	// after that many plies without capture or promotion (0: off);
	// RandomTies its random choice among equal root moves; Search the
	// search profile (both modes: plain, neche's full-width alpha-beta;
	// docs/evolution.md has the measurement that chose it for improved
	// mode); MaxPlies a safety adjudication.
	Depth      int            `json:"depth"`
	QuietDraw  int            `json:"quiet_draw"`
	RandomTies bool           `json:"random_ties"`
	Search     player.Profile `json:"search"`
	MaxPlies   int            `json:"max_plies"`
	// MoverView judges the search's leaves from the side to move, as a
	// negamax engine does, instead of from the root player's side, as
	// neche's search does (engine/search.RootViewer).
	MoverView bool `json:"mover_view,omitempty"`
	// BothSides judges every position from both sides: a genome's value is
	// the mean of its output for the side to move and minus its output for
	// the opponent (eval/neche.Network.BothSides; evaluator kind
	// "neche-both"). The genome and the operators are unchanged.
	BothSides bool `json:"both_sides,omitempty"`
	// Rounds is the number of quicksort rankings per generation (faithful).
	Rounds int `json:"rounds"`
	// PointRate and TranslocationRate are the mutation rates.
	PointRate         float64 `json:"point_rate"`
	TranslocationRate float64 `json:"translocation_rate"`
	// Improved mode: Opponents is how many of the population's first
	// genomes (the previous generation's best, kept as elites) every genome
	// plays a colour-reversed pair against; Elite how many of the best are
	// copied unchanged; Tournament the size of the selection tournaments.
	Opponents  int `json:"opponents,omitempty"`
	Elite      int `json:"elite,omitempty"`
	Tournament int `json:"tournament,omitempty"`
	// Hall adds that many earlier generations' best genomes (those of
	// generations g−2, g−4, g−8, ...) to the opponents of generation g,
	// so that the population is measured against its past as well as its
	// present (improved mode).
	Hall int `json:"hall,omitempty"`
	// Panel adds the first Panel genomes of generation 0, random and fixed
	// for the whole run, to every generation's opponents: a yardstick that
	// does not move, against which knowing more of the board always pays
	// (improved mode).
	Panel int `json:"panel,omitempty"`
	// KeptInit draws generation 0's genes among the kept synapses only
	// (neche draws every letter uniformly, and three genes in four are
	// ignored).
	KeptInit bool `json:"kept_init,omitempty"`
	// Init, when set, is a genome file whose lines begin generation 0
	// (the rest is random).
	Init string `json:"init,omitempty"`
	// LayerInit draws generation 0's kept genes layer first: the sink's
	// layer (first inner, second inner or output) uniformly, then the sink
	// within it, then a source among those that may feed it, so that a
	// third of the genes end at the output instead of one in eighteen. The
	// weights stay uniform, so no gene knows more than a random one
	// (improved mode).
	LayerInit bool `json:"layer_init,omitempty"`
	// InitWeight, when positive, draws generation 0's weights uniformly
	// within [−InitWeight, +InitWeight] instead of the whole range
	// [−52.4288, +52.4287] (with LayerInit; improved mode). Deep paths
	// multiply their weights, so with the whole range a random network's
	// value is all three-layer paths and its direct links count for
	// nothing.
	InitWeight float64 `json:"init_weight,omitempty"`
	// LayerMix, when set, weighs the layer of each LayerInit gene's sink:
	// three positive numbers for the first inner layer, the second and the
	// output (unset: a third each). The sources and weights stay uniform.
	LayerMix []float64 `json:"layer_mix,omitempty"`
	// LetterRates, when set, are 16 point-mutation rates, one for each
	// letter position of a gene (0-2 the source, 3-5 the sink, 6-15 the
	// weight, most significant first), in place of PointRate (improved
	// mode). Still point mutation: each letter is redrawn uniformly.
	LetterRates []float64 `json:"letter_rates,omitempty"`
	// Ladder names fixed opponents (g1, heuristic) that every genome
	// plays LadderBallots colour-reversed pairs against each generation,
	// each pair from its own ballot, besides the population's own
	// opponents: a yardstick that neither moves nor weakens (improved
	// mode).
	Ladder        []string `json:"ladder,omitempty"`
	LadderBallots int      `json:"ladder_ballots,omitempty"`
	// Shaping mixes how a game ended into its score: a game scores
	// (1 − Shaping)·points + Shaping·(1 + clamp(balance/12, −1, 1))/2, where
	// points is 1, ½ or 0 and balance the player's pieces (men and kings
	// alike) minus its opponent's at the end. A loss with most of one's
	// pieces kept then scores above a rout, which gives weak genomes a
	// slope to climb against opponents they cannot yet beat (improved
	// mode; 0: results only).
	Shaping float64 `json:"shaping,omitempty"`
}

// Default returns the settings of mode: faithful is neche's code as
// docs/neche-genome.md describes it; improved keeps the genome and the
// operators and changes how genomes are compared and selected.
func Default(mode string) Config {
	c := Config{Kind: "neche", Mode: mode, Seed: 1, Population: 200, Genes: 200, Depth: 6, QuietDraw: 20,
		RandomTies: true, Search: player.Plain, MaxPlies: 400, Rounds: 2, PointRate: 0.001, TranslocationRate: 0.02}
	if mode == Improved {
		c.Population, c.Depth, c.Rounds, c.QuietDraw = 100, 2, 0, 0
		c.Opponents, c.Elite, c.Tournament, c.Hall, c.KeptInit = 6, 6, 3, 4, true
		c.PointRate, c.TranslocationRate = 0.002, 0.05
		c.LayerInit, c.Ladder, c.LadderBallots, c.Shaping = true, []string{evolve.OpponentG1}, 4, 0.5
		c.MoverView, c.BothSides = true, true
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
	case c.Population < 2 || c.Genes < 1 || c.Depth < 1:
		return fmt.Errorf("population (%d) must be at least 2, genes (%d) and depth (%d) at least 1", c.Population, c.Genes, c.Depth)
	case c.PointRate < 0 || c.PointRate > 1 || c.TranslocationRate < 0 || c.TranslocationRate > 1:
		return fmt.Errorf("mutation rates must lie in [0, 1]")
	case c.Mode == Faithful && c.Rounds < 1:
		return fmt.Errorf("faithful mode needs at least one ranking round")
	case c.Mode == Improved && (c.Opponents < 1 || c.Opponents > c.Population || c.Elite < 0 || c.Elite >= c.Population || c.Tournament < 1 ||
		c.Hall < 0 || c.Panel < 0 || c.Panel > c.Population):
		return fmt.Errorf("improved mode needs 1 <= opponents <= population, 0 <= elite < population, tournament >= 1, hall >= 0 and 0 <= panel <= population")
	case len(c.LetterRates) != 0 && len(c.LetterRates) != genome.GeneLen:
		return fmt.Errorf("letter rates: %d given, want one for each of the %d letters of a gene", len(c.LetterRates), genome.GeneLen)
	case len(c.LayerMix) != 0 && (len(c.LayerMix) != 3 || min(c.LayerMix[0], c.LayerMix[1], c.LayerMix[2]) <= 0):
		return fmt.Errorf("layer mix %v: want three positive weights (first inner layer, second, output)", c.LayerMix)
	case c.InitWeight < 0:
		return fmt.Errorf("init weight (%g) may not be negative", c.InitWeight)
	case c.Shaping < 0 || c.Shaping > 1:
		return fmt.Errorf("shaping (%g) must lie in [0, 1]", c.Shaping)
	case c.LadderBallots < 0 || (len(c.Ladder) > 0 && c.LadderBallots < 1):
		return fmt.Errorf("a ladder needs at least one ballot a rung (ladder ballots %d)", c.LadderBallots)
	}
	for k, r := range c.LetterRates {
		if r < 0 || r > 1 {
			return fmt.Errorf("letter rate %d (%g) must lie in [0, 1]", k, r)
		}
	}
	for _, name := range c.Ladder {
		if _, err := ladderOpponent(name); err != nil {
			return err
		}
	}
	return nil
}

// ladderOpponent returns the fixed opponent of a ladder by its name.
func ladderOpponent(name string) (eval.Factory, error) { return evolve.FixedOpponent(name) }

// Rules returns the rules of the run's games.
func (c *Config) Rules() evolve.Rules {
	return evolve.Rules{Depth: c.Depth, RandomTies: c.RandomTies, QuietDraw: c.QuietDraw, MaxPlies: c.MaxPlies, Search: c.Search, MoverView: c.MoverView}
}

// DebugDir is the folder of a run that holds every generation's
// population, as neche's own runs do; the best genomes are in
// genome.RunBestFile.
const DebugDir = "nechedbg"

// PopulationPath returns the path of generation gen's population.
func PopulationPath(dir string, gen int) string {
	return filepath.Join(dir, DebugDir, strconv.Itoa(gen)+"_nets.txt")
}

// Learner is a neche run in a folder.
type Learner struct {
	evolve.Base[Config, *Config]
	pop  []genome.Genome // the population of the next generation to run
	best []genome.Genome // best_networks.txt: the best of each complete generation
	gen0 []genome.Genome // generation 0, for the panel
}

// New makes the learner of a run folder with settings cfg (checked).
func New(dir string, cfg Config) (*Learner, error) {
	b, err := evolve.NewBase(dir, cfg)
	if err != nil {
		return nil, err
	}
	return &Learner{Base: b}, nil
}

// Open reads best_networks.txt and the population of the first generation
// not complete. A generation is complete when best_networks.txt has its
// line; its successor's population file is written before that line, so
// the two always agree after a crash.
func (l *Learner) Open() (int, error) {
	l.best, l.pop = nil, nil
	path := filepath.Join(l.Dir, genome.RunBestFile)
	if _, err := os.Stat(path); err == nil {
		f, err := genome.ReadFile(path)
		if err != nil {
			return 0, err
		}
		if l.best, err = f.Genomes(); err != nil {
			return 0, badinput.Mark(err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	done := len(l.best)
	for done > 0 && !evolve.Exists(PopulationPath(l.Dir, done)) {
		done-- // a folder left by neche itself: go back to a population it kept
	}
	l.best = l.best[:done]
	if evolve.Started(done, func(gen int) string { return PopulationPath(l.Dir, gen) }) {
		pop, err := ReadPopulation(PopulationPath(l.Dir, done), l.Cfg.Population, l.Cfg.Genes)
		if err != nil {
			return 0, err
		}
		l.pop = pop
		l.gen0 = pop
		if done > 0 && l.Cfg.Panel > 0 {
			if l.gen0, err = ReadPopulation(PopulationPath(l.Dir, 0), l.Cfg.Population, l.Cfg.Genes); err != nil {
				return 0, err
			}
		}
	}
	return done, nil
}

// ReadPopulation reads a population file and checks it holds size genomes
// of genes genes each. Every error names the file and the line, and the
// column where the letters go wrong.
func ReadPopulation(path string, size, genes int) ([]genome.Genome, error) {
	f, err := genome.ReadFile(path)
	if err != nil {
		return nil, badinput.Mark(err)
	}
	pop, err := f.Genomes()
	if err != nil {
		return nil, badinput.Mark(err)
	}
	for i, g := range pop {
		if len(g) != genes {
			col := genes*genome.GeneLen + 1 // the first letter too many
			if len(g) < genes {
				col = len(g)*genome.GeneLen + 1 // where the line ends too soon
			}
			return nil, badinput.Mark(fmt.Errorf("%s:%d:%d: the genome has %d genes, the run's genomes have %d", path, i+1, col, len(g), genes))
		}
	}
	if len(pop) != size {
		return nil, badinput.Mark(fmt.Errorf("%s:%d: %d genomes, the run's population is %d", path, min(len(pop), size)+1, len(pop), size))
	}
	return pop, nil
}

// Best returns the best genome of complete generation gen.
func (l *Learner) Best(gen int) (eval.Factory, error) {
	if gen < 0 || gen >= len(l.best) {
		return nil, fmt.Errorf("neche: generation %d is not complete (%d are)", gen, len(l.best))
	}
	n := l.compile(l.best[gen])
	return func() eval.Evaluator { return n }, nil
}

// compile builds the network of g as the run judges it.
func (l *Learner) compile(g genome.Genome) *genome.Network {
	n := genome.Compile(g)
	if l.Cfg.BothSides {
		n = n.BothSides()
	}
	return n
}

// Population returns the population of the next generation to run.
func (l *Learner) Population() []genome.Genome { return l.pop }

// SetPopulation replaces the population of the next generation to run
// (for tests and for seeding a run by hand).
func (l *Learner) SetPopulation(pop []genome.Genome) { l.pop = pop }

// initial makes generation 0: the genomes of the Init file first, then
// random viable genomes.
func (l *Learner) initial() ([]genome.Genome, error) {
	var pop []genome.Genome
	if l.Cfg.Init != "" {
		f, err := genome.ReadFile(l.Cfg.Init)
		if err != nil {
			return nil, badinput.Mark(err)
		}
		gs, err := f.Genomes()
		if err != nil {
			return nil, badinput.Mark(err)
		}
		for i, g := range gs {
			if len(g) != l.Cfg.Genes {
				return nil, badinput.Mark(fmt.Errorf("%s:%d: the genome has %d genes, the run's genomes have %d", l.Cfg.Init, i+1, len(g), l.Cfg.Genes))
			}
		}
		pop = append(pop, gs[:min(len(gs), l.Cfg.Population)]...)
	}
	rng := evolve.Rand(l.Cfg.Seed, 0, streamInit)
	for len(pop) < l.Cfg.Population {
		switch {
		case l.Cfg.LayerInit:
			pop = append(pop, RandomLayerGenome(rng, l.Cfg.Genes, l.Cfg.InitWeight, l.Cfg.LayerMix))
		case l.Cfg.KeptInit:
			pop = append(pop, RandomKeptGenome(rng, l.Cfg.Genes))
		default:
			pop = append(pop, RandomGenome(rng, l.Cfg.Genes))
		}
	}
	return pop, nil
}

// Step runs generation gen: it ranks the population, breeds the next one
// and writes nechedbg/<gen+1>_nets.txt, then best_networks.txt with the
// generation's best as its last line.
func (l *Learner) Step(ctx context.Context, gen int, pool *evolve.Pool) (evolve.Stats, error) {
	if gen != len(l.best) {
		return evolve.Stats{}, fmt.Errorf("neche: step %d, but %d generations are complete", gen, len(l.best))
	}
	if l.pop == nil {
		pop, err := l.initial()
		if err != nil {
			return evolve.Stats{}, err
		}
		if err := genome.WriteGenomes(l.mkPath(gen), pop); err != nil {
			return evolve.Stats{}, err
		}
		l.pop, l.gen0 = pop, pop
	}
	cast := make([]eval.Factory, len(l.pop))
	for i, g := range l.pop {
		n := l.compile(g)
		cast[i] = func() eval.Evaluator { return n }
	}
	var fitness []float64
	var games int
	var err error
	if l.Cfg.Mode == Faithful {
		fitness, games, err = l.rankFaithful(ctx, pool, cast, gen)
	} else {
		fitness, games, err = l.rankImproved(ctx, pool, cast, gen)
	}
	if err != nil {
		return evolve.Stats{}, err
	}
	ranked := evolve.ByFitness(fitness)
	next := l.breed(gen, fitness, ranked)
	if err := genome.WriteGenomes(l.mkPath(gen+1), next); err != nil {
		return evolve.Stats{}, err
	}
	best := append(l.best[:gen:gen], l.pop[ranked[0]])
	if err := genome.WriteGenomes(filepath.Join(l.Dir, genome.RunBestFile), best); err != nil {
		return evolve.Stats{}, err
	}
	l.best, l.pop = best, next
	mean := 0.0
	for _, f := range fitness {
		mean += f
	}
	return evolve.Stats{Games: games, Best: fitness[ranked[0]], Mean: mean / float64(len(fitness))}, nil
}

// mkPath returns the population path of gen, creating nechedbg/.
func (l *Learner) mkPath(gen int) string {
	os.MkdirAll(filepath.Join(l.Dir, DebugDir), 0o755)
	return PopulationPath(l.Dir, gen)
}

// rankFaithful returns each genome's rank points summed over the rounds
// (0 for the weakest of a round).
func (l *Learner) rankFaithful(ctx context.Context, pool *evolve.Pool, cast []eval.Factory, gen int) ([]float64, int, error) {
	points := make([]float64, len(cast))
	games := 0
	for r := range l.Cfg.Rounds {
		order, n, err := quicksortRound(ctx, pool, cast, l.Cfg.Seed, gen, r)
		if err != nil {
			return nil, 0, err
		}
		for rank, i := range order {
			points[i] += float64(rank)
		}
		games += n
	}
	return points, games, nil
}

// rankImproved returns each genome's mean score in colour-reversed pairs
// against its opponents: the population's first Opponents genomes (the
// previous generation's best, kept as elites), the best genomes of Hall
// earlier generations (g−2, g−4, g−8, ...), the first Panel genomes of
// generation 0 and LadderBallots pairs against each fixed opponent of the
// Ladder; one standard 3-move ballot per opponent (per ladder pair) is
// drawn for the generation. Each genome plays a pair against each of its
// opponents but itself, and only its own games score it, as Shaping says.
func (l *Learner) rankImproved(ctx context.Context, pool *evolve.Pool, cast []eval.Factory, gen int) ([]float64, int, error) {
	var opponents []int
	for j := range l.Cfg.Opponents {
		opponents = append(opponents, j)
	}
	all := cast
	extra := func(g genome.Genome) {
		n := l.compile(g)
		all = append(all[:len(all):len(all)], func() eval.Evaluator { return n })
		opponents = append(opponents, len(all)-1)
	}
	for _, g := range hallOfFame(gen, l.Cfg.Hall) {
		extra(l.best[g])
	}
	for j := range l.Cfg.Panel {
		if gen == 0 {
			opponents = append(opponents, j) // generation 0 is the panel's own
		} else {
			extra(l.gen0[j])
		}
	}
	for _, name := range l.Cfg.Ladder {
		f, err := ladderOpponent(name)
		if err != nil {
			return nil, 0, err
		}
		all = append(all[:len(all):len(all)], f)
		for range l.Cfg.LadderBallots {
			opponents = append(opponents, len(all)-1)
		}
	}
	s, err := evolve.NewSchedule(evolve.Rand(l.Cfg.Seed, gen, streamSchedule), l.Cfg.Seed, gen, streamGames)
	if err != nil {
		return nil, 0, err
	}
	openings := make([]engine.Position, len(opponents))
	for j := range openings {
		if openings[j], err = s.Opening(); err != nil {
			return nil, 0, err
		}
	}
	for i := range cast {
		for j, opp := range opponents {
			if opp != i {
				s.Pair(i, opp, openings[j], false)
			}
		}
	}
	scores, err := s.Scores(ctx, pool, all, l.Cfg.Shaping)
	if err != nil {
		return nil, 0, err
	}
	return scores[:len(cast)], len(s.Games), nil
}

// hallOfFame returns the earlier generations whose best genomes join the
// opponents of generation gen: gen−2, gen−4, gen−8, ... (at most n of
// them, all at least 0).
func hallOfFame(gen, n int) []int {
	var out []int
	for step := 2; len(out) < n && gen-step >= 0; step *= 2 {
		out = append(out, gen-step)
	}
	return out
}

// breed makes the next population. Faithful: every child from two parents
// drawn in proportion to (points + 0.5). Improved: the Elite best first,
// unchanged and in order, then children of parents chosen by tournaments
// of Tournament genomes.
func (l *Learner) breed(gen int, fitness []float64, ranked []int) []genome.Genome {
	rng := evolve.Rand(l.Cfg.Seed, gen, streamBreed)
	v := Variation{PointRate: l.Cfg.PointRate, TranslocationRate: l.Cfg.TranslocationRate}
	if len(l.Cfg.LetterRates) == genome.GeneLen {
		v.LetterRates = (*[geneLetters]float64)(l.Cfg.LetterRates)
	}
	var pick func() genome.Genome
	next := make([]genome.Genome, 0, l.Cfg.Population)
	if l.Cfg.Mode == Faithful {
		weights := make([]float64, len(fitness))
		for i, f := range fitness {
			weights[i] = f + 0.5
		}
		pick = func() genome.Genome { return l.pop[Roulette(rng, weights)] }
	} else {
		for _, i := range ranked[:l.Cfg.Elite] {
			next = append(next, l.pop[i])
		}
		pick = func() genome.Genome { return l.pop[tournament(rng, fitness, l.Cfg.Tournament)] }
	}
	parents := func() (genome.Genome, genome.Genome) { return pick(), pick() }
	for len(next) < l.Cfg.Population {
		child, _ := Child(rng, parents, v)
		next = append(next, child)
	}
	return next
}

// tournament draws size genomes at random (with replacement) and returns
// the fittest, the first drawn on a tie.
func tournament(rng *rand.Rand, fitness []float64, size int) int {
	best := rng.IntN(len(fitness))
	for range size - 1 {
		if i := rng.IntN(len(fitness)); fitness[i] > fitness[best] {
			best = i
		}
	}
	return best
}
