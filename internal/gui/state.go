package gui

import (
	"fmt"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/session"
)

// level is how long the engine thinks over its moves.
type level struct {
	// Kind is "movetime" (MoveTimeMs a move), "depth" (Depth plies) or
	// "clock" (ClockS seconds a side for the game, IncS more a move).
	Kind       string `json:"kind"`
	MoveTimeMs int    `json:"movetimeMs"`
	Depth      int    `json:"depth"`
	ClockS     int    `json:"clockS"`
	IncS       int    `json:"incS"`
}

// check refuses a level outside what the page offers, naming the field.
func (l level) check() error {
	switch {
	case l.Kind == "movetime" && (l.MoveTimeMs < 10 || l.MoveTimeMs > 3_600_000):
		return fmt.Errorf("level movetimeMs %d is outside 10..3600000", l.MoveTimeMs)
	case l.Kind == "depth" && (l.Depth < 1 || l.Depth > 64):
		return fmt.Errorf("level depth %d is outside 1..64", l.Depth)
	case l.Kind == "clock" && (l.ClockS < 1 || l.ClockS > 36_000 || l.IncS < 0 || l.IncS > 600):
		return fmt.Errorf("level clock %d s + %d s is outside 1..36000 s + 0..600 s", l.ClockS, l.IncS)
	case l.Kind != "movetime" && l.Kind != "depth" && l.Kind != "clock":
		return fmt.Errorf("level kind %q is not movetime, depth or clock", l.Kind)
	}
	return nil
}

// state is the game the server keeps for the page, and how it is played.
//
// The game is a tree of moves (tree.go): the main line and its side lines.
// game holds one line of it, from the start, which line[i] (the node after
// i moves) follows: the line shown, played on and analysed.
type state struct {
	game   *session.Game
	root   *node
	line   []*node
	lastID int // the id of the last node made
	cursor int // the ply shown, 0..game.Ply()
	// version counts the changes; a search result for an older version is
	// not played.
	version int
	// engineSide holds the sides the engine plays, by engine.Color.
	engineSide [2]bool
	analysing  bool
	reviewMs   int // the time a position of a game analysis
	level      level
	clock      [2]time.Duration // each side's time left under a clock level
	turnStart  time.Time        // when the side to move at the end began
	// timeLoss is set when a side's clock ran out.
	timeLoss *engine.Result
	// loaded is the PDN game last imported, whose tags an export keeps;
	// loadedMoves are its moves as read. coll is the collection it came
	// from and gameIndex its place there.
	loaded      *pdn.Game
	loadedMoves []engine.Move
	coll        *pdn.Collection
	gameIndex   int
}

// reset starts the state afresh: the standard start, the engine playing
// White at one second a move.
func (st *state) reset() {
	*st = state{level: level{Kind: "movetime", MoveTimeMs: 1000, Depth: 8, ClockS: 300, IncS: 2}}
	st.engineSide[engine.White] = true
	st.newGame(session.NewGame(engine.StartPosition()))
}

// newGame makes g the game, shown at its end, with the clocks reset.
func (st *state) newGame(g *session.Game) {
	st.game, st.cursor = g, g.Ply()
	st.plantTree(g)
	st.loaded, st.loadedMoves, st.timeLoss = nil, nil, nil
	st.resetClocks()
	st.version++
}

// resetClocks gives each side the level's time.
func (st *state) resetClocks() {
	base := time.Duration(st.level.ClockS) * time.Second
	st.clock = [2]time.Duration{base, base}
	st.turnStart = time.Now()
}

// shown returns the position shown and the positions before it.
func (st *state) shown() (engine.Position, []engine.Position) {
	p := st.game.Positions()
	return p[st.cursor], p[:st.cursor]
}

// atEnd reports whether the last position of the game is shown.
func (st *state) atEnd() bool { return st.cursor == st.game.Ply() }

