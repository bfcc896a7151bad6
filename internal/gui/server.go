//go:build !js

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
//
// The same back end (app) runs in the browser build, compiled to
// WebAssembly, in a Web Worker that answers the page's requests as
// messages (worker_js.go); Export writes that build as a static site.
package gui

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/nechecb/nechecb/internal/session"
)

// assets are the pages, their scripts and styles: served by the binary,
// written out by Export for the browser build.
//
//go:embed assets
var assets embed.FS

// Server is the page's server: the back end behind the token, Host and
// Origin checks. Make one with New and serve its Handler.
type Server struct {
	*gate
	*app
	done   chan struct{} // closed by Close: event streams end
	closed sync.Once
}

// New makes the server of sess for pages reached at addr, the address the
// listener is bound to (host:port). It draws the token from crypto/rand.
func New(sess *session.Session, addr string) (*Server, error) {
	g, err := newGate(addr, "nechecb gui")
	if err != nil {
		return nil, err
	}
	return &Server{gate: g, app: newApp(sess), done: make(chan struct{})}, nil
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
	for pattern := range s.api {
		method, path, _ := strings.Cut(pattern, " ")
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			body, status, err := readBody(r)
			if err != nil {
				writeError(w, status, err)
				return
			}
			writeReply(w, s.call(method, path, body))
		})
	}
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
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) { serveEvents(h, w, r, done) })
	return mux
}

// writeReply writes an answer of the back end: JSON, or a file to save.
func writeReply(w http.ResponseWriter, rep reply) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if rep.filename != "" {
		h.Set("Content-Type", "application/x-pdn; charset=utf-8")
		h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", rep.filename))
	} else {
		h.Set("Content-Type", "application/json")
	}
	w.WriteHeader(rep.status)
	w.Write(rep.body)
}

// writeError answers err with status.
func writeError(w http.ResponseWriter, status int, err error) { writeReply(w, errorReply(status, err)) }

// readBody reads a request body within its cap; the error for an
// oversized one says so, with status 413.
func readBody(r *http.Request) ([]byte, int, error) {
	data, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, statusTooLarge, fmt.Errorf("the request body is over %d KB", tooBig.Limit>>10)
	}
	if err != nil {
		return nil, statusBadRequest, fmt.Errorf("reading the request: %v", err)
	}
	return data, statusOK, nil
}

// keepAlive is how often an idle event stream gets a comment line, so that
// a dead connection is noticed.
const keepAlive = 20 * time.Second

// serveEvents streams the events of h to one page, as server-sent events,
// until it goes away or the server shuts down (done closed).
func serveEvents(h *hub, w http.ResponseWriter, r *http.Request, done <-chan struct{}) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported", http.StatusInternalServerError)
		return
	}
	events, cancel := h.subscribe()
	defer cancel()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, ": hello\n\n")
	flusher.Flush()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case ev := <-events:
			if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.typ, ev.data); err != nil {
				return
			}
		case <-tick.C:
			fmt.Fprint(w, ": ping\n\n")
		case <-r.Context().Done():
			return
		case <-done:
			return
		}
		flusher.Flush()
	}
}
