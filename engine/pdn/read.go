package pdn

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nechecb/nechecb/internal/fileio"

	"github.com/nechecb/nechecb/engine"
)

// ReadFile reads every game in the PDN file at path; see Read.
func ReadFile(path string) ([]*Game, error) {
	return fileio.ReadFile(path, Read)
}

// Read reads every game in r, all or nothing; name is used in errors. It
// accepts tag pairs in any order (FEN sets the start position; GameType,
// when present, must be 21), comments in braces, variations in parentheses
// (read into Game.Variations, nested ones included; a comment or result
// token inside one is passed over), move numbers ("12." or "12..."),
// annotation marks ("!", "?", "$3"), result tokens and several games one
// after the other. Moves may be numeric ("11-15", "22x15", "9x18x27", the
// short "9x27", with '-' or 'x' for either kind) or algebraic ("c3d4").
// Every move, a side line's too, is checked against the legal moves of its
// position (a side line's starts from the position before the move it
// replaces, so a variation must follow a move); a repetition or 40-move
// draw that nobody claimed does not end a game (see
// engine.Game.PlayRecorded). A game with tags and no moves or result is an
// error (a truncated file). The first problem stops the reading with an
// *Error naming the file, the line, the game and, for a move, its number,
// side and text. The games read before the bad one are returned with the
// error. ReadCollection reads past bad games instead.
func Read(r io.Reader, name string) ([]*Game, error) {
	c, err := ReadCollection(r, name, true)
	if c == nil {
		return nil, err
	}
	return c.Games, err
}

// parser walks the text, counting lines.
type parser struct {
	s    string
	pos  int
	line int
	game int    // number of the game being read, from 1
	file string // the name given to Read, for errors
}

func (p *parser) eof() bool  { return p.pos >= len(p.s) }
func (p *parser) peek() byte { return p.s[p.pos] }

func (p *parser) next() byte {
	c := p.s[p.pos]
	p.pos++
	if c == '\n' {
		p.line++
	}
	return c
}

