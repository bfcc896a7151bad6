package match

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/protocol/client"
)

// PairingResult is the score of one pairing, from engine A's side.
type PairingResult struct {
	A, B  string
	Tally elo.Tally
}

// CurvePoint is the first engine's Elo estimate after Games games (against
// all its opponents), with its 95% interval.
type CurvePoint struct {
	Games       int
	Elo, Lo, Hi float64
	// LLR is the SPRT's log-likelihood ratio at that point (0 without one).
	LLR float64
}

// Summary is the outcome of a match.
type Summary struct {
	Pairings []PairingResult
	// Played counts the games recorded (resumed ones included) out of Total
	// scheduled.
	Played, Total int
	// Faults lists the games lost by a fault, as "game N: reason".
	Faults []string
	// Curve follows the first engine's Elo game by game.
	Curve []CurvePoint
	// LowClocks holds, per engine that played with a clock, the least
	// its clock held after a move over the whole match.
	LowClocks []LowClock
	// SPRT holds the test's last decision and LLR when one was run.
	SPRT     *elo.SPRT
	Decision elo.Decision
	LLR      float64
}

// LowClock is the least an engine's clock held after one of its moves,
// and the game where it did.
type LowClock struct {
	Engine string
	Left   time.Duration
	Game   int
}

// Progress is where a match stands after a recorded game, for a progress
// display.
type Progress struct {
	// Played counts the games recorded (resumed ones included) out of
	// Total; New counts those this run played, in Elapsed.
	Played, Total, New int
	Elapsed            time.Duration
	// Engine is the first engine's name and Tally its score against all
	// its opponents.
	Engine string
	Tally  elo.Tally
	// SPRT is the test when one runs, and LLR its log-likelihood ratio.
	SPRT *elo.SPRT
	LLR  float64
}

// String writes p as one line: the games, the first engine's score and
// Elo with its 95% interval, the seconds per game, and the SPRT's LLR with
// its bounds.
func (p Progress) String() string {
	t := p.Tally
	e, lo, hi := t.Elo()
	line := fmt.Sprintf("games %d/%d  %s: +%d -%d =%d  %.1f%%  Elo %s %s  %.2f s/game",
		p.Played, p.Total, p.Engine, t.W, t.L, t.D, 100*t.Score(),
		elo.FormatElo(e), elo.FormatInterval(lo, hi), p.Elapsed.Seconds()/float64(max(p.New, 1)))
	if p.SPRT != nil {
		lower, upper := p.SPRT.Bounds()
		line += fmt.Sprintf("  LLR %.2f (%.2f, %.2f)", p.LLR, lower, upper)
	}
	return line
}

// Run plays the match described by cfg and returns the summary. progress,
// if not nil, is called from Run's goroutine after every recorded game.
// Cancelling ctx stops starting new games; the games under way finish and
// are recorded.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (*Summary, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	sched := cfg.Schedule()
	rec, old, err := openRecord(cfg.PDN, cfg.Resume)
	if err != nil {
		return nil, err
	}
	defer rec.close()
	st := newState(&cfg, len(sched))
	settings := cfg.settings()
	done := map[int]bool{}
	for _, g := range old {
		idx, _ := strconv.Atoi(g.Tag("Round"))
		if err := checkSettings(g, idx, settings); err != nil {
			return nil, fmt.Errorf("%s: %w", cfg.PDN, err)
		}
		if idx < 1 || idx > len(sched) || done[idx] {
			return nil, fmt.Errorf("%s: game with Round %d does not fit this match's %d games", cfg.PDN, idx, len(sched))
		}
		s := sched[idx-1]
		if g.Tag("Black") != cfg.Engines[s.Black].Name || g.Tag("White") != cfg.Engines[s.White].Name {
			return nil, fmt.Errorf("%s: game %d is %s-%s but this match plays %s-%s there; resume with the same engines, openings and seed",
				cfg.PDN, idx, g.Tag("Black"), g.Tag("White"), cfg.Engines[s.Black].Name, cfg.Engines[s.White].Name)
		}
		done[idx] = true
		st.add(resultFromPDN(g, s))
	}
	var pending []Scheduled
	for _, s := range sched {
		if !done[s.Index] {
			pending = append(pending, s)
		}
	}
	if st.decided() {
		pending = nil
	}

	jobs := make(chan Scheduled)
	results := make(chan GameResult)
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	go func() {
		defer close(jobs)
		for _, s := range pending {
			select {
			case jobs <- s:
			case <-stop:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	var remoteErr error
	if cfg.Remote != nil {
		engines, cast, err := cfg.remoteEngines()
		if err != nil {
			return nil, err
		}
		go func() {
			defer close(results)
			var batch []Scheduled
			flush := func() bool {
				rs, err := cfg.playRemote(ctx, engines, cast, batch)
				if err != nil {
					if ctx.Err() == nil {
						remoteErr = err
					}
					return false
				}
				batch = batch[:0]
				for _, r := range rs {
					select {
					case results <- r:
					case <-stop:
						return false
					}
				}
				return true
			}
			for s := range jobs {
				if batch = append(batch, s); len(batch) == remoteChunk && !flush() {
					halt()
					return
				}
			}
			if len(batch) > 0 && ctx.Err() == nil {
				flush()
			}
		}()
	} else {
		started := make([]atomic.Bool, len(cfg.Engines))
		var wg sync.WaitGroup
		for w := 0; w < cfg.Concurrency; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := &players{cfg: &cfg, running: map[int]*client.Engine{}, started: started}
				defer p.closeAll()
				for s := range jobs {
					results <- p.play(s)
				}
			}()
		}
		go func() { wg.Wait(); close(results) }()
	}

	err = st.collect(results, rec, settings, progress, halt)
	if err == nil {
		err = remoteErr
	}
	return st.summary(), err
}

