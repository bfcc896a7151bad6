//go:build !js

package gui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// gate is the guard in front of every page the package serves (the gui's
// and the match watch's): the random token, the Host headers accepted and
// the cookie that carries the token.
type gate struct {
	token string
	// hosts are the Host headers accepted: the bound address, and
	// localhost with its port when it is a loopback address.
	hosts  map[string]bool
	cookie string
	// command names what printed the address, for the refusal's message.
	command string
}

// newGate makes the gate of a server bound to addr (host:port), drawing
// its token from crypto/rand.
func newGate(addr, command string) (*gate, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %v", addr, err)
	}
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("drawing the token: %v", err)
	}
	g := &gate{token: hex.EncodeToString(raw), hosts: map[string]bool{net.JoinHostPort(host, port): true},
		cookie: "nechecb_token_" + port, command: command}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		g.hosts[net.JoinHostPort("localhost", port)] = true
	}
	return g, nil
}

// Token returns the token every request must carry.
func (g *gate) Token() string { return g.token }

// URL returns the page's address with its token, for a server bound to
// addr (the address the server was made for).
func (g *gate) URL(addr string) string {
	return "http://" + addr + "/?token=" + g.token
}

// guard lets a request through only with the right Host, a matching Origin
// when it has one, and the token, in the query or the cookie. A request
// with the token in its query gets the cookie (HttpOnly, SameSite strict).
// It caps the request's body.
func (g *gate) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if !g.hosts[r.Host] {
			http.Error(w, "forbidden: the Host header is not the server's address", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !g.hosts[strings.TrimPrefix(o, "http://")] {
			http.Error(w, "forbidden: the request comes from another origin", http.StatusForbidden)
			return
		}
		inQuery := g.tokenOK(r.URL.Query().Get("token"))
		inCookie := false
		if c, err := r.Cookie(g.cookie); err == nil {
			inCookie = g.tokenOK(c.Value)
		}
		if !inQuery && !inCookie {
			http.Error(w, "forbidden: open the address with the token that "+g.command+" printed", http.StatusForbidden)
			return
		}
		if inQuery && !inCookie {
			http.SetCookie(w, &http.Cookie{Name: g.cookie, Value: g.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		r.Body = http.MaxBytesReader(w, r.Body, int64(bodyCap(r.URL.Path)))
		next.ServeHTTP(w, r)
	})
}

// tokenOK compares a token given with the gate's in constant time.
func (g *gate) tokenOK(t string) bool {
	return len(t) == len(g.token) && subtle.ConstantTimeCompare([]byte(t), []byte(g.token)) == 1
}
