//go:build !js

package gui

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"sync"
	"syscall"

	"github.com/nechecb/nechecb/engine"
)

// Watch is the server of the match watch page (nechecb match --gui): the
// board of each game under way, updated move by move, the match's table
// and its SPRT line. It serves the same embedded assets as the gui's page,
// behind the same token, Host and Origin checks, and pushes every change
// as a server-sent event. Its GameStarted, MovePlayed, GameEnded and
// Standings methods are the match runner's observer (match.Observer); they
// are safe for concurrent use.
type Watch struct {
	*gate
	hub    *hub
	done   chan struct{} // closed by Close: event streams end
	closed sync.Once

	mu    sync.Mutex // guards what follows
	games map[int]*watchGame
	table []string
	sprt  string
	over  bool
	note  string // a line under the games: fleetNote or none
}

// fleetNote is what the watch page says of a match played on a fleet.
const fleetNote = "The games are played on a fleet (--nats): a worker reports a game only when it ends, " +
	"and the match records them in batches of up to 64, so no board is shown here; the table grows as each batch comes back."

// watchGame is one game on the watch page.
type watchGame struct {
	Index   int       `json:"index"`
	Black   string    `json:"black"`
	White   string    `json:"white"`
	Opening string    `json:"opening"`
	Ply     int       `json:"ply"`
	FEN     string    `json:"fen"`
	Side    string    `json:"side"`
	Pieces  []string  `json:"pieces"`
	Last    *moveView `json:"last"`
	// Result is the game's result in PDN ("1-0", ...), empty while it is
	// played, and Reason why it ended.
	Result string `json:"result"`
	Reason string `json:"reason"`
}

// watchView is the whole watch page, as GET /api/watch answers it.
type watchView struct {
	Squares []squareView `json:"squares"`
	Games   []watchGame  `json:"games"`
	Table   []string     `json:"table"`
	SPRT    string       `json:"sprt"`
	Over    bool         `json:"over"`
	Note    string       `json:"note"`
}

// NewWatch makes the watch server for pages reached at addr, the address
// its listener is bound to (host:port).
func NewWatch(addr string) (*Watch, error) {
	g, err := newGate(addr, "nechecb match")
	if err != nil {
		return nil, err
	}
	return &Watch{gate: g, hub: newHub(), done: make(chan struct{}), games: map[int]*watchGame{}}, nil
}

// Handler returns the watch page's routes behind the token, Host and
// Origin checks: the page, its assets, the event stream and the snapshot
// GET /api/watch.
func (w *Watch) Handler() http.Handler {
	mux := pageMux("watch.html", w.hub, w.done)
	mux.HandleFunc("GET /api/watch", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/json")
		rw.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(rw).Encode(w.view())
	})
	return w.guard(mux)
}

// Close ends the event streams, so that an http.Server's Shutdown does not
// wait for them.
func (w *Watch) Close() { w.closed.Do(func() { close(w.done) }) }

// view returns the page's snapshot, the games in schedule order.
func (w *Watch) view() watchView {
	w.mu.Lock()
	defer w.mu.Unlock()
	v := watchView{Squares: squares, Games: []watchGame{}, Table: w.table, SPRT: w.sprt, Over: w.over, Note: w.note}
	for _, g := range w.games {
		v.Games = append(v.Games, *g)
	}
	sort.Slice(v.Games, func(i, j int) bool { return v.Games[i].Index < v.Games[j].Index })
	return v
}

// GameStarted shows game index from its start; it takes the place of the
// games that have ended.
func (w *Watch) GameStarted(index int, black, white, opening string, start engine.Position) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, g := range w.games {
		if g.Result != "" {
			delete(w.games, i)
			w.hub.publish("gone", i)
		}
	}
	g := &watchGame{Index: index, Black: black, White: white, Opening: opening}
	g.setPosition(&start)
	w.games[index] = g
	w.hub.publish("game", g)
}

// MovePlayed shows move, played in before at ply, on the board of game
// index.
func (w *Watch) MovePlayed(index, ply int, before engine.Position, move engine.Move, after engine.Position) {
	w.mu.Lock()
	defer w.mu.Unlock()
	g := w.games[index]
	if g == nil {
		return
	}
	mv := moveViewOf(&before, move)
	g.Ply, g.Last = ply, &mv
	g.setPosition(&after)
	w.hub.publish("game", g)
}

// GameEnded marks game index with its result; its board stays until the
// next game starts. The match reports a game's end once it is recorded, by
// which time the worker that played it may have started the next: then
// the board goes at once, as that start would have taken it away.
func (w *Watch) GameEnded(index int, result engine.Result) {
	w.mu.Lock()
	defer w.mu.Unlock()
	g := w.games[index]
	if g == nil {
		return // a game played elsewhere (a fleet): only the table shows it
	}
	g.Result, g.Reason = result.PDN(), result.Reason
	w.hub.publish("game", g)
	for i := range w.games {
		if i > index {
			delete(w.games, index)
			w.hub.publish("gone", index)
			return
		}
	}
}

// Standings shows the match's table and its SPRT line.
func (w *Watch) Standings(table []string, sprt string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.table, w.sprt = append([]string(nil), table...), sprt
	w.hub.publish("standings", map[string]any{"table": w.table, "sprt": sprt})
}

// finish marks the match as over, for the pages.
func (w *Watch) finish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.over = true
	w.hub.publish("over", true)
}

// setPosition puts pos on g's board.
func (g *watchGame) setPosition(pos *engine.Position) {
	g.FEN, g.Side, g.Pieces = pos.FEN(), sideName(pos.Side), piecesOf(pos)
}

// WatchMatch serves the watch page on opts.Addr while run plays the match
// with the Watch as its observer, printing the page's address (and opening
// it when opts.Open is set) as the gui command does. The server stops when
// run returns, or with opts.Linger, after a match that ended without an
// error, at the next Ctrl-C; a page keeps what it last showed. It returns
// run's error at once, or why the server could not start. The match's
// settings are to be checked before (match.Prepare): a wrong one should
// not print an address.
func WatchMatch(opts Options, run func(w *Watch) error) error {
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return fmt.Errorf("--gui-addr: %v", err)
	}
	addr := ln.Addr().String()
	w, err := NewWatch(addr)
	if err != nil {
		ln.Close()
		return err
	}
	if opts.Fleet {
		w.note = fleetNote
	}
	announce(ln, w.URL(addr), "nechecb match", opts)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serveUntil(ctx, ln, w.Handler(), w.Close) }()
	err = run(w)
	w.finish()
	if opts.Linger && err == nil {
		fmt.Fprintf(opts.Err, "nechecb match: the match is over; the page stays at %s until Ctrl-C\n", addr)
		wait, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		<-wait.Done()
		stop()
	}
	cancel()
	if serr := <-served; err == nil && serr != nil {
		err = fmt.Errorf("the watch page's server: %v", serr)
	}
	return err
}