// collect records the games of results as they finish and adds them to the
// tally, calling progress after each, until results is closed. What stops
// the match (a game that cannot be recorded, an engine that could not
// start before its first game, an engine at the fault limit, the SPRT's
// decision) calls halt; the games under way are then drained unrecorded.
// It returns the error that stopped the match, if any.
func (st *state) collect(results <-chan GameResult, rec *recorder, settings []setting, progress func(Progress), halt func()) error {
	cfg := st.cfg
	began := time.Now()
	newGames := 0
	var stopErr error
	st.observeStandings()
	for r := range results {
		if stopErr != nil {
			continue // drain the games under way
		}
		if r.Fatal != nil {
			stopErr = r.Fatal
			halt()
			continue
		}
		if rec.f != nil {
			data, err := gamePDN(r, cfg.Event, settings, time.Now())
			if err == nil {
				err = rec.append(data)
			}
			if err != nil {
				stopErr = fmt.Errorf("recording game %d in %s: %w", r.Game.Index, cfg.PDN, err)
				halt()
				continue
			}
		}
		newGames++
		st.add(r)
		if cfg.Observer != nil {
			cfg.Observer.GameEnded(r.Game.Index, r.Result)
		}
		st.observeStandings()
		if progress != nil {
			progress(Progress{Played: st.sum.Played, Total: st.sum.Total, New: newGames, Elapsed: time.Since(began),
				Engine: cfg.Engines[0].Name, Tally: st.first, SPRT: cfg.SPRT, LLR: st.sum.LLR})
		}
		if err := st.countFaults(r); err != nil {
			stopErr = err
			halt()
		}
		if st.decided() {
			halt()
		}
	}
	return stopErr
}

// state is the running tally of a match.
type state struct {
	cfg      *Config
	pairings [][2]int
	tallies  []elo.Tally
	first    elo.Tally // the first engine against everyone
	halves   map[int]GameResult
	// faultStreak counts each engine's faulty games in a row.
	faultStreak map[int]int
	sum         Summary
}

func newState(cfg *Config, total int) *state {
	st := &state{cfg: cfg, pairings: cfg.pairings(), halves: map[int]GameResult{}, faultStreak: map[int]int{}}
	st.tallies = make([]elo.Tally, len(st.pairings))
	st.sum.Total = total
	st.sum.SPRT = cfg.SPRT
	return st
}

// halfPoints returns what engine i scored in r, in half points.
func halfPoints(r GameResult, i int) int {
	switch {
	case r.Result.Outcome == engine.Draw:
		return 1
	case r.Result.Outcome == engine.BlackWins && r.Game.Black == i, r.Result.Outcome == engine.WhiteWins && r.Game.White == i:
		return 2
	}
	return 0
}

func (st *state) add(r GameResult) {
	st.sum.Played++
	a := st.pairings[r.Game.Pairing][0]
	t := &st.tallies[r.Game.Pairing]
	t.Add(halfPoints(r, a))
	if r.Game.Black == 0 || r.Game.White == 0 {
		st.first.Add(halfPoints(r, 0))
	}
	if other, ok := st.halves[r.Game.Pair]; ok {
		delete(st.halves, r.Game.Pair)
		k := halfPoints(r, a) + halfPoints(other, a)
		t.AddPair(k)
		if a == 0 {
			st.first.AddPair(k)
		}
	} else {
		st.halves[r.Game.Pair] = r
	}
	st.addClocks(r)
	if r.Faulty >= 0 {
		st.sum.Faults = append(st.sum.Faults, fmt.Sprintf("game %d (%s-%s): %s", r.Game.Index, r.Black, r.White, r.Result.Reason))
	}
	e, lo, hi := st.first.Elo()
	pt := CurvePoint{Games: st.first.Games(), Elo: e, Lo: lo, Hi: hi}
	if st.cfg.SPRT != nil {
		st.sum.Decision, st.sum.LLR = st.cfg.SPRT.Decide(st.tallies[0].Penta)
		pt.LLR = st.sum.LLR
	}
	st.sum.Curve = append(st.sum.Curve, pt)
}

