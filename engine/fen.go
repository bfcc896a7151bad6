package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxPiecesPerSide is the most pieces one side can have.
const MaxPiecesPerSide = 12

// ParseFEN reads a PDN FEN such as "B:W21-32:B1-12". It accepts either colour
// first, squares in any order, ranges, a K before a king's square (also before
// a range), spaces around the separators and a trailing '.'. It refuses more
// than 12 pieces a side, squares outside 1..32, a square given twice and a man
// standing on its own crowning row, naming the problem.
func ParseFEN(s string) (Position, error) {
	var p Position
	text := strings.TrimSpace(s)
	text = strings.TrimSpace(strings.TrimSuffix(text, "."))
	if text == "" {
		return p, fmt.Errorf("fen: empty")
	}
	fields := strings.Split(text, ":")
	side := strings.TrimSpace(fields[0])
	switch strings.ToUpper(side) {
	case "B":
		p.Side = Black
	case "W":
		p.Side = White
	default:
		return p, fmt.Errorf("fen %q: side to move must be W or B, not %q", s, side)
	}
	seen := [2]bool{}
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			return p, fmt.Errorf("fen %q: empty field between ':'", s)
		}
		var c Color
		switch f[0] {
		case 'W', 'w':
			c = White
		case 'B', 'b':
			c = Black
		default:
			return p, fmt.Errorf("fen %q: piece list %q must start with W or B", s, f)
		}
		if seen[c] {
			return p, fmt.Errorf("fen %q: %s pieces given twice", s, c)
		}
		seen[c] = true
		if err := p.addFENPieces(c, f[1:]); err != nil {
			return p, fmt.Errorf("fen %q: %v", s, err)
		}
	}
	if len(fields) > 3 {
		return p, fmt.Errorf("fen %q: too many ':' fields", s)
	}
	p.Hash = p.ComputeHash()
	return p, nil
}

// addFENPieces adds one colour's comma-separated piece list.
func (p *Position) addFENPieces(c Color, list string) error {
	list = strings.TrimSpace(list)
	if list == "" {
		return nil
	}
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		king := false
		if item != "" && (item[0] == 'K' || item[0] == 'k') {
			king = true
			item = strings.TrimSpace(item[1:])
		}
		lo, hi, err := parseSquareRange(item)
		if err != nil {
			return fmt.Errorf("%s pieces: %v", c, err)
		}
		for sq := lo; sq <= hi; sq++ {
			b := SquareBit(sq)
			if p.Occupied()&b != 0 {
				return fmt.Errorf("square %d is given twice", sq)
			}
			if !king && crownRow[c]&b != 0 {
				return fmt.Errorf("%s man on square %d stands on its crowning row", c, sq)
			}
			p.Pieces[c] |= b
			if king {
				p.Kings |= b
			}
			if n := popcount(p.Pieces[c]); n > MaxPiecesPerSide {
				return fmt.Errorf("%s has %d pieces, more than %d", c, n, MaxPiecesPerSide)
			}
		}
	}
	return nil
}

// parseSquareRange reads "17" or "21-32" (a K may precede the second end).
func parseSquareRange(item string) (int, int, error) {
	if item == "" {
		return 0, 0, fmt.Errorf("empty square")
	}
	a, b, isRange := strings.Cut(item, "-")
	lo, err := parseSquare(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, err
	}
	if !isRange {
		return lo, lo, nil
	}
	b = strings.TrimLeft(strings.TrimSpace(b), "Kk")
	hi, err := parseSquare(b)
	if err != nil {
		return 0, 0, err
	}
	if hi < lo {
		return 0, 0, fmt.Errorf("range %q runs backwards", item)
	}
	return lo, hi, nil
}

func parseSquare(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || len(s) > 3 {
		return 0, fmt.Errorf("%q is not a square number", s)
	}
	if n < 1 || n > 32 {
		return 0, fmt.Errorf("square %d is outside 1..32", n)
	}
	return n, nil
}

// FEN writes p as PDN FEN: side to move, then White's pieces, then Black's,
// each in ascending square order with K before kings.
func (p *Position) FEN() string {
	var sb strings.Builder
	if p.Side == White {
		sb.WriteString("W")
	} else {
		sb.WriteString("B")
	}
	for _, c := range []Color{White, Black} {
		sb.WriteString(":")
		if c == White {
			sb.WriteString("W")
		} else {
			sb.WriteString("B")
		}
		first := true
		for sq := 1; sq <= 32; sq++ {
			b := SquareBit(sq)
			if p.Pieces[c]&b == 0 {
				continue
			}
			if !first {
				sb.WriteString(",")
			}
			first = false
			if p.Kings&b != 0 {
				sb.WriteString("K")
			}
			sb.WriteString(strconv.Itoa(sq))
		}
	}
	return sb.String()
}

// String returns the FEN.
func (p Position) String() string { return p.FEN() }
