package pdn

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/fileio"
)

// lineWidth is the width the move text is wrapped to.
const lineWidth = 79

// MoveNumber returns the PDN move number of ply i (0-based) of a game whose
// start position has side to move first, and the colour that plays it.
func MoveNumber(first engine.Color, i int) (int, engine.Color) {
	offset := 0
	if first == engine.White {
		offset = 1
	}
	side := engine.Color((int(first) + i) % 2)
	return (i+offset)/2 + 1, side
}

// Write writes g in PDN: the tag section, a blank line, the moves wrapped to
// 79 columns, each with its mark (Game.Marks), with the side lines in
// parentheses, and the result token, then a blank line. Captures are written short ("9x27") when no other
// legal move has the same start and end.
func Write(w io.Writer, g *Game) error {
	var b bytes.Buffer
	for _, t := range writtenTags(g) {
		fmt.Fprintf(&b, "[%s %s]\n", t.Name, quote(t.Value))
	}
	b.WriteByte('\n')
	lw := lineWriter{buf: &b}
	lw.comment(g.Comment(0))
	start := g.Record.Start()
	lw.line(start.Side, 0, start, g.Record.Moves(), g.Variations, g.Comment, g.Mark)
	lw.word(g.Result())
	b.WriteString("\n\n")
	_, err := w.Write(b.Bytes())
	return err
}

// line writes moves played from pos, the first of them ply ply0 of a game
// whose first mover is first, each with mark(i) glued to it (i counted
// from 1), followed by comment(i) and by the side lines that replace it,
// in parentheses. A move by White gets its number at the start of a line
// and after a comment or a side line.
func (lw *lineWriter) line(first engine.Color, ply0 int, pos engine.Position, moves []engine.Move, vars []Variation, comment, mark func(int) string) {
	numbered := true
	for i, m := range moves {
		num, side := MoveNumber(first, ply0+i)
		switch {
		case side == engine.Black:
			lw.word(strconv.Itoa(num) + ".")
		case numbered:
			lw.word(strconv.Itoa(num) + "...")
		}
		text := pos.Notation(m)
		if mark := mark(i + 1); validMark(mark) {
			text += mark
		}
		lw.word(text)
		c := comment(i + 1)
		lw.comment(c)
		numbered = c != ""
		for _, v := range vars {
			if v.Ply != i {
				continue
			}
			lw.open = true
			none := func(int) string { return "" }
			lw.line(first, ply0+i, pos, v.Moves, v.Variations, none, none)
			lw.close()
			numbered = true
		}
		pos = pos.Play(m)
	}
}

// WriteAll writes the games one after the other.
func WriteAll(w io.Writer, games []*Game) error {
	for _, g := range games {
		if err := Write(w, g); err != nil {
			return err
		}
	}
	return nil
}

// String returns the game in PDN.
func (g *Game) String() string {
	var b strings.Builder
	Write(&b, g) // a strings.Builder does not fail
	return b.String()
}

// WriteFile writes the games to path through a temporary file in the same
// directory renamed into place, so that a failure never leaves a half-written
// file behind.
func WriteFile(path string, games ...*Game) error {
	return fileio.WriteAtomicFunc(path, func(w io.Writer) error { return WriteAll(w, games) })
}

// writtenTags returns the tags in the order they are written: the standard
// tags (with defaults when missing), FEN when the start is not the standard
// position, GameType, then the game's other tags in their order. A Result
// that is not a result token is written as "*".
func writtenTags(g *Game) []Tag {
	out := make([]Tag, 0, len(g.Tags)+len(StandardTags)+2)
	for _, name := range StandardTags {
		v := g.Tag(name)
		if name == "Result" {
			v = g.Result()
			if !isResult(v) {
				v = "*"
			}
		}
		if v == "" && g.tagIndex(name) < 0 {
			v = defaultValue(name)
		}
		out = append(out, Tag{Name: name, Value: v})
	}
	start := g.Record.Start()
	std := engine.StartPosition()
	if !start.SameBoard(&std) {
		out = append(out, Tag{Name: "FEN", Value: start.FEN()})
	}
	out = append(out, Tag{Name: "GameType", Value: GameType})
	for _, t := range g.Tags {
		if !isStandard(t.Name) && !isDerived(t.Name) && validTagName(t.Name) {
			out = append(out, t)
		}
	}
	return out
}

func isStandard(name string) bool {
	for _, s := range StandardTags {
		if strings.EqualFold(s, name) {
			return true
		}
	}
	return false
}

// isDerived reports tags the writer computes itself.
func isDerived(name string) bool {
	return strings.EqualFold(name, "FEN") || strings.EqualFold(name, "GameType")
}

// validTagName reports whether name is letters, digits and '_'.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isTagNameByte(name[i]) {
			return false
		}
	}
	return true
}

func isTagNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// quote writes a tag value in double quotes, escaping '"' and '\'.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// lineWriter wraps words to lineWidth columns.
type lineWriter struct {
	buf *bytes.Buffer
	col int
	// open puts the '(' of a side line before the next word.
	open bool
}

func (lw *lineWriter) word(s string) {
	if lw.open {
		s, lw.open = "("+s, false
	}
	switch {
	case lw.col == 0:
	case lw.col+1+len(s) > lineWidth:
		lw.buf.WriteByte('\n')
		lw.col = 0
	default:
		lw.buf.WriteByte(' ')
		lw.col++
	}
	lw.buf.WriteString(s)
	lw.col += len(s)
}

// close ends a side line with ')', on the next line when this one is
// full.
func (lw *lineWriter) close() {
	if lw.open { // a side line without moves
		lw.word("")
	}
	if lw.col+1 > lineWidth {
		lw.buf.WriteByte('\n')
		lw.col = 0
	}
	lw.buf.WriteByte(')')
	lw.col++
}

// comment writes {text}, wrapping inside it at spaces. A '}' in the text,
// which would end the comment early, is written as ')'.
func (lw *lineWriter) comment(text string) {
	words := strings.Fields(strings.ReplaceAll(text, "}", ")"))
	if len(words) == 0 {
		return
	}
	words[0] = "{" + words[0]
	words[len(words)-1] += "}"
	for _, w := range words {
		lw.word(w)
	}
}
