package gui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/session"
)

// Status codes of the page's answers, as HTTP numbers them: the browser
// build's worker answers with them too.
const (
	statusOK         = 200
	statusBadRequest = 400
	statusNotFound   = 404
	statusConflict   = 409
	statusTooLarge   = 413
)

// reply is the answer to one request of the page, whatever carries it:
// a status, and a JSON body (or the text of a file to save, when
// filename is set).
type reply struct {
	status   int
	body     []byte
	filename string // a file for the page to save, e.g. the PDN export
}

// route answers one request of the page from its body.
type route func(body []byte) reply

// jsonReply answers v as JSON with status.
func jsonReply(status int, v any) reply {
	data, err := json.Marshal(v)
	if err != nil {
		return errorReply(statusBadRequest, fmt.Errorf("writing the answer: %v", err))
	}
	return reply{status: status, body: data}
}

// apiError is the body of every error answer.
type apiError struct {
	Error string `json:"error"`
}

// errorReply answers err with status.
func errorReply(status int, err error) reply {
	data, _ := json.Marshal(apiError{Error: err.Error()}) // a struct of one string always encodes
	return reply{status: status, body: data}
}

// routes declares the page's API, by "METHOD PATH" as http.ServeMux
// writes its patterns: the binary serves them over HTTP, the browser
// build's worker answers them as messages. Every request that changes
// something stops the search under way first, and answers the new state
// (or an error, the state unchanged).
func (s *app) routes() map[string]route {
	return map[string]route{
		"GET /api/state": func([]byte) reply {
			s.mu.Lock()
			defer s.mu.Unlock()
			return jsonReply(statusOK, s.viewLocked())
		},
		"POST /api/play":    change(s, true, s.play),
		"POST /api/undo":    change(s, false, func(struct{}) error { return s.st.takeBack() }),
		"POST /api/goto":    change(s, true, s.goTo),
		"POST /api/node":    change(s, true, s.nodeAction),
		"POST /api/new":     change(s, true, s.newGame),
		"POST /api/engine":  change(s, true, s.setEngine),
		"POST /api/go":      change(s, true, s.goEngine),
		"POST /api/analyse": change(s, false, s.analyse),
		"POST /api/review":  change(s, false, s.review),
		"POST /api/movenow": func([]byte) reply {
			s.mu.Lock()
			ok := s.moveNowLocked()
			s.mu.Unlock()
			if !ok {
				return errorReply(statusConflict, errors.New("the engine is not thinking over a move"))
			}
			return jsonReply(statusOK, map[string]bool{"ok": true})
		},
		"GET /api/ballots": func([]byte) reply {
			return jsonReply(statusOK, map[string][]string{"two": ballotNames(books.TwoMove()), "three": ballotNames(books.ThreeMove())})
		},
		"GET /api/options": func([]byte) reply {
			s.mu.Lock()
			defer s.mu.Unlock()
			return jsonReply(statusOK, s.optionsLocked(nil))
		},
		"POST /api/options": mutate(s, true, s.setOption, func(_ stateView, notes []string) any { return s.optionsLocked(notes) }),
		"POST /api/pdn": mutate(s, false, s.importPDN, func(v stateView, skipped []string) any {
			return importAnswer{v, skipped}
		}),
		"POST /api/pdn/game": change(s, false, s.pickGame),
		"GET /api/pdn":       func([]byte) reply { return s.exportPDN() },
	}
}

// decodeJSON reads data as one JSON value into v; an empty body leaves v
// as it is. Unknown fields are refused.
func decodeJSON(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("bad request body: %v", err)
	}
	if dec.More() {
		return errors.New("bad request body: more than one JSON value")
	}
	return nil
}

// pdnText is a request body read as text, not JSON: a PDN upload.
type pdnText string

