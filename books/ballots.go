// Package books owns nechecb's opening material: the 2-move and 3-move
// ballots of English draughts, embedded in the binary (this file), and the
// engine's own opening book (book.go), its binary and text files
// (bookfile.go), how one is built from games or searches (build.go), the
// built-in book (default.go) and how a book is played from (play.go).
//
// The ballot files 2move_english.json and 3move_english.json are copied
// unchanged from pydraughts (MIT licence, Ioannis Pantidis). Each maps a
// ballot name such as "001 09-13 21-17 05-09" to the FEN it reaches; the
// "standard" list names the ballots played in engine matches and "lost" the
// ones that lose by force.
package books

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/nechecb/nechecb/engine"
)

//go:embed 2move_english.json
var twoMoveJSON []byte

//go:embed 3move_english.json
var threeMoveJSON []byte

// Ballot is one opening ballot.
type Ballot struct {
	// Name is the ballot's name, its number followed by its moves.
	Name string
	// Moves are the ballot's moves in numeric notation, as the name gives
	// them (captures may be written with '-').
	Moves []string
	// FEN is the position the moves reach.
	FEN string
	// Standard marks the ballots played in engine matches.
	Standard bool
	// Lost marks the ballots that lose by force for one side.
	Lost bool
}

type ballotFile struct {
	All      map[string]string `json:"all"`
	Standard []string          `json:"standard"`
	Lost     []string          `json:"lost"`
}

// TwoMove returns every 2-move ballot, sorted by name.
func TwoMove() []Ballot { return mustBallots(twoMoveJSON) }

// ThreeMove returns every 3-move ballot, sorted by name.
func ThreeMove() []Ballot { return mustBallots(threeMoveJSON) }

// Standard returns the ballots of set ("2move" or "3move") marked standard.
func Standard(set string) ([]Ballot, error) {
	var all []Ballot
	switch set {
	case "2move":
		all = TwoMove()
	case "3move":
		all = ThreeMove()
	default:
		return nil, fmt.Errorf("unknown ballot set %q (want 2move or 3move)", set)
	}
	var out []Ballot
	for _, b := range all {
		if b.Standard {
			out = append(out, b)
		}
	}
	return out, nil
}

// mustBallots decodes an embedded ballot file; the files are part of the
// binary, so a decoding error is a build defect and panics.
func mustBallots(data []byte) []Ballot {
	out, err := parseBallots(data)
	if err != nil {
		panic("books: embedded ballot file: " + err.Error())
	}
	return out
}

func parseBallots(data []byte) ([]Ballot, error) {
	var f ballotFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	standard := map[string]bool{}
	for _, n := range f.Standard {
		standard[n] = true
	}
	lost := map[string]bool{}
	for _, n := range f.Lost {
		lost[n] = true
	}
	out := make([]Ballot, 0, len(f.All))
	for name, fen := range f.All {
		fields := strings.Fields(name)
		if len(fields) < 2 {
			return nil, fmt.Errorf("ballot %q has no moves in its name", name)
		}
		out = append(out, Ballot{Name: name, Moves: fields[1:], FEN: fen, Standard: standard[name], Lost: lost[name]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Position reads the ballot's FEN.
func (b Ballot) Position() (engine.Position, error) {
	return engine.ParseFEN(b.FEN)
}

// Play plays the ballot's moves from the starting position and returns the
// game record, so a match can start from it with the moves known.
func (b Ballot) Play() (*engine.Game, error) {
	g := engine.NewGame(engine.StartPosition())
	for _, mv := range b.Moves {
		if _, err := g.PlayText(strings.TrimLeft(mv, "0")); err != nil {
			return nil, fmt.Errorf("ballot %q: %w", b.Name, err)
		}
	}
	return g, nil
}