// addClocks keeps each engine's lowest clock over the match.
func (st *state) addClocks(r GameResult) {
	if !r.Clocked {
		return
	}
	for c, name := range [2]string{engine.Black: r.Black, engine.White: r.White} {
		i := slices.IndexFunc(st.sum.LowClocks, func(l LowClock) bool { return l.Engine == name })
		if i < 0 {
			st.sum.LowClocks = append(st.sum.LowClocks, LowClock{Engine: name, Left: r.LowClock[c], Game: r.Game.Index})
		} else if l := &st.sum.LowClocks[i]; r.LowClock[c] < l.Left {
			l.Left, l.Game = r.LowClock[c], r.Game.Index
		}
	}
}

// countFaults counts the faulty games in a row of both engines of r and
// returns the error that stops the match when one reaches the fault limit.
func (st *state) countFaults(r GameResult) error {
	for _, seat := range []int{r.Game.Black, r.Game.White} {
		st.faultStreak[seat]++
		if r.Faulty != seat {
			st.faultStreak[seat] = 0
		}
		if n := st.faultStreak[seat]; st.cfg.FaultLimit > 0 && n >= st.cfg.FaultLimit {
			return fmt.Errorf("engine %s failed %d games in a row, the last (game %d) with: %s; the match stops",
				st.cfg.Engines[seat].Name, n, r.Game.Index, r.Result.Reason)
		}
	}
	return nil
}

func (st *state) decided() bool {
	return st.cfg.SPRT != nil && st.sum.Decision != elo.Continue
}

func (st *state) summary() *Summary {
	s := st.sum
	for i, p := range st.pairings {
		s.Pairings = append(s.Pairings, PairingResult{A: st.cfg.Engines[p[0]].Name, B: st.cfg.Engines[p[1]].Name, Tally: st.tallies[i]})
	}
	return &s
}

// WriteTable writes the final table: per pairing the games, wins, losses
// and draws of A, its score, the draw rate, the Elo difference with its 95%
// interval and the LOS; then the SPRT's decision, each engine's lowest
// clock in a match with a clock, and the faults.
func (s *Summary) WriteTable(w io.Writer) {
	s.writeStandings(w)
	if line := s.sprtLine(); line != "" {
		fmt.Fprintln(w, line)
	}
	for _, l := range s.LowClocks {
		fmt.Fprintf(w, "lowest clock left: %s %s s (game %d)\n", l.Engine, formatClock(l.Left), l.Game)
	}
	if len(s.Faults) > 0 {
		fmt.Fprintf(w, "%d games ended by a fault:\n", len(s.Faults))
		for _, f := range s.Faults {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
}

// writeStandings writes the table's lines up to the SPRT's: the pairings,
// the games played and, for one pairing, the pentanomial counts.
func (s *Summary) writeStandings(w io.Writer) {
	fmt.Fprintf(w, "%-24s %6s %5s %5s %5s %7s %6s  %-26s %6s %6s\n", "pairing (A vs B)", "games", "W", "L", "D", "score", "draws", "Elo of A (95% CI)", "LOS", "pairs")
	for _, p := range s.Pairings {
		t := p.Tally
		e, lo, hi := t.Elo()
		fmt.Fprintf(w, "%-24s %6d %5d %5d %5d %6.1f%% %5.1f%%  %-26s %5.1f%% %6d\n", p.A+" vs "+p.B, t.Games(), t.W, t.L, t.D,
			100*t.Score(), 100*t.DrawRate(), elo.FormatElo(e)+" "+elo.FormatInterval(lo, hi), 100*t.LOS(), t.Pairs())
	}
	fmt.Fprintf(w, "%d of %d games played\n", s.Played, s.Total)
	if len(s.Pairings) == 1 {
		pt := s.Pairings[0].Tally.Penta
		fmt.Fprintf(w, "pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2 for %s): %v\n", s.Pairings[0].A, pt)
	}
}

// sprtLine is the SPRT's settings, LLR, bounds and decision, or "" when
// the match runs no SPRT.
func (s *Summary) sprtLine() string {
	if s.SPRT == nil {
		return ""
	}
	lower, upper := s.SPRT.Bounds()
	return fmt.Sprintf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f, bounds (%.3f, %.3f): %s",
		s.SPRT.Elo0, s.SPRT.Elo1, s.SPRT.Alpha, s.SPRT.Beta, s.LLR, lower, upper, s.Decision)
}
