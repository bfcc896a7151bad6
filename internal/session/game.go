package session

import (
	"fmt"

	"github.com/nechecb/nechecb/engine"
)

// Game is the game a front end plays or analyses: its start position, the
// moves played from it and the positions they reached, judged by the rules
// (a side with no legal move loses; a threefold repetition or the 40-move
// rule draws). Every front end keeps its game in one: the protocol server
// the position its client set, CheckerBoard's plugin the host's game
// history, the console the game played at it.
//
// A game set up from a list of moves (ParseGame) or read from a PDN record
// (GameOf) may go on past a draw by the rules, since over the board, and in
// a GUI, a player must claim those draws; Play refuses a move once the
// game has ended.
type Game struct {
	rec *engine.Game
}

// MoveReader reads one move of the position p in some notation, as
// (*engine.Position).ParseMove does, and returns only legal moves.
type MoveReader func(p *engine.Position, text string) (engine.Move, error)

// NewGame starts a game from start.
func NewGame(start engine.Position) *Game { return &Game{rec: engine.NewGame(start)} }

// ParseGame sets a game up from start and the moves played from it, each
// read by read: the game a position command, or CheckerBoard's game
// history, describes. The moves may go on past a draw by the rules. The
// error for a move that does not fit names its number, from 1.
func ParseGame(start engine.Position, moves []string, read MoveReader) (*Game, error) {
	g := NewGame(start)
	g.rec.Grow(len(moves))
	for i, text := range moves {
		cur := g.Current()
		m, err := read(&cur, text)
		if err == nil {
			err = g.rec.PlayRecordedMove(m)
		}
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return g, nil
}

// GameOf makes rec, a game record such as one read from PDN, the game. The
// game and rec are then one: a move played or taken back changes both.
func GameOf(rec *engine.Game) *Game { return &Game{rec: rec} }

// Record returns the game's record, for writing it as PDN; it changes with
// the game.
func (g *Game) Record() *engine.Game { return g.rec }

// Start returns the start position.
func (g *Game) Start() engine.Position { return g.rec.Start() }

// Current returns the position to move from, the last one reached.
func (g *Game) Current() engine.Position { return g.rec.Current() }

// History returns the positions before the current one, oldest first: what
// a search needs to see repetitions. The slice must not be changed.
func (g *Game) History() []engine.Position {
	p := g.rec.Positions()
	return p[:len(p)-1]
}

// Positions returns every position of the game, the start first and the
// current one last. The slice must not be changed.
func (g *Game) Positions() []engine.Position { return g.rec.Positions() }

// Moves returns the moves played, in order. The slice must not be changed.
func (g *Game) Moves() []engine.Move { return g.rec.Moves() }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return g.rec.Ply() }

// Play checks m against the legal moves of the current position and plays
// it. A game that has ended by the rules takes no more moves.
func (g *Game) Play(m engine.Move) error { return g.rec.Play(m) }

// Undo takes the last move back, returning false when there is none.
func (g *Game) Undo() bool { return g.rec.Undo() }

// Result judges the current position by the rules.
func (g *Game) Result() engine.Result { return g.rec.Result() }

// ResultAfter judges the position that m, a legal move of the current
// position, would reach, without playing it.
func (g *Game) ResultAfter(m engine.Move) engine.Result {
	p := g.rec.Positions()
	cur := g.Current()
	return engine.ResultOf(append(p[:len(p):len(p)], cur.Play(m)))
}
