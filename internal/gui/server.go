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
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
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
	sess  *session.Session
	token string
	// hosts are the Host headers accepted: the bound address, and
	// localhost with its port when it is a loopback address.
	hosts  map[string]bool
	cookie string
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
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %v", addr, err)
	}
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("drawing the token: %v", err)
	}
	s := &Server{
		sess: sess, token: hex.EncodeToString(raw),
		hosts:  map[string]bool{net.JoinHostPort(host, port): true},
		cookie: "nechecb_token_" + port,
		hub:    newHub(), done: make(chan struct{}),
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		s.hosts[net.JoinHostPort("localhost", port)] = true
	}
	s.st.reset()
	return s, nil
}

// Token returns the token every request must carry.
func (s *Server) Token() string { return s.token }

// URL returns the page's address with its token, for a server bound to
// addr (the address New was given).
func (s *Server) URL(addr string) string {
	return "http://" + addr + "/?token=" + s.token
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
	mux := http.NewServeMux()
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded folder is part of the source
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, static, "index.html")
	})
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(static)))
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) { s.hub.serveEvents(w, r, s.done) })
	s.routes(mux)
	return s.guard(mux)
}

// guard lets a request through only with the right Host, a matching Origin
// when it has one, and the token, in the query or the cookie. A request
// with the token in its query gets the cookie (HttpOnly, SameSite strict).
// It caps the request's body.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if !s.hosts[r.Host] {
			http.Error(w, "forbidden: the Host header is not the server's address", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.hosts[strings.TrimPrefix(o, "http://")] {
			http.Error(w, "forbidden: the request comes from another origin", http.StatusForbidden)
			return
		}
		inQuery := s.tokenOK(r.URL.Query().Get("token"))
		inCookie := false
		if c, err := r.Cookie(s.cookie); err == nil {
			inCookie = s.tokenOK(c.Value)
		}
		if !inQuery && !inCookie {
			http.Error(w, "forbidden: open the address with the token that nechecb gui printed", http.StatusForbidden)
			return
		}
		if inQuery && !inCookie {
			http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		limit := int64(maxBodySize)
		if r.URL.Path == "/api/pdn" {
			limit = maxPDNBody
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		next.ServeHTTP(w, r)
	})
}

// tokenOK compares a token given with the server's in constant time.
func (s *Server) tokenOK(t string) bool {
	return len(t) == len(s.token) && subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}
