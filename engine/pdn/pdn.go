// Package pdn reads and writes English draughts games in PDN (Portable Draughts
// Notation) the way CheckerBoard writes them: a tag section ([Event], [Date],
// [Black], [White], [Result], [FEN] when the game does not start from the
// standard position, [GameType "21"], then any other tags in their order),
// followed by the moves in numeric notation with move numbers, comments in
// braces and the result token.
//
// The moves of a game are kept in an engine.Game, so every move read is
// checked against the legal moves of its position.
package pdn

import (
	"fmt"
	"strings"

	"github.com/nechecb/nechecb/engine"
)

// GameType is the PDN GameType value for English draughts.
const GameType = "21"

// Tag is one PDN tag pair such as [Event "Casual game"].
type Tag struct {
	Name, Value string
}

// StandardTags are the tags every written game carries, in the order they are
// written. A tag missing from a game is written with the value "?" ("*" for
// Result).
var StandardTags = []string{"Event", "Date", "Black", "White", "Result"}

// Results are the PDN result tokens, counted from Black's side: "1-0" Black
// won, "0-1" White won, "1/2-1/2" a draw, "*" unfinished.
var Results = []string{"1-0", "0-1", "1/2-1/2", "*"}

// Game is one game: its tags, its moves and the comments between them.
type Game struct {
	// Tags holds the tag pairs other than FEN and GameType, which are taken
	// from Record's start position and written by the writer. A game read
	// from a file has the standard tags first, in StandardTags order, then
	// the others in the order of the file.
	Tags []Tag
	// Record holds the start position and the moves.
	Record *engine.Game
	// Comments holds the comment after each ply: Comments[0] comes before the
	// first move, Comments[i] after move i. It may be shorter than the game;
	// a missing or empty entry is no comment. Whitespace runs in a comment
	// are written and read as one space.
	Comments []string
	// Marks holds the annotation mark glued to each move ("?", "??", "!",
	// "?!"...), indexed as Comments is: Marks[i] is move i's (i counted
	// from 1; Marks[0] is unused). It may be shorter than the game. The
	// writer writes a mark of one or two of '!' and '?' and no other; the
	// reader reads the marks of the main line back.
	Marks []string
	// Variations are the side lines of the game's moves, written after the
	// move each replaces, in parentheses (PDN's recursive annotation
	// variations), in their order. The reader reads them back, all but the
	// comments inside them, which a Variation has no place for.
	Variations []Variation
	// Number is the game's 1-based place in the file it was read from,
	// counting the games skipped as bad (0 for a game not read from a file).
	Number int
}

// Variation is a side line: moves played instead of the move at index Ply
// of the line it branches from (from the position before that move), with
// side lines of its own, their Ply counted in Moves. Its moves must be
// legal; the writer does not check them.
type Variation struct {
	Ply        int
	Moves      []engine.Move
	Variations []Variation
}

// New returns a game with the standard tags (values "?", Result "*") and an
// empty record starting from start.
func New(start engine.Position) *Game {
	g := &Game{Record: engine.NewGame(start)}
	for _, name := range StandardTags {
		g.SetTag(name, defaultValue(name))
	}
	return g
}

// FromRecord wraps a record, with the standard tags and the result the rules
// give the record ("*" while it is not over).
func FromRecord(rec *engine.Game) *Game {
	g := New(rec.Start())
	g.Record = rec
	g.SetTag("Result", rec.Result().PDN())
	return g
}

func defaultValue(name string) string {
	if name == "Result" {
		return "*"
	}
	return "?"
}

// Tag returns the value of the named tag (names compare without regard to
// case), or "" if the game does not have it.
func (g *Game) Tag(name string) string {
	if i := g.tagIndex(name); i >= 0 {
		return g.Tags[i].Value
	}
	return ""
}

// SetTag sets the named tag, adding it at the end if the game does not have it.
func (g *Game) SetTag(name, value string) {
	if i := g.tagIndex(name); i >= 0 {
		g.Tags[i].Value = value
		return
	}
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
}

func (g *Game) tagIndex(name string) int {
	for i, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			return i
		}
	}
	return -1
}

// Result returns the game's result token: the Result tag, or "*" when there is
// none.
func (g *Game) Result() string {
	if r := g.Tag("Result"); r != "" {
		return r
	}
	return "*"
}

// Comment returns the comment after ply moves (0: before the first move).
func (g *Game) Comment(ply int) string { return entry(g.Comments, ply) }

// SetComment sets the comment after ply moves (0: before the first move),
// growing Comments as needed. Whitespace runs become single spaces.
func (g *Game) SetComment(ply int, text string) { setEntry(&g.Comments, ply, normalizeComment(text)) }

// Mark returns the mark of move ply (counted from 1), "" if it has none.
func (g *Game) Mark(ply int) string {
	if ply < 1 {
		return ""
	}
	return entry(g.Marks, ply)
}

// SetMark sets the mark of move ply (counted from 1), growing Marks as
// needed.
func (g *Game) SetMark(ply int, mark string) {
	if ply >= 1 {
		setEntry(&g.Marks, ply, mark)
	}
}

// entry returns list[i], or "" when i is outside list.
func entry(list []string, i int) string {
	if i < 0 || i >= len(list) {
		return ""
	}
	return list[i]
}

// setEntry sets (*list)[i] to v, growing the list with empty entries as
// needed; a negative i sets nothing.
func setEntry(list *[]string, i int, v string) {
	if i < 0 {
		return
	}
	for len(*list) <= i {
		*list = append(*list, "")
	}
	(*list)[i] = v
}

// validMark reports whether the writer writes mark: one or two of '!'
// and '?'.
func validMark(mark string) bool {
	return len(mark) >= 1 && len(mark) <= 2 && strings.Trim(mark, "!?") == ""
}

// normalizeComment turns whitespace runs into single spaces and trims the ends.
func normalizeComment(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// isResult reports whether s is a PDN result token.
func isResult(s string) bool {
	for _, r := range Results {
		if s == r {
			return true
		}
	}
	return false
}

// Error is a problem found while reading a PDN file.
type Error struct {
	// File is the name given to Read (the path, for ReadFile).
	File string
	// Game is the 1-based number of the game in the file.
	Game int
	// Line is the 1-based line where the problem is.
	Line int
	// MoveNumber is the PDN move number of a bad move (0 when the problem is
	// not a move); Side is the colour that was to play it.
	MoveNumber int
	Side       engine.Color
	// Move is the text of a bad move.
	Move string
	// Err says what was wrong.
	Err error
}

// Error implements error: "FILE:LINE: game N: ..." ("pdn: game N, line
// LINE: ..." when no file name was given), then the move and what was wrong.
func (e *Error) Error() string {
	where := fmt.Sprintf("pdn: game %d, line %d", e.Game, e.Line)
	if e.File != "" {
		where = fmt.Sprintf("%s:%d: game %d", e.File, e.Line, e.Game)
	}
	if e.Move != "" {
		return fmt.Sprintf("%s: move %d (%s) %q: %v", where, e.MoveNumber, e.Side, e.Move, e.Err)
	}
	return fmt.Sprintf("%s: %v", where, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