// result judges the position shown: a loss on time at the end, else the
// rules.
func (st *state) result() engine.Result {
	if st.timeLoss != nil && st.atEnd() {
		return *st.timeLoss
	}
	return engine.ResultOf(st.game.Positions()[:st.cursor+1])
}

// parseLine reads moves, each in numeric or algebraic notation, from the
// position shown, without playing them. The error names the first move
// that does not fit.
func (st *state) parseLine(texts []string) ([]engine.Move, error) {
	if len(texts) == 0 {
		return nil, fmt.Errorf("no move given")
	}
	pos, hist := st.shown()
	positions := append(append([]engine.Position(nil), hist...), pos)
	moves := make([]engine.Move, 0, len(texts))
	for i, t := range texts {
		if r := engine.ResultOf(positions); r.Outcome != engine.Ongoing {
			return nil, fmt.Errorf("move %d %q: the game is over (%s)", i+1, t, r)
		}
		m, err := pos.ParseMove(t)
		if err != nil {
			return nil, fmt.Errorf("move %d: %v", i+1, err)
		}
		moves = append(moves, m)
		pos = pos.Play(m)
		positions = append(positions, pos)
	}
	return moves, nil
}

// playLine plays moves, checked by parseLine, from the position shown:
// a move the line goes on with steps forward, a move that starts a side
// line of the tree goes into it (and on along its main continuation), and
// any other move is new: it goes in the tree after the position shown, as
// a side line when other moves were played there, and the line ends with
// it. The clock of each mover of a new move runs down by the time it took.
func (st *state) playLine(moves []engine.Move) {
	for _, m := range moves {
		next := st.line[st.cursor].child(m)
		switch {
		case next == nil:
			st.cut()
			st.tickClock(st.game.Current().Side)
			if err := st.game.Play(m); err != nil {
				return // parseLine checked the move; nothing to undo
			}
			st.line = append(st.line, st.addNode(st.line[st.cursor], m))
			st.cursor++
		case !st.atEnd() && st.line[st.cursor+1] == next:
			st.cursor++
		default:
			st.setLine(extend(append(st.line[:st.cursor+1:st.cursor+1], next)), st.cursor+1)
		}
	}
	st.version++
}

// playEngine plays m, the engine's move, from the position shown, and ends
// the line with it, so that the game goes on from there even when the tree
// went on after it.
func (st *state) playEngine(m engine.Move) {
	st.playLine([]engine.Move{m})
	st.cut()
}

// tickClock runs side's clock down by the time since its turn began, adds
// the increment, and records a loss on time when it ran out. It does
// nothing without a clock level.
func (st *state) tickClock(side engine.Color) {
	now := time.Now()
	if st.level.Kind != "clock" {
		st.turnStart = now
		return
	}
	st.clock[side] -= now.Sub(st.turnStart)
	st.turnStart = now
	if st.clock[side] <= 0 {
		st.clock[side] = 0
		st.timeLoss = &engine.Result{Outcome: engine.WinFor(side.Opponent()), Reason: "time"}
		return
	}
	st.clock[side] += time.Duration(st.level.IncS) * time.Second
}

// takeBack takes back the move that reached the position shown, and the
// engine's move before it too, so that a player against the engine is to
// move again: they leave the tree, with all that followed them, and the
// line ends at the position before them.
func (st *state) takeBack() error {
	if st.cursor == 0 {
		return fmt.Errorf("no move to take back")
	}
	back := 1
	if mover := st.game.Positions()[st.cursor-1].Side; st.engineSide[mover] && !st.engineSide[mover.Opponent()] && st.cursor > 1 {
		back = 2
	}
	st.cursor -= back
	st.line[st.cursor+1].detach()
	st.cut()
	st.turnStart = time.Now()
	st.version++
	return nil
}

// engineToMove reports whether the engine plays the side to move at the
// end of the game, shown, and not over.
func (st *state) engineToMove() bool {
	return st.atEnd() && st.engineSide[st.game.Current().Side] && st.result().Outcome == engine.Ongoing
}
