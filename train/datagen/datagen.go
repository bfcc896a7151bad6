// Package datagen owns the generation of training positions by self-play:
// games from the 2- and 3-move ballots with random early plies, played by a
// shallow search (a depth or a node limit) through engine/play's loop, whose
// quiet positions are labelled with the game's result and a search score,
// deduplicated and appended chunk by chunk to a positions file
// (train/positions). A run is deterministic by its seed: game g's
// randomness comes from the seed and g alone, and games are written in
// order whatever the number of workers, so a resumed or repeated run writes
// the same file.
package datagen

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/train/positions"
)

// Config says how positions are generated. Every field but Workers is part
// of the file's settings, which a resumed run must repeat.
type Config struct {
	// Eval is the evaluator spec the games are played with.
	Eval string
	// Depth and Nodes limit every move's search (at least one is set).
	Depth int
	Nodes uint64
	// LabelDepth, when above 0, labels each kept position with the score of
	// a search of this depth; otherwise with the score of the search that
	// chose the move.
	LabelDepth int
	// RandomPlies is the most random moves played after the ballot; each
	// game draws a number from 0 to RandomPlies.
	RandomPlies int
	// MaxPlies adjudicates a game as drawn at this many plies.
	MaxPlies int
	// HashMB is each search's table size.
	HashMB int
	// Seed seeds everything random.
	Seed uint64
	// ChunkGames is the number of games per chunk of the file.
	ChunkGames int
	// DBPieces, when above 0, makes both sides search with an endgame
	// database of positions of up to this many pieces and ends every game
	// at the first position it settles, with the database's value (so no
	// such position is ever a training position). Run sets it from DB.
	DBPieces int
	// Workers is the number of games played at once.
	Workers int
	// DB names where the endgame database is read from: "" for none,
	// EmbeddedDB, or a folder of slice files. Like Workers it is not a
	// setting of the file, DBPieces is: every complete database of as many
	// pieces gives the same values, so the same games.
	DB string
	// Remote, when set, plays the games instead of the workers (on a
	// fleet, train/unitplay); like Workers it is not a setting of the file.
	Remote Remote
}

// DefaultConfig is a fast setting: 1500 nodes a move, up to 6 random
// plies.
var DefaultConfig = Config{Eval: "heuristic", Nodes: 1500, RandomPlies: 6, MaxPlies: 300, HashMB: 2, Seed: 1, ChunkGames: 200, Workers: 1}

// Settings returns the text that identifies c in a positions file.
func (c Config) Settings() string {
	return fmt.Sprintf("nechecb datagen\neval=%s\ndepth=%d\nnodes=%d\nlabel-depth=%d\nrandom-plies=%d\nmax-plies=%d\nhash=%d\nseed=%d\nchunk=%d\nopenings=2move+3move\n",
		c.Eval, c.Depth, c.Nodes, c.LabelDepth, c.RandomPlies, c.MaxPlies, c.HashMB, c.Seed, c.ChunkGames) + c.dbSetting()
}

// dbSetting is the settings' line of the endgame database, none without
// one (so the files of runs without a database read as before).
func (c Config) dbSetting() string {
	if c.DBPieces == 0 {
		return ""
	}
	return fmt.Sprintf("egdb=%d pieces\n", c.DBPieces)
}

// check refuses settings that cannot work.
func (c Config) check() error {
	switch {
	case c.Depth < 0 || c.LabelDepth < 0 || c.RandomPlies < 0 || c.MaxPlies < 0 || c.DBPieces < 0:
		return errors.New("depths, random plies, max plies and database pieces must not be negative")
	case c.DBPieces > 0 && c.DB == "":
		return errors.New("database pieces without a database")
	case c.Depth == 0 && c.Nodes == 0:
		return errors.New("give a depth or a node limit for the games' searches")
	case c.HashMB < 1 || c.ChunkGames < 1 || c.Workers < 1:
		return errors.New("hash, chunk and workers must be at least 1")
	case strings.ContainsAny(c.Eval, "\n\r"):
		return errors.New("the evaluator spec has a line break")
	}
	return nil
}

// Target says when a run stops: when the file holds at least Positions
// positions, or covers Games games, whichever comes first (0: no limit;
// at least one must be set). It stops on whole chunks only.
type Target struct {
	Positions int
	Games     int
}

// openings returns the ballots the games start from: every 2-move and
// 3-move ballot that does not lose by force.
func openings() []books.Ballot {
	var out []books.Ballot
	for _, b := range append(books.TwoMove(), books.ThreeMove()...) {
		if !b.Lost {
			out = append(out, b)
		}
	}
	return out
}

