package workunit

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
)

// parseStart reads a game's opening.
func parseStart(fen string) (engine.Position, error) {
	if fen == "" {
		return engine.StartPosition(), nil
	}
	p, err := engine.ParseFEN(fen)
	if err != nil {
		return p, fmt.Errorf("opening %q: %w", fen, err)
	}
	return p, nil
}

// Position returns the opening of game g.
func (g *Game) Position() (engine.Position, error) {
	if g.start != nil {
		return *g.start, nil
	}
	return parseStart(g.Start)
}

// Record returns the PDN text of a finished game record whose result is
// outcome (adjudicated draws have no result in the rules, so the caller
// says it).
func Record(rec *engine.Game, outcome engine.Outcome) string {
	g := pdn.FromRecord(rec)
	g.SetTag("Result", engine.Result{Outcome: outcome}.PDN())
	return g.String()
}

// NewGameResult returns the result of a finished game of u: its outcome,
// length and move indexes, and its PDN when u asks for it.
func NewGameResult(u *Unit, rec *engine.Game, outcome engine.Outcome) GameResult {
	gr := GameResult{Outcome: engine.Result{Outcome: outcome}.PDN(), Plies: rec.Ply(), Pieces: PiecesLeft(rec), Moves: MoveIndexes(rec)}
	if u.PDN {
		gr.PDN = Record(rec, outcome)
	}
	return gr
}

// PiecesLeft counts the pieces black and white have at the end of rec.
func PiecesLeft(rec *engine.Game) [2]int {
	end := rec.Current()
	return [2]int{bits.OnesCount64(end.Pieces[engine.Black]), bits.OnesCount64(end.Pieces[engine.White])}
}

// MoveIndexes returns the index of each move of rec among the legal moves
// of its position, in engine.Position.Generate's order.
func MoveIndexes(rec *engine.Game) []byte {
	positions, moves := rec.Positions(), rec.Moves()
	out := make([]byte, len(moves))
	var l engine.MoveList
	for k := range moves {
		positions[k].Generate(&l)
		for j := range l.N {
			if l.Moves[j] == moves[k] {
				out[k] = byte(j)
				break
			}
		}
	}
	return out
}

// Replay plays move indexes (GameResult.Moves) from start and returns the
// game, or an error at the first index that is not a legal move.
func Replay(start engine.Position, idx []byte) (*engine.Game, error) {
	g := engine.NewGame(start)
	g.Grow(len(idx))
	for k, i := range idx {
		if _, err := g.PlayIndex(int(i)); err != nil {
			return nil, fmt.Errorf("move %d: %w", k+1, err)
		}
	}
	return g, nil
}

// Validate checks result r against unit u by replaying every game with the
// rules: the game must start from the unit's opening, every move must be
// legal, the game must not go on past its end (a position the rules or the
// unit's draw conditions end), and the outcome and length must be those of
// the replayed game. It returns an error naming the first thing wrong. It
// cannot tell whether the moves are the ones the players would have chosen:
// a result it accepts is a legal game with its true result.
func Validate(u *Unit, r *Result) error {
	if r.ID != u.ID {
		return fmt.Errorf("result %q is not for unit %q", r.ID, u.ID)
	}
	if len(r.Games) != len(u.Games) {
		return fmt.Errorf("unit %s: %d game results for %d games", u.ID, len(r.Games), len(u.Games))
	}
	for i := range u.Games {
		if err := validateGame(u, &u.Games[i], &r.Games[i]); err != nil {
			return fmt.Errorf("unit %s game %d: %w", u.ID, i, err)
		}
	}
	return nil
}

