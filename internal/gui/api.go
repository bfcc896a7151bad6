package gui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/session"
)

// routes declares the page's API. Every request that changes something
// stops the search under way first, and answers the new state (or an
// error, the state unchanged).
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		v := s.viewLocked()
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, v)
	})
	mux.HandleFunc("POST /api/play", change(s, true, s.play))
	mux.HandleFunc("POST /api/undo", change(s, false, func(struct{}) error { return s.st.takeBack() }))
	mux.HandleFunc("POST /api/goto", change(s, true, s.goTo))
	mux.HandleFunc("POST /api/node", change(s, true, s.nodeAction))
	mux.HandleFunc("POST /api/new", change(s, true, s.newGame))
	mux.HandleFunc("POST /api/engine", change(s, true, s.setEngine))
	mux.HandleFunc("POST /api/go", change(s, true, s.goEngine))
	mux.HandleFunc("POST /api/analyse", change(s, false, s.analyse))
	mux.HandleFunc("POST /api/review", change(s, false, s.review))
	mux.HandleFunc("POST /api/movenow", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		ok := s.moveNowLocked()
		s.mu.Unlock()
		if !ok {
			writeError(w, http.StatusConflict, errors.New("the engine is not thinking over a move"))
			return
		}
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	})
	mux.HandleFunc("GET /api/ballots", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string][]string{"two": ballotNames(books.TwoMove()), "three": ballotNames(books.ThreeMove())})
	})
	mux.HandleFunc("GET /api/options", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		v := s.optionsLocked(nil)
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, v)
	})
	mux.HandleFunc("POST /api/options", mutate(s, true, s.setOption, func(_ stateView, notes []string) any { return s.optionsLocked(notes) }))
	mux.HandleFunc("POST /api/pdn", mutate(s, false, s.importPDN, func(v stateView, skipped []string) any {
		return importAnswer{v, skipped}
	}))
	mux.HandleFunc("POST /api/pdn/game", change(s, false, s.pickGame))
	mux.HandleFunc("GET /api/pdn", s.exportPDN)
}

// apiError is the body of every error answer.
type apiError struct {
	Error string `json:"error"`
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError answers err with status.
func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, apiError{Error: err.Error()})
}

// readBody reads a request body within its cap; the error for an
// oversized one says so, with status 413.
func readBody(r *http.Request) ([]byte, int, error) {
	data, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the request body is over %d KB", tooBig.Limit>>10)
	}
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("reading the request: %v", err)
	}
	return data, http.StatusOK, nil
}

// decodeJSON reads the body of r as one JSON value into v; an empty body
// leaves v as it is. Unknown fields are refused.
func decodeJSON(r *http.Request, v any) (int, error) {
	data, status, err := readBody(r)
	if err != nil {
		return status, err
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return http.StatusOK, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return http.StatusBadRequest, fmt.Errorf("bad request body: %v", err)
	}
	if dec.More() {
		return http.StatusBadRequest, errors.New("bad request body: more than one JSON value")
	}
	return http.StatusOK, nil
}

// pdnText is a request body read as text, not JSON: a PDN upload.
type pdnText string

// mutate makes the handler of a request that changes the game or the
// session: it reads a T from the body (JSON, or the text itself for a
// pdnText), stops the search under way and runs do. Whether do succeeds or
// not, it then starts what the state calls for (analysis when analysing;
// the engine's move only when wake is set, so that taking a move back
// does not start it). On success every page gets the new state, and the
// request's answer is answer(state, do's result), or the state when answer
// is nil; on an error the answer is the error, and do must have left the
// state as it was.
func mutate[T, R any](s *Server, wake bool, do func(T) (R, error), answer func(stateView, R) any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req T
		status, err := http.StatusOK, error(nil)
		if text, ok := any(&req).(*pdnText); ok {
			var data []byte
			data, status, err = readBody(r)
			*text = pdnText(data)
		} else {
			status, err = decodeJSON(r, &req)
		}
		if err != nil {
			writeError(w, status, err)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.stopLocked()
		res, err := do(req)
		if wake || s.st.analysing {
			s.afterChangeLocked()
		}
		if err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		v := s.viewLocked()
		s.hub.publish("state", v)
		if answer == nil {
			writeJSON(w, http.StatusOK, v)
			return
		}
		writeJSON(w, http.StatusOK, answer(v, res))
	}
}

// change is mutate for a change that answers the state.
func change[T any](s *Server, wake bool, do func(T) error) http.HandlerFunc {
	return mutate(s, wake, func(req T) (struct{}, error) { return struct{}{}, do(req) }, nil)
}

// playRequest is a line of moves to play from the position shown.
type playRequest struct {
	Moves []string `json:"moves"`
}

// play plays a line from the position shown; nothing is played when a move
// does not fit.
func (s *Server) play(req playRequest) error {
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
func (s *Server) goTo(req gotoRequest) error {
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
func (s *Server) newGame(req newRequest) error {
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
func (s *Server) setEngine(req engineRequest) error {
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
func (s *Server) goEngine(struct{}) error {
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
func (s *Server) analyse(req analyseRequest) error {
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
