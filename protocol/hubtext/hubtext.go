// Package hubtext holds the text forms of the Hub dialect (PROTOCOL.md),
// shared by the engine's server and the match runner's client: the
// 33-character pos in its two layouts (pydraughts' and the literal one),
// moves written from x to x captured... in real English numbering, and
// command lines of key=value words.
package hubtext

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/nechecb/nechecb/engine"
)

// Layout says how the characters of a Hub pos stand for the squares of
// the board. Moves are in real English numbering in every layout.
type Layout int

const (
	// Pydraughts is the layout pydraughts writes for English draughts, the
	// default: its internal board, on which the first mover is called White
	// and starts on the high squares. Character k (1..32) after the side to
	// move stands for square 33-k, with the colours swapped: w and W are a
	// black man and king, b and B a white man and king; W to move means
	// Black to move. The start position is Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww.
	Pydraughts Layout = iota
	// Literal reads the characters as written: character k is square k,
	// w and W white, b and B black, B to move means Black. The start
	// position is Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww.
	Literal
)

// String returns the layout's name, as the HubPosLayout option spells it.
func (l Layout) String() string {
	if l == Literal {
		return "literal"
	}
	return "pydraughts"
}

// ParseLayout reads a layout's name (pydraughts or literal, in any case).
func ParseLayout(name string) (Layout, error) {
	switch strings.ToLower(name) {
	case "pydraughts":
		return Pydraughts, nil
	case "literal":
		return Literal, nil
	}
	return Pydraughts, fmt.Errorf("layout %q is not pydraughts or literal", name)
}

// square returns the board square that character k (1..32 after the side
// to move) of a pos stands for in layout l; since it is its own inverse, it
// also returns the character that stands for a square.
func (l Layout) square(k int) int {
	if l == Literal {
		return k
	}
	return 33 - k
}

// swapColour turns w into b, W into B and the other way round, for the
// pydraughts layout; other bytes stay.
func swapColour(c byte) byte {
	switch c {
	case 'w':
		return 'b'
	case 'b':
		return 'w'
	case 'W':
		return 'B'
	case 'B':
		return 'W'
	}
	return c
}

// ParsePosition reads a Hub position in layout l: W or B for the side to
// move, then one of w b W B e per square, 32 in all. An error names a bad
// character by its place in text (the side to move is character 1) and by
// the square it stands for. A man standing on its own crowning row, which
// no game can reach but a client's board editor can send, is crowned; its
// squares are returned so that the caller can say so.
func ParsePosition(text string, l Layout) (p engine.Position, crowned []int, err error) {
	if len(text) != 33 {
		return p, nil, fmt.Errorf("%q has %d characters, want 33 (W or B, then one of w b W B e per square)", text, len(text))
	}
	for k := 1; k <= 32; k++ {
		if !strings.ContainsRune("wbWBe", rune(text[k])) {
			return p, nil, fmt.Errorf("character %d (square %d in the %s layout) is %q, not one of w b W B e", k+1, l.square(k), l, text[k])
		}
	}
	var white, black []string
	for sq := 1; sq <= 32; sq++ {
		c := text[l.square(sq)] // square maps squares to characters too
		if l == Pydraughts {
			c = swapColour(c)
		}
		if (c == 'w' && sq <= 4) || (c == 'b' && sq >= 29) {
			c -= 'a' - 'A' // White men crown on 1-4, Black's on 29-32
			crowned = append(crowned, sq)
		}
		name := strconv.Itoa(sq)
		switch c {
		case 'w':
			white = append(white, name)
		case 'W':
			white = append(white, "K"+name)
		case 'b':
			black = append(black, name)
		case 'B':
			black = append(black, "K"+name)
		}
	}
	side := text[0]
	if side != 'W' && side != 'B' {
		return p, nil, fmt.Errorf("side to move is %q, not W or B", text[0])
	}
	if l == Pydraughts {
		side = swapColour(side)
	}
	fen := string(side) + ":W" + strings.Join(white, ",") + ":B" + strings.Join(black, ",")
	p, err = engine.ParseFEN(fen)
	if err != nil {
		return engine.Position{}, nil, fmt.Errorf("%s layout: %w", l, err)
	}
	return p, crowned, nil
}

