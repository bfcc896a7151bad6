package gui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// hub fans the server's events out to the pages listening on /events, as
// server-sent events. Each listener has a buffered queue; a listener too
// slow to take an event loses it (a page refetches the state on every
// answer it gets, so a lost search report only delays a display).
type hub struct {
	mu   sync.Mutex
	subs map[chan []byte]struct{}
}

func newHub() *hub { return &hub{subs: map[chan []byte]struct{}{}} }

// subscribe adds a listener; cancel removes it.
func (h *hub) subscribe() (events <-chan []byte, cancel func()) {
	ch := make(chan []byte, 64)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs, ch)
		h.mu.Unlock()
	}
}

// publish sends one event of the given type with v, written as JSON, to
// every listener.
func (h *hub) publish(typ string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	msg := []byte(fmt.Sprintf("event: %s\ndata: %s\n\n", typ, data))
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- msg:
		default:
		}
	}
}

// keepAlive is how often an idle event stream gets a comment line, so that
// a dead connection is noticed.
const keepAlive = 20 * time.Second

// serveEvents streams events to one page until it goes away or the server
// shuts down (done closed).
func (h *hub) serveEvents(w http.ResponseWriter, r *http.Request, done <-chan struct{}) {
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
		case msg := <-events:
			if _, err := w.Write(msg); err != nil {
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
