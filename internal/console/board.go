package console

import (
	"fmt"
	"strings"

	"github.com/nechecb/nechecb/engine"
)

// Style says how the board is drawn.
type Style struct {
	// ASCII draws pieces as b, B (king), w, W instead of Unicode draughts.
	ASCII bool
	// Flip shows the board from Black's side: rank 1 at the top, file h on
	// the left.
	Flip bool
	// Color adds ANSI colours.
	Color bool
}

// glyphs for each piece, ASCII and Unicode, and for an empty dark square.
var (
	asciiGlyphs   = map[engine.Piece]string{engine.Empty: ".", engine.BlackMan: "b", engine.BlackKing: "B", engine.WhiteMan: "w", engine.WhiteKing: "W"}
	unicodeGlyphs = map[engine.Piece]string{engine.Empty: "·", engine.BlackMan: "⛂", engine.BlackKing: "⛃", engine.WhiteMan: "⛀", engine.WhiteKing: "⛁"}
)

// ANSI colour sequences used when Style.Color is set.
const (
	ansiReset = "\x1b[0m"
	ansiBlack = "\x1b[1;31m" // black pieces in bold red, visible on dark and light terminals
	ansiWhite = "\x1b[1;37m"
	ansiMark  = "\x1b[33m"
	ansiDim   = "\x1b[2m"
)

// DrawBoard draws pos as an 8x8 diagram with file and rank labels. The
// squares of last (when non-nil) are marked with brackets: its start, its
// landing squares and its end.
func DrawBoard(pos *engine.Position, last *engine.Move, st Style) string {
	marked := map[int]bool{}
	if last != nil {
		var buf [16]int
		for _, sq := range last.PathSquares(buf[:0]) {
			marked[sq] = true
		}
	}
	glyphs := unicodeGlyphs
	if st.ASCII {
		glyphs = asciiGlyphs
	}
	files := "    a  b  c  d  e  f  g  h"
	if st.Flip {
		files = "    h  g  f  e  d  c  b  a"
	}
	var b strings.Builder
	b.WriteString(files + "\n")
	for r := 0; r < 8; r++ {
		row := r
		if st.Flip {
			row = 7 - r
		}
		rank := 8 - row
		fmt.Fprintf(&b, " %d ", rank)
		for c := 0; c < 8; c++ {
			col := c
			if st.Flip {
				col = 7 - c
			}
			sq := engine.SquareAt(row, col)
			b.WriteString(cell(pos, sq, marked[sq], glyphs, st.Color))
		}
		fmt.Fprintf(&b, " %d\n", rank)
	}
	b.WriteString(files + "\n")
	return b.String()
}

// cell draws one square, three columns wide.
func cell(pos *engine.Position, sq int, marked bool, glyphs map[engine.Piece]string, color bool) string {
	if sq == 0 {
		return "   "
	}
	pc := pos.PieceAt(sq)
	g := glyphs[pc]
	if color {
		switch pc {
		case engine.BlackMan, engine.BlackKing:
			g = ansiBlack + g + ansiReset
		case engine.WhiteMan, engine.WhiteKing:
			g = ansiWhite + g + ansiReset
		default:
			g = ansiDim + g + ansiReset
		}
	}
	if !marked {
		return " " + g + " "
	}
	if color {
		return ansiMark + "[" + ansiReset + g + ansiMark + "]" + ansiReset
	}
	return "[" + g + "]"
}