// mutate makes the route of a request that changes the game or the
// session: it reads a T from the body (JSON, or the text itself for a
// pdnText), stops the search under way and runs do. Whether do succeeds or
// not, it then starts what the state calls for (analysis when analysing;
// the engine's move only when wake is set, so that taking a move back
// does not start it). On success every page gets the new state, and the
// request's answer is answer(state, do's result), or the state when answer
// is nil; on an error the answer is the error, and do must have left the
// state as it was.
func mutate[T, R any](s *app, wake bool, do func(T) (R, error), answer func(stateView, R) any) route {
	return func(body []byte) reply {
		var req T
		if text, ok := any(&req).(*pdnText); ok {
			*text = pdnText(body)
		} else if err := decodeJSON(body, &req); err != nil {
			return errorReply(statusBadRequest, err)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.stopLocked()
		res, err := do(req)
		if wake || s.st.analysing {
			s.afterChangeLocked()
		}
		if err != nil {
			return errorReply(statusBadRequest, err)
		}
		v := s.viewLocked()
		s.hub.publish("state", v)
		if answer == nil {
			return jsonReply(statusOK, v)
		}
		return jsonReply(statusOK, answer(v, res))
	}
}

// change is mutate for a change that answers the state.
func change[T any](s *app, wake bool, do func(T) error) route {
	return mutate(s, wake, func(req T) (struct{}, error) { return struct{}{}, do(req) }, nil)
}

// playRequest is a line of moves to play from the position shown.
type playRequest struct {
	Moves []string `json:"moves"`
}

// play plays a line from the position shown; nothing is played when a move
// does not fit.
func (s *app) play(req playRequest) error {
	moves, err := s.st.parseLine(req.Moves)
	if err != nil {
		return err
	}
	s.st.playLine(moves)
	return nil
}

// gotoRequest names the ply to show.
type gotoRequest struct {
	Ply int `json:"ply"`
}

// goTo shows the position after ply moves.
func (s *app) goTo(req gotoRequest) error {
	if req.Ply < 0 || req.Ply > s.st.game.Ply() {
		return fmt.Errorf("ply %d is outside the game's 0..%d", req.Ply, s.st.game.Ply())
	}
	s.st.cursor = req.Ply
	s.st.version++
	return nil
}

// newRequest starts a game: from FEN when given, else after the named
// ballot when given, else from the standard start.
type newRequest struct {
	FEN    string `json:"fen"`
	Ballot string `json:"ballot"`
}

// newGame starts the game newRequest describes.
func (s *app) newGame(req newRequest) error {
	g := session.NewGame(engine.StartPosition())
	switch {
	case req.FEN != "":
		pos, err := engine.ParseFEN(req.FEN)
		if err != nil {
			return fmt.Errorf("FEN %q: %v", req.FEN, err)
		}
		g = session.NewGame(pos)
	case req.Ballot != "":
		b, err := findBallot(req.Ballot)
		if err != nil {
			return err
		}
		rec, err := b.Play()
		if err != nil {
			return fmt.Errorf("ballot %q: %v", b.Name, err)
		}
		g = session.GameOf(rec)
	}
	s.st.coll = nil
	s.st.newGame(g)
	return nil
}

// engineRequest says which sides the engine plays, and how long it thinks.
type engineRequest struct {
	Black bool  `json:"black"`
	White bool  `json:"white"`
	Level level `json:"level"`
}

// setEngine sets the engine's sides and level; a changed level resets the
// clocks.
func (s *app) setEngine(req engineRequest) error {
	if err := req.Level.check(); err != nil {
		return err
	}
	st := &s.st
	if req.Level != st.level {
		st.level = req.Level
		st.resetClocks()
	}
	st.engineSide = [2]bool{req.Black, req.White}
	if req.Black || req.White {
		st.analysing = false
	}
	st.version++
	return nil
}

// goEngine makes the engine play the side to move in the position shown,
// and its opponent the user; the line ends there, and the moves after it
// stay in the tree.
func (s *app) goEngine(struct{}) error {
	st := &s.st
	if r := st.result(); r.Outcome != engine.Ongoing {
		return fmt.Errorf("the game is over: %s", r)
	}
	st.cut()
	side := st.game.Current().Side
	st.engineSide[side], st.engineSide[side.Opponent()] = true, false
	st.analysing = false
	st.turnStart = time.Now()
	st.version++
	return nil
}

// analyseRequest switches analysis on or off.
type analyseRequest struct {
	On bool `json:"on"`
}

// analyse switches the analysis of the position shown on (the engine then
// plays neither side) or off.
func (s *app) analyse(req analyseRequest) error {
	st := &s.st
	if req.On {
		if r := st.result(); r.Outcome != engine.Ongoing {
			return fmt.Errorf("the game is over: %s", r)
		}
		st.engineSide = [2]bool{}
	}
	st.analysing = req.On
	st.version++
	return nil
}

// ballotNames lists the names of ballots.
func ballotNames(list []books.Ballot) []string {
	names := make([]string, len(list))
	for i, b := range list {
		names[i] = b.Name
	}
	return names
}

// findBallot finds a 2- or 3-move ballot by its name, or by its number
// and moves without the number ("09-13 21-17 05-09").
func findBallot(name string) (books.Ballot, error) {
	name = strings.TrimSpace(name)
	for _, list := range [][]books.Ballot{books.TwoMove(), books.ThreeMove()} {
		for _, b := range list {
			if strings.EqualFold(b.Name, name) || strings.EqualFold(strings.Join(b.Moves, " "), name) {
				return b, nil
			}
		}
	}
	return books.Ballot{}, fmt.Errorf("no 2- or 3-move ballot is called %q", name)
}