// Run generates positions into the file at path until target, creating the
// file or, with resume, going on with it (the file must have been made with
// the same settings). progress (may be nil) is called after every chunk.
// A cancelled ctx stops the run after the games in play; the chunk they
// belong to is not written, so a resumed run plays them again.
func Run(ctx context.Context, cfg Config, path string, resume bool, target Target, progress func(Progress)) error {
	if err := cfg.check(); err != nil {
		return badinput.Mark(err)
	}
	if target.Positions <= 0 && target.Games <= 0 {
		return badinput.Mark(errors.New("give a target: a number of positions or of games"))
	}
	factory, err := eval.Load(cfg.Eval)
	if err != nil {
		return badinput.Mark(err)
	}
	if cfg.DB != "" {
		if cfg.DBPieces, err = CheckDB(cfg.DB); err != nil {
			return badinput.Mark(err)
		}
	}
	var (
		app  *positions.Appender
		seen *keySet
		have int
	)
	if resume {
		var f *positions.File
		if app, f, err = positions.Resume(path, cfg.Settings()); err != nil {
			return badinput.Mark(err)
		}
		seen = newKeySet(len(f.Records))
		for i := range f.Records {
			p := f.Records[i].Position()
			seen.add(p.Hash)
		}
		have = len(f.Records)
	} else {
		if app, err = positions.Create(path, cfg.Settings()); err != nil {
			if errors.As(err, new(*fs.PathError)) {
				return err // the file cannot be written: a runtime failure
			}
			return badinput.Mark(err)
		}
		seen = newKeySet(1 << 16)
	}
	defer app.Close()
	g := &generator{cfg: cfg, factory: factory, openings: openings()}
	done := func() bool {
		return (target.Positions > 0 && have >= target.Positions) || (target.Games > 0 && app.Games() >= target.Games)
	}
	start := time.Now()
	p := Progress{DB: cfg.DBPieces > 0}
	for !done() {
		first, n := app.Games(), cfg.ChunkGames
		if target.Games > 0 {
			n = min(n, target.Games-first)
		}
		games, err := g.play(ctx, first, n)
		if err != nil {
			return err
		}
		var recs []positions.Record
		for _, gr := range games {
			p.Seen += len(gr.recs)
			p.Ends.add(gr.end)
			for _, kr := range gr.recs {
				if seen.add(kr.key) {
					recs = append(recs, kr.rec)
				}
			}
		}
		if err := app.Append(n, recs); err != nil {
			return err
		}
		have += len(recs)
		p.NewPositions += len(recs)
		if progress != nil {
			p.Games, p.Positions, p.Elapsed = app.Games(), have, time.Since(start)
			progress(p)
		}
	}
	return nil
}

// keyed is a record with its position's hash, for deduplication.
type keyed struct {
	key uint64
	rec positions.Record
}

// gameRecords are a game's records and how it ended.
type gameRecords struct {
	recs []keyed
	end  ending
}

// generator plays the games of a run.
type generator struct {
	cfg      Config
	factory  eval.Factory
	openings []books.Ballot
	workers  []*worker // made on first use, one per goroutine
}

// worker is one goroutine's searchers.
type worker struct {
	eng, label *player.Engine
}

// play plays games first..first+n-1 on cfg.Workers goroutines and returns
// each game's labelled positions, in game order. A cancelled ctx returns
// its error.
func (g *generator) play(ctx context.Context, first, n int) ([]gameRecords, error) {
	out := make([]gameRecords, n)
	next := make(chan int)
	errs := make([]error, n)
	var wg sync.WaitGroup
	if g.cfg.Remote != nil {
		return g.playRemote(ctx, first, n)
	}
	if err := g.grow(g.cfg.Workers); err != nil {
		return nil, err
	}
	for _, w := range g.workers[:min(len(g.workers), n)] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = g.game(ctx, w, first+i)
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, errors.Join(errs...)
}

// grow makes the generator's workers up to n.
func (g *generator) grow(n int) error {
	for len(g.workers) < n {
		w, err := newWorker(g.cfg, g.factory)
		if err != nil {
			return err
		}
		g.workers = append(g.workers, w)
	}
	return nil
}

