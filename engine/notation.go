package engine

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

func popcount(b uint64) int { return bits.OnesCount64(b) }

// String writes the move in full-path numeric notation: "11-15" for a quiet
// move, "22x15" or "9x18x27" for a capture.
func (m Move) String() string {
	var buf [16]int
	return joinPath(m.PathSquares(buf[:0]), m.IsCapture(), strconv.Itoa)
}

// Algebraic writes the move in algebraic notation with the full path:
// "c3d4" for a quiet move, "c3xe5" or "c3xe5xc7" for a capture.
func (m Move) Algebraic() string {
	var buf [16]int
	path := m.PathSquares(buf[:0])
	if !m.IsCapture() {
		return SquareName(path[0]) + SquareName(path[1])
	}
	return joinPath(path, true, SquareName)
}

func joinPath(path []int, capture bool, name func(int) string) string {
	sep := "-"
	if capture {
		sep = "x"
	}
	parts := make([]string, len(path))
	for i, sq := range path {
		parts[i] = name(sq)
	}
	return strings.Join(parts, sep)
}

// SquareName returns the algebraic name of square sq: 29 is "a1", 1 is "b8".
func SquareName(sq int) string {
	if sq < 1 || sq > 32 {
		return "?"
	}
	row, col := SquareCoords(sq)
	return string(rune('a'+col)) + string(rune('1'+7-row))
}

// SquareCoords returns the row (0 = top, Black's side) and column (0 = file a)
// of square sq.
func SquareCoords(sq int) (row, col int) {
	row = (sq - 1) / 4
	col = 2 * ((sq - 1) % 4)
	if row%2 == 0 {
		col++
	}
	return row, col
}

// SquareAt returns the square number at row (0 = top) and column (0 = a), or
// 0 for a light square or one off the board.
func SquareAt(row, col int) int {
	if row < 0 || row > 7 || col < 0 || col > 7 || (row+col)%2 == 0 {
		return 0
	}
	return row*4 + col/2 + 1
}

// Notation writes m in numeric notation, shortened to "from x to" when no
// other legal move of p has the same start and end. Quiet moves and single
// jumps are always written in full.
func (p *Position) Notation(m Move) string {
	if m.Jumps <= 1 {
		return m.String()
	}
	var l MoveList
	p.Generate(&l)
	for _, o := range l.Slice() {
		if o.From == m.From && o.To == m.To && o != m {
			return m.String()
		}
	}
	return fmt.Sprintf("%dx%d", m.FromSquare(), m.ToSquare())
}

// MoveError is the error for a move that does not fit the position.
type MoveError struct {
	// Input is the text that was read.
	Input string
	// Problem says what was wrong: "illegal", "ambiguous" or "malformed".
	Problem string
	// Detail explains the problem.
	Detail string
	// Legal lists the legal moves of the position, full-path numeric.
	Legal []string
}

// Error implements error.
func (e *MoveError) Error() string {
	msg := fmt.Sprintf("%s move %q", e.Problem, e.Input)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if len(e.Legal) == 0 {
		return msg + "; there is no legal move"
	}
	return msg + "; legal moves: " + strings.Join(e.Legal, " ")
}

// LegalMoves returns the legal moves of p as a slice (it allocates).
func (p *Position) LegalMoves() []Move {
	var l MoveList
	p.Generate(&l)
	return append([]Move(nil), l.Slice()...)
}

// ParseMove reads a move in numeric or algebraic notation and checks it
// against the legal moves of p.
func (p *Position) ParseMove(s string) (Move, error) {
	t := strings.TrimSpace(s)
	if t != "" && t[0] >= 'a' && t[0] <= 'h' || t != "" && t[0] >= 'A' && t[0] <= 'H' {
		return p.ParseAlgebraic(s)
	}
	return p.ParseNumeric(s)
}