// Position writes p as a Hub position in layout l.
func Position(p *engine.Position, l Layout) string {
	glyph := map[engine.Piece]byte{engine.Empty: 'e', engine.BlackMan: 'b', engine.WhiteMan: 'w', engine.BlackKing: 'B', engine.WhiteKing: 'W'}
	b := []byte{'B'}
	if p.Side == engine.White {
		b[0] = 'W'
	}
	for k := 1; k <= 32; k++ {
		b = append(b, glyph[p.PieceAt(l.square(k))])
	}
	if l == Pydraughts {
		for i := range b {
			b[i] = swapColour(b[i])
		}
	}
	return string(b)
}

// Args are the words of a Hub command after the command itself.
type Args struct {
	// Values holds the key=value pairs.
	Values map[string]string
	// Words holds the bare words, in order.
	Words []string
}

// ParseLine splits a Hub line into its command and arguments. A value in
// double quotes may hold blanks.
func ParseLine(line string) (string, Args, error) {
	args := Args{Values: map[string]string{}}
	cmd := ""
	rest := strings.TrimSpace(line)
	for rest != "" {
		end := strings.IndexAny(rest, " \t=")
		if end < 0 {
			end = len(rest)
		}
		key := rest[:end]
		rest = rest[end:]
		value, hasValue := "", strings.HasPrefix(rest, "=")
		if hasValue {
			rest = rest[1:]
			if strings.HasPrefix(rest, `"`) {
				close := strings.IndexByte(rest[1:], '"')
				if close < 0 {
					return "", args, fmt.Errorf("%s: unterminated quoted value", key)
				}
				value, rest = rest[1:close+1], rest[close+2:]
			} else {
				e := strings.IndexAny(rest, " \t")
				if e < 0 {
					e = len(rest)
				}
				value, rest = rest[:e], rest[e:]
			}
		}
		switch {
		case key == "":
			return "", args, errors.New(`"=" without a key`)
		case cmd == "" && hasValue:
			return "", args, fmt.Errorf("%q: a command comes first", key)
		case cmd == "":
			cmd = strings.ToLower(key)
		case hasValue:
			args.Values[key] = value
		default:
			args.Words = append(args.Words, key)
		}
		rest = strings.TrimLeft(rest, " \t")
	}
	return cmd, args, nil
}

// Quote writes a value in double quotes, turning any '"' into '\”.
func Quote(v string) string { return `"` + strings.ReplaceAll(v, `"`, "'") + `"` }

// Value writes a value, quoted only when it needs to be.
func Value(v string) string {
	if v == "" || strings.ContainsAny(v, "\"=") || strings.ContainsFunc(v, unicode.IsSpace) {
		return Quote(v)
	}
	return v
}

// Move writes m the Hub way: "11-15", or from x to x the captured
// squares in increasing order.
func Move(m engine.Move) string {
	if !m.IsCapture() {
		return fmt.Sprintf("%d-%d", m.FromSquare(), m.ToSquare())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%dx%d", m.FromSquare(), m.ToSquare())
	for _, sq := range engine.Squares(m.Captured) {
		fmt.Fprintf(&b, "x%d", sq)
	}
	return b.String()
}

// ParseMove reads a move in Hub's form (from x to x captured...), and
// failing that in any form engine.ParseMove reads.
func ParseMove(p *engine.Position, text string) (engine.Move, error) {
	parts := strings.FieldsFunc(text, func(r rune) bool { return r == 'x' || r == 'X' || r == '-' })
	if len(parts) >= 3 {
		sq := make([]int, len(parts))
		var captured uint64
		ok := true
		for i, part := range parts {
			n, err := strconv.Atoi(part)
			if err != nil || engine.SquareBit(n) == 0 {
				ok = false
				break
			}
			sq[i] = n
			if i >= 2 {
				captured |= engine.SquareBit(n)
			}
		}
		var l engine.MoveList
		p.Generate(&l)
		for _, m := range l.Slice() {
			if ok && m.FromSquare() == sq[0] && m.ToSquare() == sq[1] && m.Captured == captured {
				return m, nil
			}
		}
	}
	return p.ParseMove(text)
}
