package gui

import (
	"encoding/json"
	"sync"
)

// event is one push to the pages: its type and its data, JSON.
type event struct {
	typ  string
	data []byte
}

// hub fans the back end's events out to the pages listening: over HTTP as
// server-sent events, in the browser build as the worker's messages. Each
// listener has a buffered queue; a listener too slow to take an event
// loses it (a page refetches the state on every answer it gets, so a lost
// search report only delays a display).
type hub struct {
	mu   sync.Mutex
	subs map[chan event]struct{}
}

func newHub() *hub { return &hub{subs: map[chan event]struct{}{}} }

// subscribe adds a listener; cancel removes it.
func (h *hub) subscribe() (events <-chan event, cancel func()) {
	ch := make(chan event, 64)
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
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- event{typ, data}:
		default:
		}
	}
}