func validateGame(u *Unit, g *Game, gr *GameResult) error {
	start, err := g.Position()
	if err != nil {
		return err
	}
	var rec *engine.Game
	if u.PDN && gr.PDN == "" {
		return fmt.Errorf("no PDN, which the unit asks for")
	}
	if len(gr.Moves) > 0 || gr.PDN == "" {
		// The fast replay: the indexes give the moves, and the PDN, when
		// there is one, must be the replayed game's.
		if rec, err = Replay(start, gr.Moves); err != nil {
			return err
		}
		if gr.PDN != "" && Record(rec, engine.OutcomeOfPDN(gr.Outcome)) != gr.PDN {
			return fmt.Errorf("the PDN is not the game its moves play (or its Result tag is not %s)", gr.Outcome)
		}
	} else {
		games, err := pdn.Read(strings.NewReader(gr.PDN), "result")
		if err != nil {
			return fmt.Errorf("PDN: %w", err)
		}
		if len(games) != 1 {
			return fmt.Errorf("PDN holds %d games, want 1", len(games))
		}
		if tag := games[0].Result(); tag != gr.Outcome {
			return fmt.Errorf("result says %s, the PDN's Result tag %s", gr.Outcome, tag)
		}
		rec = games[0].Record
	}
	if s := rec.Start(); !s.SameBoard(&start) {
		return fmt.Errorf("PDN starts from %s, the unit from %s", s.FEN(), start.FEN())
	}
	prelude, err := preludeOf(start, g.Prelude)
	if err != nil {
		return err
	}
	if rec.Ply() < len(prelude) {
		return fmt.Errorf("the game is shorter than its prelude")
	}
	for k := range prelude {
		if rec.Moves()[k] != prelude[k] {
			return fmt.Errorf("move %d is not the prelude's", k+1)
		}
	}
	if rec.Ply() != gr.Plies {
		return fmt.Errorf("result says %d plies, the PDN has %d", gr.Plies, rec.Ply())
	}
	positions := rec.Positions()
	// engine.Game took no move after the rules' end (rec came through
	// Game.Play): only the unit's own draw conditions are left to check
	// before the last position.
	db := dbPieces(u)
	for k := range len(positions) - 1 {
		if r := unitDraw(positions[:k+1], &u.Rules); r != engine.Ongoing {
			return fmt.Errorf("the game goes on after ply %d, where it had ended (%s)", k, engine.Result{Outcome: r}.PDN())
		}
		if inDB(&positions[k], db) {
			return fmt.Errorf("the game goes on after ply %d, where the %d-piece endgame database ends it", k, db)
		}
	}
	want := ended(positions, &u.Rules, db, gr.Outcome)
	if want == engine.Ongoing && u.Kind == KindMatch {
		// A match game may also end by a side's failure or by adjudication
		// on the engines' scores or claims, which a replay cannot see: the
		// result is taken as the worker gives it, if it says why.
		var err error
		if want, err = matchEnding(u.Match, gr); err != nil {
			return err
		}
	}
	if want == engine.Ongoing {
		return fmt.Errorf("the game stops at ply %d, where it is not over", rec.Ply())
	}
	if got := (engine.Result{Outcome: want}).PDN(); got != gr.Outcome {
		return fmt.Errorf("result says %s, the replayed game ends %s", gr.Outcome, got)
	}
	if got := PiecesLeft(rec); got != gr.Pieces {
		return fmt.Errorf("result says %v pieces left (black, white), the replayed game ends with %v", gr.Pieces, got)
	}
	if u.Kind == KindDatagen {
		if err := validateSamples(positions, len(prelude), want, gr.Samples); err != nil {
			return err
		}
	} else if len(gr.Samples) > 0 {
		return fmt.Errorf("samples in a game that was not asked for them")
	}
	if u.Positions {
		if len(gr.Positions) != len(positions) {
			return fmt.Errorf("%d positions for a game of %d", len(gr.Positions), len(positions))
		}
		for k := range positions {
			if gr.Positions[k] != positions[k].FEN() {
				return fmt.Errorf("position %d is not the game's", k)
			}
		}
	}
	return nil
}

// matchEnding returns the outcome of a match game that ended before the
// rules end it: a loss for the side at fault, or an adjudication when the
// match adjudicates.
func matchEnding(m *Match, gr *GameResult) (engine.Outcome, error) {
	if gr.Reason == "" {
		return engine.Ongoing, fmt.Errorf("the game stops where it is not over, and the result says not why")
	}
	switch gr.FaultBy {
	case "black":
		return engine.WhiteWins, nil
	case "white":
		return engine.BlackWins, nil
	case "":
	default:
		return engine.Ongoing, fmt.Errorf("fault by %q", gr.FaultBy)
	}
	if !m.AdjClaims && m.AdjMoves <= 0 {
		return engine.Ongoing, fmt.Errorf("the game stops where it is not over (%q), and the match does not adjudicate", gr.Reason)
	}
	if o := engine.OutcomeOfPDN(gr.Outcome); o != engine.Ongoing {
		return o, nil
	}
	return engine.Ongoing, fmt.Errorf("outcome %q", gr.Outcome)
}

