package gui

import (
	"context"
	"sync"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
)

// searchRun is the one search under way: the engine thinking over its move
// ("play"), analysing the position shown ("analyse"), or analysing one
// position of the game after another ("review", review.go).
type searchRun struct {
	kind    string
	version int // the state's version when it began
	cancel  context.CancelFunc
	// returned is closed as soon as the search has returned, before its
	// result is played: stopLocked waits on it while holding the lock.
	returned chan struct{}
}

// lines keeps the last report of each multi-PV line of the search under
// way, and the score found at each ply of the game, for a page that loads
// while the search runs. It has its own lock: the search's progress
// callback must not wait for the server's.
type lines struct {
	mu     sync.Mutex
	search int // the number of the search the lines belong to
	infos  []infoView
	scores map[int]scorePoint // by ply
}

// scorePoint is a search's score at one ply of the game, from Black's side,
// in hundredths of a man (wins and losses capped). hash is the position's,
// so that a point of a position no longer in the game is not shown.
type scorePoint struct {
	hash  uint64
	Ply   int `json:"ply"`
	Score int `json:"score"`
	Depth int `json:"depth"`
}

// scoreCap bounds the score graph: a won position shows as ten men up.
const scoreCap = 1000

// stopLocked stops the search under way, if any, and waits for it to
// return; its result is not played.
func (s *app) stopLocked() {
	run := s.search
	if run == nil {
		return
	}
	s.search = nil
	run.cancel()
	<-run.returned
}

// afterChangeLocked starts what a change of the game calls for: analysis
// of the position shown while analysing, else the engine's move when it is
// the engine's turn. A running search is stopped first.
func (s *app) afterChangeLocked() {
	s.stopLocked()
	st := &s.st
	switch {
	case st.analysing:
		s.startLocked("analyse")
	case st.engineToMove():
		pos, hist := st.shown()
		if m, ok := s.sess.Probe(pos, hist); ok {
			st.playEngine(m)
			s.hub.publish("note", map[string]string{"text": "book move " + pos.Notation(m)})
			s.afterChangeLocked()
			return
		}
		s.startLocked("play")
	}
}

// limitsLocked returns the search limits of the engine's level.
func (s *app) limitsLocked() player.Limits {
	st := &s.st
	switch st.level.Kind {
	case "depth":
		return player.Limits{Depth: st.level.Depth}
	case "clock":
		side := st.game.Current().Side
		clock := st.clock
		clock[side] = max(clock[side]-time.Since(st.turnStart), time.Millisecond)
		inc := time.Duration(st.level.IncS) * time.Second
		return player.Limits{BTime: clock[engine.Black], WTime: clock[engine.White], BInc: inc, WInc: inc}
	}
	return player.Limits{MoveTime: time.Duration(st.level.MoveTimeMs) * time.Millisecond}
}

// startLocked starts a search of the position shown: "play" within the
// level's limits, its move played when it returns unless the game changed
// meanwhile, or "analyse" until stopped.
func (s *app) startLocked(kind string) {
	st := &s.st
	pos, hist := st.shown()
	hist = append([]engine.Position(nil), hist...)
	lim := player.Limits{Infinite: true}
	switch kind {
	case "play":
		lim = s.limitsLocked()
	case "review":
		lim = player.Limits{MoveTime: time.Duration(st.reviewMs) * time.Millisecond}
	}
	ctx, cancel := context.WithCancel(context.Background())
	run := &searchRun{kind: kind, version: st.version, cancel: cancel, returned: make(chan struct{})}
	s.search = run
	id := s.lines.begin()
	ply := st.cursor
	eng := s.sess.Engine()
	s.hub.publish("search", map[string]any{"id": id, "kind": kind, "ply": ply})
	go func() {
		r := eng.Search(ctx, pos, hist, lim, func(in player.Info) {
			s.report(id, kind, ply, &pos, in)
		})
		close(run.returned)
		cancel()
		s.finish(run, r)
	}()
}

// finish plays the move a "play" search found, unless the search was
// stopped or the game changed, and tells the pages.
func (s *app) finish(run *searchRun, r player.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.search != run {
		return
	}
	s.search = nil
	switch {
	case run.version != s.st.version:
	case run.kind == "play" && r.HasMove:
		s.st.playEngine(r.Best)
		s.afterChangeLocked()
	case run.kind == "review":
		s.reviewNextLocked()
	}
	s.publishStateLocked()
}

// moveNowLocked makes a "play" search under way return its best move so
// far.
func (s *app) moveNowLocked() bool {
	if s.search == nil || s.search.kind != "play" {
		return false
	}
	s.search.cancel()
	return true
}

// begin starts the lines of a new search and returns its number.
func (l *lines) begin() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.search++
	l.infos = nil
	return l.search
}

// snapshot returns the lines of the last search and the scores of the
// game's positions, by ply.
func (l *lines) snapshot(positions []engine.Position) ([]infoView, []scorePoint) {
	l.mu.Lock()
	defer l.mu.Unlock()
	points := make([]scorePoint, 0, len(l.scores))
	for ply, p := range positions {
		if sp, ok := l.scores[ply]; ok && sp.hash == p.Hash {
			points = append(points, sp)
		}
	}
	return append([]infoView(nil), l.infos...), points
}

// record keeps one line of search id and, for its first line, the score at
// its ply.
func (l *lines) record(id int, in infoView, point scorePoint) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id != l.search {
		return
	}
	for len(l.infos) < in.MultiPV {
		l.infos = append(l.infos, infoView{})
	}
	l.infos[in.MultiPV-1] = in
	if in.MultiPV == 1 {
		if l.scores == nil {
			l.scores = map[int]scorePoint{}
		}
		l.scores[point.Ply] = point
	}
}
