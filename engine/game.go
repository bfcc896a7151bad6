package engine

import (
	"fmt"
	"slices"
)

// DrawPlies is the 40-move rule: 40 moves by each side, 80 plies, with no
// capture, no man move and no promotion make a draw.
const DrawPlies = 80

// Outcome is how a game stands.
type Outcome uint8

const (
	// Ongoing means the game is not over.
	Ongoing Outcome = iota
	// BlackWins means Black has won.
	BlackWins
	// WhiteWins means White has won.
	WhiteWins
	// Draw means the game is drawn.
	Draw
)

// Result is a game's outcome and why.
type Result struct {
	Outcome Outcome
	// Reason is a short phrase: "no legal move", "threefold repetition",
	// "40-move rule", or one given by the caller (adjudication, time...).
	Reason string
}

// PDN returns the PDN result token, counted from Black's side as PDN does for
// English draughts: "1-0" Black won, "0-1" White won, "1/2-1/2" a draw, "*"
// unfinished.
func (r Result) PDN() string {
	switch r.Outcome {
	case BlackWins:
		return "1-0"
	case WhiteWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// OutcomeOfPDN reads a PDN result token, the inverse of Result.PDN: "1-0",
// "0-1" and "1/2-1/2" give the finished outcomes, and any other token
// Ongoing.
func OutcomeOfPDN(token string) Outcome {
	switch token {
	case "1-0":
		return BlackWins
	case "0-1":
		return WhiteWins
	case "1/2-1/2":
		return Draw
	}
	return Ongoing
}

// String describes the result in words.
func (r Result) String() string {
	switch r.Outcome {
	case BlackWins:
		return "black wins (" + r.Reason + ")"
	case WhiteWins:
		return "white wins (" + r.Reason + ")"
	case Draw:
		return "draw (" + r.Reason + ")"
	}
	return "game in progress"
}

// WinFor returns the outcome in which c wins.
func WinFor(c Color) Outcome {
	if c == Black {
		return BlackWins
	}
	return WhiteWins
}

// Game is a game record: a start position, the moves played from it, and the
// positions they led to.
type Game struct {
	start     Position
	moves     []Move
	positions []Position // positions[i] is the position before moves[i]; the last is the current one
	// list is Play's and PlayIndex's scratch move list, kept so that a ply
	// does not clear 4 KB of a fresh one.
	list MoveList
}

// NewGame starts a record from start.
func NewGame(start Position) *Game {
	return &Game{start: start, positions: []Position{start}}
}

// Reset starts the record again from start, keeping its storage, so that a
// loop that plays many games with one Game allocates nothing per game.
// Slices returned earlier by Moves and Positions are overwritten.
func (g *Game) Reset(start Position) {
	g.start = start
	g.moves = g.moves[:0]
	g.positions = append(g.positions[:0], start)
}

// Start returns the start position.
func (g *Game) Start() Position { return g.start }

// Moves returns the moves played, in order. The slice must not be changed.
func (g *Game) Moves() []Move { return g.moves }

// Positions returns every position of the game, the start first and the
// current one last. The slice must not be changed.
func (g *Game) Positions() []Position { return g.positions }

// Current returns the position after the last move.
func (g *Game) Current() Position { return g.positions[len(g.positions)-1] }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return len(g.moves) }

// Play checks m against the legal moves of the current position and plays it.
// A finished game takes no more moves.
func (g *Game) Play(m Move) error { return g.play(m, false) }

// PlayRecordedMove plays m as PlayRecorded plays a move read from text: it
// checks m against the legal moves of the current position and goes on
// past a threefold repetition or the 40-move rule, but not from a position
// with no legal move.
func (g *Game) PlayRecordedMove(m Move) error { return g.play(m, true) }

// play is Play, or PlayRecordedMove when pastDraw is set.
func (g *Game) play(m Move, pastDraw bool) error {
	cur := g.Current()
	l := &g.list
	cur.Generate(l)
	// Only the lack of a legal move ends a recorded game.
	if l.N == 0 || !pastDraw {
		if err := g.over(&cur, l.N); err != nil {
			return err
		}
	}
	for _, legal := range l.Slice() {
		if legal == m {
			g.push(&cur, m)
			return nil
		}
	}
	return cur.moveError(m.String(), "illegal", "")
}

// PlayIndex plays the legal move at index i in the current position's
// Generate order (the form work units record games in) and returns it. A
// finished game takes no more moves.
func (g *Game) PlayIndex(i int) (Move, error) {
	cur := g.Current()
	l := &g.list
	cur.Generate(l)
	if err := g.over(&cur, l.N); err != nil {
		return Move{}, err
	}
	if i < 0 || i >= l.N {
		return Move{}, fmt.Errorf("index %d of %d legal moves: an illegal move", i, l.N)
	}
	g.push(&cur, l.Moves[i])
	return l.Moves[i], nil
}

// Grow makes room for n more moves, so that a caller that knows a game's
// length records it without reallocating.
func (g *Game) Grow(n int) {
	g.moves = slices.Grow(g.moves, n)
	g.positions = slices.Grow(g.positions, n)
}

// over returns an error when the game has ended at cur, its current
// position with legal moves: ResultOf's rules, with the caller's move
// count standing in for a second count (every ply of a game comes here).
func (g *Game) over(cur *Position, legal int) error {
	if legal == 0 || repetitions(g.positions) >= 3 || int(cur.Reversible) >= DrawPlies {
		return fmt.Errorf("the game is over: %s", g.Result())
	}
	return nil
}

// PlayText reads a move in numeric or algebraic notation and plays it. The
// reader only returns legal moves, so the move is not checked again. A
// finished game takes no more moves.
func (g *Game) PlayText(s string) (Move, error) { return g.playText(s, false) }

// PlayRecorded plays a move read from the record of a game played over the
// board, like PlayText except that a threefold repetition or the 40-move
// rule does not stop it: over the board those draws end a game only when a
// player claims them, and recorded games go on past them. UnclaimedDraw
// still finds the draw. A position with no legal move ends the game as in
// PlayText.
func (g *Game) PlayRecorded(s string) (Move, error) { return g.playText(s, true) }

func (g *Game) playText(s string, pastDraw bool) (Move, error) {
	if r := g.Result(); r.Outcome != Ongoing && !(pastDraw && r.Outcome == Draw) {
		return Move{}, fmt.Errorf("the game is over: %s", r)
	}
	cur := g.Current()
	m, err := cur.ParseMove(s)
	if err != nil {
		return Move{}, err
	}
	g.push(&cur, m)
	return m, nil
}

// UnclaimedDraw returns the first draw by threefold repetition or the
// 40-move rule that the game went on past (see PlayRecorded): the ply of
// the position where it could have been claimed, and the draw. ok is false
// when the game went on past none.
func (g *Game) UnclaimedDraw() (ply int, draw Result, ok bool) {
	for i := 1; i < len(g.positions)-1; i++ {
		if r := ResultOf(g.positions[:i+1]); r.Outcome == Draw {
			return i, r, true
		}
	}
	return 0, Result{}, false
}

// push records legal move m, played from cur, the current position.
func (g *Game) push(cur *Position, m Move) {
	g.moves = append(g.moves, m)
	g.positions = append(g.positions, cur.Play(m))
}

// Undo takes back the last move, returning false if there is none.
func (g *Game) Undo() bool {
	if len(g.moves) == 0 {
		return false
	}
	g.moves = g.moves[:len(g.moves)-1]
	g.positions = g.positions[:len(g.positions)-1]
	return true
}

// Repetitions returns how many times the current position (board and side to
// move) has occurred in the game, itself included.
func (g *Game) Repetitions() int { return repetitions(g.positions) }

// Result returns the game's result under the rules: a side with no legal move
// loses; threefold repetition and the 40-move rule draw.
func (g *Game) Result() Result { return ResultOf(g.positions) }

// repetitions counts the occurrences of the last of positions among them.
// Only positions since the last capture or man move can repeat it.
func repetitions(positions []Position) int {
	last := len(positions) - 1
	cur := &positions[last]
	n := 0
	// Only positions an even number of plies back have the same side to
	// move.
	for i := last; i >= 0 && i >= last-int(cur.Reversible); i -= 2 {
		if positions[i].Hash == cur.Hash && positions[i].SameBoard(cur) {
			n++
		}
	}
	return n
}

// ResultOf judges the last of positions, a game's positions in order (each
// reached from the one before by a legal move): a side with no legal move
// loses; the third occurrence of a position and the 40-move rule draw. It
// lets a caller that keeps its own list of positions, such as a protocol
// server that must accept moves after a draw, apply the same rules as Game.
func ResultOf(positions []Position) Result {
	if len(positions) == 0 {
		return Result{Outcome: Ongoing}
	}
	cur := &positions[len(positions)-1]
	switch {
	case cur.CountMoves() == 0:
		return Result{Outcome: WinFor(cur.Side.Opponent()), Reason: "no legal move"}
	case repetitions(positions) >= 3:
		return Result{Outcome: Draw, Reason: "threefold repetition"}
	case int(cur.Reversible) >= DrawPlies:
		return Result{Outcome: Draw, Reason: "40-move rule"}
	}
	return Result{Outcome: Ongoing}
}