func (p *parser) skipSpace() {
	for !p.eof() && isSpace(p.peek()) {
		p.next()
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func (p *parser) errorf(format string, args ...any) *Error {
	return &Error{File: p.file, Game: p.game, Line: p.line, Err: fmt.Errorf(format, args...)}
}

// readGame reads one game: its tags, then its moves up to a result token, the
// next game's tags or the end of the text. Text with neither tags, moves nor
// a result (comments alone) is no game: nil and no error.
func (p *parser) readGame() (*Game, error) {
	var tags []Tag
	p.skipSpace()
	first := p.line
	for ; !p.eof() && p.peek() == '['; p.skipSpace() {
		t, err := p.readTag()
		if err != nil {
			return nil, err
		}
		for _, old := range tags {
			if strings.EqualFold(old.Name, t.Name) {
				return nil, p.errorf("tag %s given twice", t.Name)
			}
		}
		tags = append(tags, t)
	}
	g, err := p.gameFromTags(tags)
	if err != nil {
		return nil, err
	}
	ended, err := p.readMoves(g)
	if err == nil && !ended && g.Record.Ply() == 0 {
		if len(tags) == 0 {
			return nil, nil // comments alone, such as a file's heading
		}
		return nil, &Error{File: p.file, Game: p.game, Line: first, Err: errEmpty}
	}
	return g, err
}

// errEmpty is the reason given for a game with tags but neither moves nor a
// result, as the last game of a truncated file is.
var errEmpty = errors.New("the game has tags but no moves and no result (a truncated file?)")

// readTag reads [Name "value"].
func (p *parser) readTag() (Tag, error) {
	line := p.line
	p.next() // '['
	p.skipSpace()
	start := p.pos
	for !p.eof() && isTagNameByte(p.peek()) {
		p.next()
	}
	name := p.s[start:p.pos]
	if name == "" {
		return Tag{}, p.errorf("a tag needs a name after '['")
	}
	p.skipSpace()
	if p.eof() || p.peek() != '"' {
		return Tag{}, p.errorf("tag %s: the value must be in double quotes", name)
	}
	p.next()
	var v strings.Builder
	for {
		if p.eof() {
			return Tag{}, &Error{File: p.file, Game: p.game, Line: line, Err: fmt.Errorf("tag %s: the value's closing quote is missing", name)}
		}
		c := p.next()
		if c == '"' {
			break
		}
		if c == '\\' && !p.eof() {
			c = p.next()
		}
		v.WriteByte(c)
	}
	p.skipSpace()
	if p.eof() || p.peek() != ']' {
		return Tag{}, p.errorf("tag %s: ']' expected after the value", name)
	}
	p.next()
	return Tag{Name: name, Value: v.String()}, nil
}

// gameFromTags checks the tags and builds the game they describe: the start
// position from FEN, the standard tags first and the others in their order.
func (p *parser) gameFromTags(tags []Tag) (*Game, error) {
	start := engine.StartPosition()
	var others []Tag
	for _, t := range tags {
		switch {
		case strings.EqualFold(t.Name, "FEN"):
			pos, err := engine.ParseFEN(t.Value)
			if err != nil {
				return nil, p.errorf("FEN tag: %v", err)
			}
			start = pos
		case strings.EqualFold(t.Name, "GameType"):
			if kind, _, _ := strings.Cut(t.Value, ","); strings.TrimSpace(kind) != GameType {
				return nil, p.errorf("GameType %q is not English draughts (%s)", t.Value, GameType)
			}
		case strings.EqualFold(t.Name, "Result") && !isResult(t.Value):
			return nil, p.errorf("Result tag %q is not one of %s", t.Value, strings.Join(Results, ", "))
		case !isStandard(t.Name):
			others = append(others, t)
		}
	}
	g := New(start)
	for _, t := range tags {
		if isStandard(t.Name) {
			g.SetTag(t.Name, t.Value)
		}
	}
	g.Tags = append(g.Tags, others...)
	g.Comments = nil
	return g, nil
}

// readMoves reads the move text into g, its side lines included, and
// reports whether it ended with a result token.
func (p *parser) readMoves(g *Game) (bool, error) {
	hasResultTag := false
	for _, t := range g.Tags {
		hasResultTag = hasResultTag || strings.EqualFold(t.Name, "Result") && t.Value != "*"
	}
	main := &line{rec: g.Record, first: g.Record.Start().Side, game: g}
	result, err := p.readLine(main)
	g.Variations = main.vars
	if err != nil || result == "" {
		return false, err
	}
	if !hasResultTag {
		g.SetTag("Result", result)
	}
	return true, nil
}

// maxDepth is how deep side lines may nest: a side line of a side line
// is at depth 2.
const maxDepth = 100

// line is the game's main line or one of its side lines, as it is read.
type line struct {
	// rec holds the line's moves, played from the position where it
	// starts: the game's start for the main line, the position before the
	// move it replaces for a side line.
	rec *engine.Game
	// ply0 is the number of plies of the game before rec's start, and
	// first the game's first mover, for the move numbers in errors.
	ply0  int
	first engine.Color
	// vars holds the side lines of the line's moves read so far.
	vars []Variation
	// game is the game for the main line, whose comments it takes; nil for
	// a side line, whose comments are dropped (Variation has none).
	game *Game
	// open is the text line of a side line's '(', and depth how deep it
	// nests (0 for the main line).
	open, depth int
}

// readLine reads the moves of l up to its end: for the main line the end
// of the text, the next game's tags or a result token, which it returns;
// for a side line its ')'. A result token inside a side line is passed
// over.
func (p *parser) readLine(l *line) (string, error) {
	for {
		p.skipSpace()
		if p.eof() || p.peek() == '[' {
			if l.game == nil {
				return "", &Error{File: p.file, Game: p.game, Line: l.open, Err: errors.New("variation '(' is never closed")}
			}
			return "", nil
		}
		switch c := p.peek(); {
		case c == '{':
			text, err := p.readComment()
			if err != nil {
				return "", err
			}
			if g := l.game; g != nil {
				ply := g.Record.Ply()
				g.SetComment(ply, g.Comment(ply)+" "+text)
			}
			continue
		case c == '(':
			if err := p.readVariation(l); err != nil {
				return "", err
			}
			continue
		case c == ')' && l.game == nil:
			p.next()
			return "", nil
		case c == ')' || c == '}' || c == ']':
			return "", p.errorf("unexpected %q", c)
		}
		at := p.line
		word := p.readWord()
		if isResult(word) {
			if l.game == nil {
				continue
			}
			return word, nil
		}
		move := moveText(word)
		if move == "" {
			continue
		}
		if err := playMove(l.rec, move); err != nil {
			return "", l.moveError(p, at, move, err)
		}
		if mark := word[len(strings.TrimRight(word, "!?")):]; mark != "" && l.game != nil {
			l.game.SetMark(l.rec.Ply(), mark)
		}
	}
}

// moveError is the error for move, read on text line at, that could not
// be played in l.
func (l *line) moveError(p *parser, at int, move string, err error) *Error {
	num, side := MoveNumber(l.first, l.ply0+l.rec.Ply())
	if l.game == nil {
		err = fmt.Errorf("in the side line opened on line %d: %w", l.open, err)
	}
	return &Error{File: p.file, Game: p.game, Line: at, MoveNumber: num, Side: side, Move: move, Err: err}
}

// readVariation reads a side line in parentheses that replaces the last
// move read in l, with the side lines nested in it, and adds it to l's.
func (p *parser) readVariation(l *line) error {
	ply := l.rec.Ply() - 1
	switch {
	case ply < 0:
		return p.errorf("a variation '(' must follow the move it replaces")
	case l.depth >= maxDepth:
		return p.errorf("variations nest more than %d deep", maxDepth)
	}
	v := &line{rec: engine.NewGame(l.rec.Positions()[ply]), ply0: l.ply0 + ply, first: l.first,
		open: p.line, depth: l.depth + 1}
	p.next() // '('
	if _, err := p.readLine(v); err != nil {
		return err
	}
	l.vars = append(l.vars, Variation{Ply: ply, Moves: v.rec.Moves(), Variations: v.vars})
	return nil
}

// playMove parses move in the current position of rec and plays it.
func playMove(rec *engine.Game, move string) error {
	c := move[0]
	if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'h' || c >= 'A' && c <= 'H') {
		return errors.New("not a move")
	}
	_, err := rec.PlayRecorded(move)
	return err
}

// readWord reads up to the next space or bracket.
func (p *parser) readWord() string {
	start := p.pos
	for !p.eof() && !isSpace(p.peek()) && !strings.ContainsRune("{}()[]", rune(p.peek())) {
		p.next()
	}
	return p.s[start:p.pos]
}

// moveText strips a move number ("12.", "12...") and annotation marks ("!",
// "?") from a word, and returns "" for a word that holds no move: a bare
// number, dots or a numeric annotation glyph ("$3").
func moveText(word string) string {
	if strings.HasPrefix(word, "$") {
		return ""
	}
	i := 0
	for i < len(word) && word[i] >= '0' && word[i] <= '9' {
		i++
	}
	if i == len(word) {
		return "" // a move number written without a dot
	}
	if word[i] == '.' { // a move number, or dots alone
		for i < len(word) && word[i] == '.' {
			i++
		}
		word = word[i:]
	}
	return strings.TrimRight(word, "!?")
}

// readComment reads {text} and returns the text.
func (p *parser) readComment() (string, error) {
	line := p.line
	p.next() // '{'
	start := p.pos
	for !p.eof() && p.peek() != '}' {
		p.next()
	}
	if p.eof() {
		return "", &Error{File: p.file, Game: p.game, Line: line, Err: errors.New("comment '{' is never closed")}
	}
	text := p.s[start:p.pos]
	p.next()
	return text, nil
}
