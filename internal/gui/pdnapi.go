package gui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/session"
)

// maxSkipped is how many skipped games an import names in its error.
const maxSkipped = 5

// importAnswer is the answer to a PDN import: the state, and the games
// left out, each with its reason.
type importAnswer struct {
	stateView
	Skipped []string `json:"skipped"`
}

// importPDN reads a PDN text (pasted or a file's) with the project's
// reader, which goes on past bad games, and shows the first game read from
// its start; the engine then plays neither side. It returns the games left
// out. A text with no good game is an error naming the games left out, and
// the game in hand stays.
func (s *app) importPDN(text pdnText) ([]string, error) {
	coll, err := pdn.ReadCollection(strings.NewReader(string(text)), "PDN", false)
	if err == nil && len(coll.Games) == 0 {
		err = noGameError(coll)
	}
	if err == nil {
		err = s.loadGame(coll, 0)
	}
	if err != nil {
		return nil, err
	}
	s.st.engineSide, s.st.analysing = [2]bool{}, false
	return skippedLines(coll), nil
}

// noGameError is the error for a PDN text that gave no game.
func noGameError(coll *pdn.Collection) error {
	lines := skippedLines(coll)
	if len(lines) == 0 {
		return errors.New("PDN: no game found in the text")
	}
	if len(lines) > maxSkipped {
		lines = append(lines[:maxSkipped], fmt.Sprintf("and %d more", len(lines)-maxSkipped))
	}
	return fmt.Errorf("PDN: no game could be read: %s", strings.Join(lines, "; "))
}

// skippedLines names the games a collection left out, with the reasons.
func skippedLines(coll *pdn.Collection) []string {
	lines := make([]string, 0, len(coll.Skipped))
	for _, e := range coll.Skipped {
		lines = append(lines, e.Error())
	}
	return lines
}

// loadGame makes a copy of game i of coll the game, its side lines in the
// tree, shown from its start; the collection's games stay as read.
func (s *app) loadGame(coll *pdn.Collection, i int) error {
	g := coll.Games[i]
	texts := make([]string, 0, g.Record.Ply())
	for _, m := range g.Record.Moves() {
		texts = append(texts, m.String())
	}
	game, err := session.ParseGame(g.Record.Start(), texts, (*engine.Position).ParseMove)
	if err != nil {
		return fmt.Errorf("game %d: %v", g.Number, err)
	}
	st := &s.st
	st.newGame(game)
	st.graft(st.line[1:], g.Variations)
	st.loaded, st.loadedMoves = g, append([]engine.Move(nil), g.Record.Moves()...)
	st.coll, st.cursor, st.gameIndex = coll, 0, i
	return nil
}

// pickRequest names a game of the imported collection, from 0.
type pickRequest struct {
	Index int `json:"index"`
}

// pickGame shows another game of the imported collection.
func (s *app) pickGame(req pickRequest) error {
	if s.st.coll == nil {
		return errors.New("no PDN collection is loaded")
	}
	if req.Index < 0 || req.Index >= len(s.st.coll.Games) {
		return fmt.Errorf("game %d is outside the collection's 0..%d", req.Index, len(s.st.coll.Games)-1)
	}
	return s.loadGame(s.st.coll, req.Index)
}

// collectionNames labels each game of an imported collection.
func collectionNames(coll *pdn.Collection) []string {
	if coll == nil {
		return nil
	}
	names := make([]string, len(coll.Games))
	for i, g := range coll.Games {
		names[i] = fmt.Sprintf("%d. %s - %s, %s %s", g.Number, g.Tag("Black"), g.Tag("White"), g.Tag("Event"), g.Result())
	}
	return names
}

// exportPDN answers the game as a PDN file: an imported game keeps its
// tags (and its result while its main line is as read); another names the
// players by who played.
func (s *app) exportPDN() reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	return reply{status: statusOK, body: []byte(s.gamePDNLocked()), filename: "nechecb-game.pdn"}
}

// gamePDNLocked writes the game in PDN: the main line, with the side
// lines in parentheses.
func (s *app) gamePDNLocked() string {
	st := &s.st
	g := st.mainGame()
	if st.loaded != nil {
		ruled := g.Tag("Result")
		for _, t := range st.loaded.Tags {
			g.SetTag(t.Name, t.Value)
		}
		if !sameMoves(st.loadedMoves, g.Record.Moves()) {
			g.SetTag("Result", ruled)
		}
		return g.String()
	}
	name := func(c engine.Color) string {
		if st.engineSide[c] {
			return "nechecb (" + s.sess.Engine().Evaluator() + ")"
		}
		return "player"
	}
	g.SetTag("Event", "nechecb gui")
	g.SetTag("Date", time.Now().Format("2006.01.02"))
	g.SetTag("Black", name(engine.Black))
	g.SetTag("White", name(engine.White))
	return g.String()
}

// sameMoves reports whether two move lists are equal.
func sameMoves(a, b []engine.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// optionView is one engine option for the settings panel, from the
// session's option table.
type optionView struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Value   string   `json:"value"`
	Default string   `json:"default"`
	Min     int      `json:"min"`
	Max     int      `json:"max"`
	Values  []string `json:"values,omitempty"`
	Help    string   `json:"help"`
}

// kindNames name the option kinds for the page.
var kindNames = map[session.Kind]string{session.Check: "check", session.Spin: "spin", session.Combo: "combo", session.String: "string"}

// optionsAnswer is the settings panel's content, with the remarks of the
// last change.
type optionsAnswer struct {
	Options []optionView `json:"options"`
	Notes   []string     `json:"notes,omitempty"`
}

// optionsLocked lists the session's announced options with their values.
func (s *app) optionsLocked(notes []string) optionsAnswer {
	a := optionsAnswer{Notes: notes}
	for _, o := range s.sess.Options() {
		if o.Hidden {
			continue
		}
		v, _ := s.sess.Get(o.Name)
		a.Options = append(a.Options, optionView{Name: o.Name, Kind: kindNames[o.Kind], Value: v, Default: o.Default,
			Min: o.Min, Max: o.Max, Values: o.Values, Help: o.Help})
	}
	return a
}

// optionRequest sets one option of the session.
type optionRequest struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// setOption puts an option's value in force through the session, under
// the rules of the protocol's setoption, and returns the setter's remarks;
// a value that does not take is an error naming the option, and the value
// in force stays. A new table size is mapped now (session.Session.Set),
// not on the next move's clock.
func (s *app) setOption(req optionRequest) ([]string, error) {
	if s.maxHashMB > 0 && strings.EqualFold(req.Name, "Hash") {
		if mb, err := strconv.Atoi(strings.TrimSpace(req.Value)); err == nil && mb > s.maxHashMB {
			return nil, fmt.Errorf("option Hash: %d MB is over this build's %d MB: a browser gives a page's WebAssembly at most 4 GB, and a phone far less", mb, s.maxHashMB)
		}
	}
	return s.sess.Set(req.Name, req.Value)
}
