// Package gui is nechecb's browser front end: a local web server that
// serves an embedded page (an SVG board, the engine's analysis, the move
// list, PDN and FEN in and out, the engine's settings) and plays and
// analyses with the one engine session of internal/session. The server
// keeps the game, so a reload of the page restores it, and pushes the
// engine's progress to the page as server-sent events.
//
// It is a local server that runs searches and reads files named in
// evaluator specs, so every request must carry the random token printed in
// its URL (or the cookie the first request sets), name the bound address in
// its Host header, and come from the page's own origin.
package gui

import (
	"embed"
	"io/fs"
	"net/http"
	"sync"

	"github.com/nechecb/nechecb/internal/session"
)

//go:embed assets
var assets embed.FS

// Body caps: a PDN upload may be large, every other request is small.
const (
	maxPDNBody  = 1 << 20
	maxBodySize = 64 << 10
)

// Server is the page's server: the engine session, the game and the search
// under way. Make one with New and serve its Handler.
type Server struct {
	*gate
	sess   *session.Session
	hub    *hub
	done   chan struct{} // closed by Close: event streams end
	closed sync.Once

	mu     sync.Mutex // guards what follows, and the session
	st     state
	search *searchRun // the search under way, nil when none

	lines lines // the search's reports, with their own lock
}

// New makes the server of sess for pages reached at addr, the address the
// listener is bound to (host:port). It draws the token from crypto/rand.
func New(sess *session.Session, addr string) (*Server, error) {
	g, err := newGate(addr, "nechecb gui")
	if err != nil {
		return nil, err
	}
	s := &Server{gate: g, sess: sess, hub: newHub(), done: make(chan struct{})}
	s.st.reset()
	return s, nil
}

// Close stops the search under way and ends the event streams, so that an
// http.Server's Shutdown does not wait for them.
func (s *Server) Close() {
	s.mu.Lock()
	s.stopLocked()
	s.mu.Unlock()
	s.closed.Do(func() { close(s.done) })
}

// Handler returns the server's routes behind the token, Host and Origin
// checks.
func (s *Server) Handler() http.Handler {
	mux := pageMux("index.html", s.hub, s.done)
	s.routes(mux)
	return s.guard(mux)
}

// pageMux returns the routes every page of the package has: page (an
// embedded asset) at /, the embedded assets under /assets/, and the event
// stream of h at /events, which ends when done is closed.
func pageMux(page string, h *hub, done <-chan struct{}) *http.ServeMux {
	mux := http.NewServeMux()
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded folder is part of the source
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, static, page)
	})
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(static)))
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) { h.serveEvents(w, r, done) })
	return mux
}
