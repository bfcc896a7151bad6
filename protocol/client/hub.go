package client

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/nechecb/nechecb/engine"
)

// HubPosition writes p in Hub's pos format: the side to move (W or B), then
// one character per square 1..32 (w, b, W, B or e).
func HubPosition(p *engine.Position) string {
	out := make([]byte, 0, 33)
	out = append(out, "BW"[p.Side])
	for sq := 1; sq <= 32; sq++ {
		out = append(out, "ebwBW"[p.PieceAt(sq)]) // in engine.Piece order
	}
	return string(out)
}

// ParseHubLine splits a Hub line into its command and key=value pairs; a
// value may be double-quoted to hold spaces. A key without '=' maps to "";
// a value with no key is dropped.
func ParseHubLine(line string) (string, map[string]string) {
	args := map[string]string{}
	cmd, rest := cutBlank(strings.TrimSpace(line))
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		eq := strings.IndexFunc(rest, func(r rune) bool { return r == '=' || unicode.IsSpace(r) })
		if eq < 0 || rest[eq] != '=' {
			var key string
			key, rest = cutBlank(rest)
			args[key] = ""
			continue
		}
		key, value := rest[:eq], rest[eq+1:]
		if strings.HasPrefix(value, `"`) {
			end := strings.IndexByte(value[1:], '"')
			if end < 0 {
				value, rest = value[1:], ""
			} else {
				value, rest = value[1:end+1], value[end+2:]
			}
		} else {
			value, rest = cutBlank(value)
		}
		if key != "" {
			args[key] = value
		}
	}
	return cmd, args
}

// cutBlank splits s at its first white space.
func cutBlank(s string) (before, after string) {
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// hubQuote quotes a value for a Hub command when it holds a space.
func hubQuote(v string) string {
	if strings.ContainsFunc(v, unicode.IsSpace) || v == "" {
		return `"` + strings.ReplaceAll(v, `"`, "'") + `"`
	}
	return v
}

// ParseMove reads a move an engine sent in dialect d. The UCI-like dialect
// uses PDN numeric or algebraic notation; Hub writes a capture as
// from x to x captured... (captured squares in any order), and also may send
// the full path.
func ParseMove(d Dialect, p *engine.Position, s string) (engine.Move, error) {
	if d == Hub && strings.Contains(s, "x") {
		if m, ok := hubCapture(p, s); ok {
			return m, nil
		}
	}
	return p.ParseMove(s)
}

// hubCapture matches "from x to x c1 x c2 ..." against the legal captures.
func hubCapture(p *engine.Position, s string) (engine.Move, bool) {
	parts := strings.Split(s, "x")
	if len(parts) < 3 {
		return engine.Move{}, false
	}
	sq := make([]int, len(parts))
	for i, t := range parts {
		n, err := strconv.Atoi(t)
		if err != nil || engine.SquareBit(n) == 0 {
			return engine.Move{}, false
		}
		sq[i] = n
	}
	var captured uint64
	for _, c := range sq[2:] {
		captured |= engine.SquareBit(c)
	}
	for _, m := range p.LegalMoves() {
		if m.FromSquare() == sq[0] && m.ToSquare() == sq[1] && m.Captured == captured && int(m.Jumps) == len(sq)-2 {
			return m, true
		}
	}
	return engine.Move{}, false
}

// HubMove writes m the Hub way: from-to for a step, from x to x captured...
// (captured squares ascending) for a capture.
func HubMove(m engine.Move) string {
	if !m.IsCapture() {
		return fmt.Sprintf("%d-%d", m.FromSquare(), m.ToSquare())
	}
	parts := []string{strconv.Itoa(m.FromSquare()), strconv.Itoa(m.ToSquare())}
	for _, c := range engine.Squares(m.Captured) {
		parts = append(parts, strconv.Itoa(c))
	}
	return strings.Join(parts, "x")
}
