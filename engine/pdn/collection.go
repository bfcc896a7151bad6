package pdn

import (
	"fmt"
	"io"
	"strings"

	"github.com/nechecb/nechecb/internal/fileio"
)

// Collection is what reading a PDN file game by game gave: the games read
// and the games left out, each with its reason. Collections found in the
// wild hold a few bad games (an illegal move, a comment glued to a move, a
// truncated last game); ReadCollection goes on past them.
type Collection struct {
	// File is the name the file was read under.
	File string
	// Games holds the games read, in the order of the file. Each keeps its
	// number in the file in Game.Number.
	Games []*Game
	// Skipped holds one error per game left out, naming the file, the line,
	// the game's number and the reason.
	Skipped []*Error
}

// ReadCollectionFile reads the PDN file at path game by game; see
// ReadCollection.
func ReadCollectionFile(path string, strict bool) (*Collection, error) {
	return fileio.ReadFile(path, func(r io.Reader, name string) (*Collection, error) {
		return ReadCollection(r, name, strict)
	})
}

// ReadCollection reads r game by game, as Read does, and goes on past a bad
// game: the game is left out and named in Skipped, and the reading resumes
// at the next game (a tag line after move text, or the text after a result
// token). With strict set the first bad game stops the reading with its
// *Error, and the collection holds the games read before it. The error
// returned otherwise is only a failure to read r.
func ReadCollection(r io.Reader, name string, strict bool) (*Collection, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	text := strings.TrimPrefix(string(data), "\uFEFF")
	c := &Collection{File: name}
	p := &parser{file: name}
	for _, ch := range splitGames(text) {
		p.s, p.pos, p.line = text[:ch.end], ch.start, ch.line
		for p.skipSpace(); !p.eof(); p.skipSpace() {
			p.game++
			g, err := p.readGame()
			if err != nil {
				pe := err.(*Error) // the parser's errors are all *Error
				if strict {
					return c, pe
				}
				c.Skipped = append(c.Skipped, pe)
				break
			}
			if g == nil { // comments alone: no game
				p.game--
				continue
			}
			g.Number = p.game
			c.Games = append(c.Games, g)
		}
	}
	return c, nil
}

// Summary says how the reading went: "N games read, M skipped", and how
// many games went on past a draw that nobody claimed.
func (c *Collection) Summary() string {
	s := fmt.Sprintf("%d games read, %d skipped", len(c.Games), len(c.Skipped))
	if n := len(c.UnclaimedDraws()); n > 0 {
		s += fmt.Sprintf(", %d played on past a draw nobody claimed", n)
	}
	return s
}

// UnclaimedDraws returns one line for each game read that went on past a
// threefold repetition or a 40-move draw (see engine.Game.PlayRecorded):
// where the game is and the move at which the draw could have been claimed.
func (c *Collection) UnclaimedDraws() []string {
	var notes []string
	for _, g := range c.Games {
		ply, draw, ok := g.Record.UnclaimedDraw()
		if !ok {
			continue
		}
		num, side := MoveNumber(g.Record.Start().Side, ply)
		notes = append(notes, fmt.Sprintf("%s: game %d: a %s could be claimed before move %d (%s); the game went on",
			c.File, g.Number, draw.Reason, num, side))
	}
	return notes
}

// Report writes one "skipped: ..." line per game left out, one "note: ..."
// line per game played on past an unclaimed draw, then the summary, each
// line after prefix.
func (c *Collection) Report(w io.Writer, prefix string) {
	for _, e := range c.Skipped {
		fmt.Fprintf(w, "%sskipped: %v\n", prefix, e)
	}
	for _, n := range c.UnclaimedDraws() {
		fmt.Fprintf(w, "%snote: %s\n", prefix, n)
	}
	fmt.Fprintf(w, "%s%s: %s\n", prefix, c.File, c.Summary())
}

// chunk is the text of one game (or of several, where a game ends at a tag
// not at the start of a line): text[start:end], starting on line line.
type chunk struct {
	start, end, line int
}

// splitGames cuts text where a game ends: before a '[' that starts a line
// after move text, and after a result token outside comments and
// variations. A reader that finds a game bad resumes at the next cut, so a
// bad game costs that game alone. A '{' with no '}' after it is text, so
// that an unclosed comment does not swallow the games after it.
func splitGames(text string) []chunk {
	var out []chunk
	cur := chunk{line: 1}
	line, depth, moves, lineStart := 1, 0, false, true
	cut := func(at int) {
		cur.end = at
		out = append(out, cur)
		cur = chunk{start: at, line: line}
		depth, moves = 0, false
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			line++
			lineStart = true
			i++
			continue
		case isSpace(c):
			i++
			continue
		case c == '[':
			if lineStart && moves {
				cut(i)
			}
			i = skipTagText(text, i)
		case c == '{' && strings.IndexByte(text[i:], '}') > 0:
			end := i + strings.IndexByte(text[i:], '}')
			line += strings.Count(text[i:end], "\n")
			i, moves = end+1, true
		case c == '(':
			i, depth, moves = i+1, depth+1, true
		case c == ')':
			i, depth, moves = i+1, depth-1, true
		default:
			j := i
			for j < len(text) && !isSpace(text[j]) && !strings.ContainsRune("{}()[]", rune(text[j])) {
				j++
			}
			if j == i {
				j++ // a stray '}' or ']'
			}
			word := text[i:j]
			i, moves = j, true
			if depth <= 0 && isResult(word) {
				cut(i)
			}
		}
		lineStart = false
	}
	cur.end = len(text)
	return append(out, cur)
}

// skipTagText returns the index after the tag that starts at text[i]: after
// its ']' outside quotes, or at the end of its line.
func skipTagText(text string, i int) int {
	quoted := false
	for i++; i < len(text) && text[i] != '\n'; i++ {
		switch {
		case text[i] == '\\' && quoted && i+1 < len(text) && text[i+1] != '\n':
			i++
		case text[i] == '"':
			quoted = !quoted
		case text[i] == ']' && !quoted:
			return i + 1
		}
	}
	return i
}