// playRemote plays games first..first+n-1 on cfg.Remote.
func (g *generator) playRemote(ctx context.Context, first, n int) ([]gameRecords, error) {
	openings := make([]Opening, n)
	for i := range openings {
		_, o, err := g.opening(first + i)
		if err != nil {
			return nil, err
		}
		openings[i] = o
	}
	games, err := g.cfg.Remote.Play(ctx, g.cfg, openings)
	if err != nil {
		return nil, err
	}
	if len(games) != n {
		return nil, fmt.Errorf("datagen: %d games played remotely of %d", len(games), n)
	}
	out := make([]gameRecords, n)
	for i := range games {
		end, err := g.checkEnd(&games[i])
		if err != nil {
			return nil, fmt.Errorf("datagen: game %d: %w", first+i, err)
		}
		out[i] = gameRecords{recs: g.keyed(first+i, games[i].Samples), end: end}
	}
	return out, nil
}

// checkEnd returns how a game played elsewhere ended, after checking an
// ending by the endgame database against the run's own (the work unit's
// checks replay the game but have no database).
func (g *generator) checkEnd(p *Played) (ending, error) {
	if !settled(&p.Last, g.cfg.DBPieces) {
		return endOf(p.ByRules, false), nil
	}
	if err := g.grow(1); err != nil {
		return 0, err
	}
	if want := outcomeOf(g.workers[0].eng.ProbeDB(&p.Last), p.Last.Side); p.Outcome != want {
		return 0, fmt.Errorf("the worker ends it %v at %s, the endgame database %v", p.Outcome, p.Last.FEN(), want)
	}
	return byDB, nil
}

// endOf returns how a game ended that the rules ended or not, and whose
// last position the database settles or not.
func endOf(rules, settled bool) ending {
	switch {
	case settled:
		return byDB
	case rules:
		return byRules
	}
	return byLimit
}

// fold returns the fold of game number game: a hash of the seed and the
// number, so that a validation split by fold takes whole games.
func fold(seed uint64, game int) uint8 {
	x := seed ^ uint64(game)*0x9e3779b97f4a7c15
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return uint8(x)
}

// scoreOf turns a search score into a record's score.
func scoreOf(s player.Score) int {
	switch {
	case s.IsWin():
		return positions.ForcedScore
	case s.IsLoss():
		return -positions.ForcedScore
	}
	return max(-positions.MaxScore, min(positions.MaxScore, int(s)))
}

// recorder is a play.Player that searches with a Mover and keeps the score
// of the search made at each ply.
type recorder struct {
	mover  *player.Mover
	scores []int
}

func (r *recorder) Move(ctx context.Context, g *engine.Game) (engine.Move, error) {
	m, err := r.mover.Move(ctx, g)
	if err == nil {
		for len(r.scores) < g.Ply() {
			r.scores = append(r.scores, 0)
		}
		r.scores = append(r.scores, scoreOf(r.mover.Last.Score))
	}
	return m, err
}

// Opening is how game number Game begins: Moves (numeric notation) from
// the standard start position, the ballot and the random plies drawn from
// the run's seed, and the seed of the game's searches.
type Opening struct {
	Game  int
	Moves []string
	Seed  uint64
}

// Sample is a training position of a game before deduplication: its
// position, the game's result for the side to move (positions.Win, Draw
// or Loss) and a search score.
type Sample struct {
	Position engine.Position
	Result   uint8
	Score    int
}

// Remote plays a run's games elsewhere (train/unitplay sends them to a
// fleet of workers): for each opening, in order, the samples of its game,
// which must be those the run's own workers would give.
type Remote interface {
	Play(ctx context.Context, cfg Config, openings []Opening) ([]Played, error)
}

// Played is a game a Remote played: its samples, its outcome, its last
// position, and whether the rules ended it (a side without a move, a
// repetition, the 40-move rule).
type Played struct {
	Samples []Sample
	Outcome engine.Outcome
	Last    engine.Position
	ByRules bool
}

// opening draws game number game's opening and returns it played.
func (g *generator) opening(game int) (*engine.Game, Opening, error) {
	rng := rand.New(rand.NewPCG(g.cfg.Seed, uint64(game)))
	b := g.openings[rng.IntN(len(g.openings))]
	gm, err := b.Play()
	if err != nil {
		return nil, Opening{}, err
	}
	var l engine.MoveList
	for k := rng.IntN(g.cfg.RandomPlies + 1); k > 0; k-- {
		cur := gm.Current()
		if cur.Generate(&l); l.N == 0 {
			break
		}
		if err := gm.Play(l.Moves[rng.IntN(l.N)]); err != nil {
			return nil, Opening{}, err
		}
	}
	o := Opening{Game: game, Seed: rng.Uint64()}
	for _, m := range gm.Moves() {
		o.Moves = append(o.Moves, m.String())
	}
	return gm, o, nil
}