// ParseNumeric reads "11-15", "22x15", "9x18x27" or the short "9x27". The
// separator does not decide between a quiet move and a capture; the squares
// do. A path of two squares matches any legal move with that start and end;
// a longer path must match a capture's landing squares exactly.
func (p *Position) ParseNumeric(s string) (Move, error) {
	squares, err := splitSquares(s, func(tok string) (int, error) {
		if tok == "" || len(tok) > 2 {
			return 0, fmt.Errorf("%q is not a square number", tok)
		}
		return parseSquare(tok)
	})
	if err != nil {
		return Move{}, p.moveError(s, "malformed", err.Error())
	}
	return p.matchPath(s, squares)
}

// ParseAlgebraic reads "c3d4", "c3-d4", "c3xe5" or "c3xe5xc7". As with
// numeric moves, a start and an end alone are accepted when they fit exactly
// one move.
func (p *Position) ParseAlgebraic(s string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	var squares []int
	for len(t) > 0 {
		if t[0] == '-' || t[0] == 'x' || t[0] == ':' {
			if len(squares) == 0 {
				return Move{}, p.moveError(s, "malformed", "starts with a separator")
			}
			t = t[1:]
			continue
		}
		if len(t) < 2 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8' {
			return Move{}, p.moveError(s, "malformed", fmt.Sprintf("%q is not a square like c3", t))
		}
		sq := SquareAt(7-int(t[1]-'1'), int(t[0]-'a'))
		if sq == 0 {
			return Move{}, p.moveError(s, "malformed", t[:2]+" is a light square")
		}
		squares = append(squares, sq)
		t = t[2:]
	}
	if len(squares) < 2 {
		return Move{}, p.moveError(s, "malformed", "a move needs at least two squares")
	}
	return p.matchPath(s, squares)
}

// splitSquares splits numeric notation on '-', 'x' or 'X'.
func splitSquares(s string, parse func(string) (int, error)) ([]int, error) {
	t := strings.TrimSpace(s)
	toks := strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == 'x' || r == 'X' || r == ':' })
	if len(toks) < 2 {
		return nil, fmt.Errorf("a move needs at least two squares")
	}
	if strings.Count(t, "-")+strings.Count(t, "x")+strings.Count(t, "X")+strings.Count(t, ":") != len(toks)-1 {
		return nil, fmt.Errorf("stray separator")
	}
	out := make([]int, len(toks))
	for i, tok := range toks {
		n, err := parse(strings.TrimSpace(tok))
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// matchPath finds the legal move whose path fits squares.
func (p *Position) matchPath(input string, squares []int) (Move, error) {
	var l MoveList
	p.Generate(&l)
	var found []Move
	var buf [16]int
	for _, m := range l.Slice() {
		path := m.PathSquares(buf[:0])
		ok := false
		if len(squares) == 2 {
			ok = path[0] == squares[0] && path[len(path)-1] == squares[1]
		} else {
			ok = slices.Equal(path, squares)
		}
		if ok {
			found = append(found, m)
		}
	}
	switch {
	case len(found) == 0:
		return Move{}, p.moveError(input, "illegal", "")
	case len(found) > 1 && !sameResult(p, found):
		alts := make([]string, len(found))
		for i, m := range found {
			alts[i] = m.String()
		}
		return Move{}, p.moveError(input, "ambiguous", "it fits "+strings.Join(alts, ", "))
	}
	return found[0], nil
}

// sameResult reports whether all moves lead to the same position, as two
// paths round the same loop do; then any of them may be taken.
func sameResult(p *Position, moves []Move) bool {
	first := p.Play(moves[0])
	for _, m := range moves[1:] {
		q := p.Play(m)
		if !q.SameBoard(&first) {
			return false
		}
	}
	return true
}

func (p *Position) moveError(input, problem, detail string) *MoveError {
	e := &MoveError{Input: input, Problem: problem, Detail: detail}
	var l MoveList
	p.Generate(&l)
	for _, m := range l.Slice() {
		e.Legal = append(e.Legal, m.String())
	}
	return e
}
