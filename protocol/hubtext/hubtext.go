// Package hubtext holds the text forms of the Hub dialect (PROTOCOL.md),
// shared by the engine's server and the match runner's client: the
// 33-character pos, moves written from x to x captured..., and command lines
// of key=value words.
package hubtext

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/nechecb/nechecb/engine"
)

// ParsePosition reads Hub's position: W or B for the side to move, then
// one of w b W B e for each square 1..32 in order.
func ParsePosition(text string) (engine.Position, error) {
	if len(text) != 33 {
		return engine.Position{}, fmt.Errorf("%q has %d characters, want 33 (W or B, then one of w b W B e per square)", text, len(text))
	}
	var white, black []string
	for i := 1; i <= 32; i++ {
		sq := strconv.Itoa(i)
		switch text[i] {
		case 'w':
			white = append(white, sq)
		case 'W':
			white = append(white, "K"+sq)
		case 'b':
			black = append(black, sq)
		case 'B':
			black = append(black, "K"+sq)
		case 'e':
		default:
			return engine.Position{}, fmt.Errorf("square %d is %q, not one of w b W B e", i, text[i])
		}
	}
	if text[0] != 'W' && text[0] != 'B' {
		return engine.Position{}, fmt.Errorf("side to move is %q, not W or B", text[0])
	}
	fen := string(text[0]) + ":W" + strings.Join(white, ",") + ":B" + strings.Join(black, ",")
	return engine.ParseFEN(fen)
}

// Position writes p in Hub's format.
func Position(p *engine.Position) string {
	glyph := map[engine.Piece]byte{engine.Empty: 'e', engine.BlackMan: 'b', engine.WhiteMan: 'w', engine.BlackKing: 'B', engine.WhiteKing: 'W'}
	b := []byte{'B'}
	if p.Side == engine.White {
		b[0] = 'W'
	}
	for sq := 1; sq <= 32; sq++ {
		b = append(b, glyph[p.PieceAt(sq)])
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