// preludeOf returns the moves of a prelude from start.
func preludeOf(start engine.Position, prelude []string) ([]engine.Move, error) {
	g := engine.NewGame(start)
	var out []engine.Move
	for i, text := range prelude {
		m, err := g.PlayText(text)
		if err != nil {
			return nil, fmt.Errorf("prelude move %d %q: %w", i+1, text, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// validateSamples checks a datagen game's samples: exactly the quiet
// positions from ply from to the last but one, each labelled with the
// game's outcome for its side to move.
func validateSamples(positions []engine.Position, from int, outcome engine.Outcome, samples []Sample) error {
	k := 0
	for ply := from; ply < len(positions)-1; ply++ {
		p := &positions[ply]
		if !p.Quiet() {
			continue
		}
		if k >= len(samples) {
			return fmt.Errorf("%d samples, the game has more quiet positions", len(samples))
		}
		s := &samples[k]
		if s.FEN != p.FEN() {
			return fmt.Errorf("sample %d is not the game's quiet position at ply %d", k, ply)
		}
		if want := ResultFor(outcome, p.Side); s.Result != want {
			return fmt.Errorf("sample %d: result %d, the game gives %d", k, s.Result, want)
		}
		k++
	}
	if k != len(samples) {
		return fmt.Errorf("%d samples for %d quiet positions", len(samples), k)
	}
	return nil
}

// ResultFor returns a sample's result for side, the game having ended in
// outcome: 2 a win, 1 a draw, 0 a loss (train/positions' values).
func ResultFor(outcome engine.Outcome, side engine.Color) uint8 {
	switch outcome {
	case engine.WinFor(side):
		return 2
	case engine.WinFor(side.Opponent()):
		return 0
	}
	return 1
}

// ended returns how the game whose positions are given stands, in the
// order engine/play's loop judges it: the rules of checkers first, then
// the endgame database of db pieces (0: none), then the ply limit, then
// (after a move only) the draw conditions of the unit's rules. A replay
// has no database: where one ends the game, the outcome is claimed's, to
// be checked by whoever has the database (train/datagen does).
func ended(positions []engine.Position, r *Rules, db int, claimed string) engine.Outcome {
	if res := engine.ResultOf(positions); res.Outcome != engine.Ongoing {
		return res.Outcome
	}
	if inDB(&positions[len(positions)-1], db) {
		return engine.OutcomeOfPDN(claimed)
	}
	return unitDraw(positions, r)
}

// dbPieces returns the pieces of the endgame database that ends u's
// games, 0 when none does.
func dbPieces(u *Unit) int {
	if u.Kind != KindDatagen || u.Datagen == nil {
		return 0
	}
	return u.Datagen.DBPieces
}

// inDB reports whether p is within an endgame database of db pieces (0:
// none).
func inDB(p *engine.Position, db int) bool {
	return db > 0 && bits.OnesCount64(p.Occupied()) <= db
}

// unitDraw returns Draw when the last of positions is drawn by the unit's
// own conditions (length, quiet plies, plies without a capture).
func unitDraw(positions []engine.Position, r *Rules) engine.Outcome {
	ply := len(positions) - 1
	if r.MaxPlies > 0 && ply >= r.MaxPlies {
		return engine.Draw
	}
	if ply > 0 && (r.QuietDraw > 0 && quietPlies(positions) > r.QuietDraw ||
		r.CaptureDraw > 0 && pliesSinceCapture(positions) >= r.CaptureDraw) {
		return engine.Draw
	}
	return engine.Ongoing
}

// quietPlies counts the plies since the last capture or promotion (the
// rule train/evolve's adjudicator applies).
func quietPlies(positions []engine.Position) int {
	n := 0
	for i := len(positions) - 1; i > 0; i-- {
		a, b := &positions[i-1], &positions[i]
		if bits.OnesCount64(a.Occupied()) != bits.OnesCount64(b.Occupied()) || bits.OnesCount64(a.Kings) != bits.OnesCount64(b.Kings) {
			break
		}
		n++
	}
	return n
}

// pliesSinceCapture counts the plies since the last capture.
func pliesSinceCapture(positions []engine.Position) int {
	n := 0
	for i := len(positions) - 1; i > 0 && bits.OnesCount64(positions[i-1].Occupied()) == bits.OnesCount64(positions[i].Occupied()); i-- {
		n++
	}
	return n
}
