package gui

import (
	"fmt"
	"sync"

	"github.com/nechecb/nechecb/internal/session"
)

// app is the page's back end, whatever carries its requests: the engine
// session, the game and the search under way. The binary serves it over
// HTTP (Server); the browser build answers it in a Web Worker (worker_js.go).
type app struct {
	sess *session.Session
	hub  *hub
	api  map[string]route // routes()
	// build says what this build cannot offer, for the page (stateView.Build).
	build string
	// maxHashMB, when positive, caps the Hash option (the browser build).
	maxHashMB int

	mu     sync.Mutex // guards what follows, and the session
	st     state
	search *searchRun // the search under way, nil when none

	lines lines // the search's reports, with their own lock
}

// newApp makes the back end of sess, the game at the standard start.
func newApp(sess *session.Session) *app {
	a := &app{sess: sess, hub: newHub()}
	a.api = a.routes()
	a.st.reset()
	return a
}

// call answers the request "METHOD PATH" with body; a request the API
// does not have is answered 404, a body over its cap (bodyCap) 413.
func (s *app) call(method, path string, body []byte) reply {
	rt, ok := s.api[method+" "+path]
	if !ok {
		return errorReply(statusNotFound, fmt.Errorf("no %s %s in the API", method, path))
	}
	if limit := bodyCap(path); len(body) > limit {
		return errorReply(statusTooLarge, fmt.Errorf("the request body is over %d KB", limit>>10))
	}
	return rt(body)
}

// bodyCap is the most bytes the body of a request to path may have.
func bodyCap(path string) int {
	if path == "/api/pdn" {
		return maxPDNBody
	}
	return maxBodySize
}