// game plays game number game and returns its labelled quiet positions
// from the first one after the random plies, in game order.
func (g *generator) game(ctx context.Context, w *worker, game int) (gameRecords, error) {
	gm, o, err := g.opening(game)
	if err != nil {
		return gameRecords{}, err
	}
	_, samples, err := w.play(ctx, g.cfg, gm, o.Seed)
	if err != nil {
		return gameRecords{}, fmt.Errorf("game %d: %w", game, err)
	}
	last := gm.Current()
	end := endOf(gm.Result().Outcome != engine.Ongoing, settled(&last, g.cfg.DBPieces))
	return gameRecords{recs: g.keyed(game, samples), end: end}, nil
}

// keyed turns a game's samples into records keyed by position.
func (g *generator) keyed(game int, samples []Sample) []keyed {
	fd := fold(g.cfg.Seed, game)
	out := make([]keyed, 0, len(samples))
	for i := range samples {
		s := &samples[i]
		out = append(out, keyed{key: s.Position.Hash, rec: positions.NewRecord(&s.Position, s.Result, s.Score, fd)})
	}
	return out
}

// Searcher plays datagen games from their openings on: the searches of
// one worker, kept from game to game.
type Searcher struct {
	w   *worker
	cfg Config
}

// NewSearcher returns the searches of cfg (Eval is not read: factory
// makes the evaluators; DB says where this process reads the DBPieces
// database from). It fails when that database cannot be used.
func NewSearcher(cfg Config, factory eval.Factory) (*Searcher, error) {
	w, err := newWorker(cfg, factory)
	if err != nil {
		return nil, err
	}
	return &Searcher{w: w, cfg: cfg}, nil
}

// Play plays gm, whose moves so far are the opening, to its end with
// searches seeded by seed, and returns the outcome and the samples.
func (s *Searcher) Play(ctx context.Context, gm *engine.Game, seed uint64) (engine.Outcome, []Sample, error) {
	return s.w.play(ctx, s.cfg, gm, seed)
}

// newWorker makes the searches of one goroutine, both with cfg's endgame
// database.
func newWorker(cfg Config, factory eval.Factory) (*worker, error) {
	w := &worker{eng: player.New(player.Options{HashMB: cfg.HashMB, Threads: 1}, factory, cfg.Eval)}
	if err := useDB(w.eng, cfg.DB, cfg.DBPieces); err != nil {
		return nil, err
	}
	if cfg.LabelDepth > 0 {
		w.label = player.New(player.Options{HashMB: cfg.HashMB, Threads: 1}, factory, cfg.Eval)
		if err := useDB(w.label, cfg.DB, cfg.DBPieces); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// play plays gm to its end and returns the outcome and the quiet positions
// from the current one (the first after the opening) to the last but one.
func (w *worker) play(ctx context.Context, cfg Config, gm *engine.Game, seed uint64) (engine.Outcome, []Sample, error) {
	from := gm.Ply()
	w.eng.SetOptions(player.Options{HashMB: cfg.HashMB, Threads: 1, RandomTies: true, Seed: seed})
	w.eng.Clear()
	rec := &recorder{mover: &player.Mover{Engine: w.eng, Limits: player.Limits{Depth: cfg.Depth, Nodes: cfg.Nodes}}}
	rules := play.Rules{MaxPlies: cfg.MaxPlies, Adjudicate: w.adjudicator()}
	var r play.Result
	if end, ok := w.adjudicate(gm); ok { // play.Play adjudicates after moves only: this is for the start
		r.Result = end
	} else {
		r = play.Play(ctx, gm, rec, rec, rules)
	}
	if r.Outcome == engine.Ongoing {
		return r.Outcome, nil, ctx.Err()
	}
	if r.Fault != nil {
		return r.Outcome, nil, r.Fault
	}
	var out []Sample
	all := gm.Positions()
	if w.label != nil {
		w.label.Clear()
	}
	for ply := from; ply < len(all)-1; ply++ { // the last position has no search
		p := &all[ply]
		if !p.Quiet() {
			continue
		}
		result := uint8(positions.Draw)
		switch r.Outcome {
		case engine.WinFor(p.Side):
			result = positions.Win
		case engine.WinFor(p.Side.Opponent()):
			result = positions.Loss
		}
		score := 0
		if ply < len(rec.scores) {
			score = rec.scores[ply]
		}
		if w.label != nil {
			lr := w.label.Search(ctx, *p, all[:ply], player.Limits{Depth: cfg.LabelDepth}, nil)
			score = scoreOf(lr.Score)
		}
		out = append(out, Sample{Position: *p, Result: result, Score: score})
	}
	return r.Outcome, out, nil
}
