package cbapi

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

func mustFEN(t *testing.T, fen string) engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// colorOf returns getmove's color argument for p's side to move.
func colorOf(p *engine.Position) int {
	if p.Side == engine.White {
		return White
	}
	return Black
}

// lines collects the status lines of one GetMove.
type lines struct {
	mu  sync.Mutex
	all []string
}

func (l *lines) show(s string) {
	l.mu.Lock()
	l.all = append(l.all, s)
	l.mu.Unlock()
}

func (l *lines) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.all...)
}

// request builds a getmove request for fen.
func request(t *testing.T, fen string, maxtime float64, info int, status *lines) Request {
	p := mustFEN(t, fen)
	return Request{Board: BoardOf(&p), Color: colorOf(&p), MaxTime: maxtime, Info: info, Status: status.show}
}

// successor returns the legal move of fen that leads to board, if any.
func successor(t *testing.T, fen string, board Board) (engine.Move, bool) {
	p := mustFEN(t, fen)
	for _, m := range p.LegalMoves() {
		q := p.Play(m)
		if BoardOf(&q) == board {
			return m, true
		}
	}
	return engine.Move{}, false
}

func TestGetMoveFromTheStartPlaysALegalMoveAndShowsItsThinking(t *testing.T) {
	p := newPlugin(t)
	var st lines
	r := p.GetMove(request(t, engine.StartFEN, 0.05, ExactTime, &st))
	m, ok := successor(t, engine.StartFEN, r.Board)
	if !r.Moved || !ok || r.Result != ResultUnknown {
		t.Fatalf("reply %+v: moved %v, legal %v, result %d", r, r.Moved, ok, r.Result)
	}
	start := engine.StartPosition()
	if r.Played != m.String() || r.Move != MoveOf(&start, m) {
		t.Errorf("played %q / %+v, want %s", r.Played, r.Move, m)
	}
	shown := st.get()
	if len(shown) < 2 {
		t.Fatalf("status lines %q", shown)
	}
	for _, part := range []string{"depth ", "score ", "time ", "kN/s", "pv " + m.String()} {
		if !strings.Contains(shown[len(shown)-2], part) {
			t.Errorf("thinking line %q lacks %q", shown[len(shown)-2], part)
		}
	}
	if last := shown[len(shown)-1]; !strings.HasPrefix(last, "best "+m.String()+"  depth ") || last != r.Line {
		t.Errorf("final line %q (reply's %q)", last, r.Line)
	}
}

func TestGetMoveRefusesBadBoardsWithoutMoving(t *testing.T) {
	p := newPlugin(t)
	var st lines
	req := request(t, engine.StartFEN, 0.01, 0, &st)
	req.Board[7][3] = Black | Man // a thirteenth black man
	r := p.GetMove(req)
	if r.Moved || r.Result != ResultUnknown || !strings.Contains(r.Line, "more than 12") {
		t.Errorf("13 men: %+v", r)
	}
	req = request(t, engine.StartFEN, 0.01, 0, &st)
	req.Color = 0
	if r := p.GetMove(req); r.Moved || r.Result != ResultUnknown || !strings.Contains(r.Line, "color 0") {
		t.Errorf("color 0: %+v", r)
	}
	if s := st.get(); len(s) != 2 || !strings.HasPrefix(s[0], "nechecb: not a position") {
		t.Errorf("status lines %q", s)
	}
}

func TestGetMoveJudgesTheGame(t *testing.T) {
	p := newPlugin(t)
	var st lines
	// No legal move: the side to move has lost.
	if r := p.GetMove(request(t, "W:W29:B25,K22", 0.01, 0, &st)); r.Moved || r.Result != ResultLoss {
		t.Errorf("no legal move: %+v", r)
	}
	// Taking the last piece wins.
	r := p.GetMove(request(t, "B:W18:B14,1", 0.05, 0, &st))
	if !r.Moved || r.Result != ResultWin || !strings.Contains(r.Line, "no legal move") {
		t.Errorf("last capture: %+v", r)
	}
	// A king against a man that cannot escape: the search proves the win.
	r = p.GetMove(request(t, "B:W32:BK19,K23,K27", 0.5, ExactTime, &st))
	if !r.Moved || r.Result != ResultWin {
		t.Errorf("three kings against a cornered man: %+v", r)
	}
}

func TestGetMoveUsesTheGameHistory(t *testing.T) {
	p := newPlugin(t)
	expect(t, p, "set dbpath none", "dbpath none", true) // the built-in database knows this ending
	// 79 king moves since the last capture or man move: the next one,
	// whichever it is, draws by the 40-move rule.
	hist, root := kingWalk(t, "B:WK31,K32:BK1,K2", 79)
	if root.Reversible != 79 {
		t.Fatalf("the walk counts %d plies", root.Reversible)
	}
	var st lines
	req := Request{Board: BoardOf(&root), Color: colorOf(&root), MaxTime: 0.05, Status: st.show}
	if r := p.GetMove(req); r.Result != ResultUnknown {
		t.Errorf("without the history: result %d, want unknown (%q)", r.Result, r.Line)
	}
	expect(t, p, "set gamehist "+hist, "gamehist 80 position(s)", true)
	r := p.GetMove(req)
	if !r.Moved || r.Result != ResultDraw || !strings.Contains(r.Line, "40-move rule") {
		t.Errorf("with the history: %+v", r)
	}
	// A history that does not read is refused and forgotten.
	reply, ok := p.Command("set gamehist B:WK32:BK1 1-9")
	if ok || !strings.HasPrefix(reply, "set gamehist: move 1") {
		t.Errorf("bad history: %q, %v", reply, ok)
	}
	if r := p.GetMove(req); r.Result != ResultUnknown {
		t.Errorf("after a bad history: result %d", r.Result)
	}
}

func TestJudge(t *testing.T) {
	root := mustFEN(t, "B:WK32:BK1")
	m := root.LegalMoves()[0]
	for _, c := range []struct {
		score player.Score
		want  int
	}{
		{player.Score(50), ResultUnknown},
		{search.WinIn(9), ResultWin},
		{search.LossIn(4), ResultLoss},
	} {
		if got, _ := judge(session.NewGame(root), m, c.score, player.DBUnknown); got != c.want {
			t.Errorf("score %+v: %d, want %d", c.score, got, c.want)
		}
	}
	// The third occurrence of a position after the move is a draw whatever
	// the score says.
	hist, err := ParseGameHist("B:WK32:BK1 1-6 32-27 6-1 27-32 1-6 32-27 6-1")
	if err != nil {
		t.Fatal(err)
	}
	root = hist.Current()
	back, err := root.ParseMove("27-32")
	if err != nil {
		t.Fatal(err)
	}
	if got, why := judge(hist, back, search.WinIn(3), player.DBUnknown); got != ResultDraw || why != "draw: threefold repetition" {
		t.Errorf("repetition: %d %q", got, why)
	}
}

func TestPlayNowEndsALongSearch(t *testing.T) {
	p := newPlugin(t)
	var st lines
	var flag atomic.Bool
	req := request(t, engine.StartFEN, 30, ExactTime, &st)
	req.PlayNow = flag.Load
	req.Status = func(s string) {
		st.show(s)
		flag.Store(true) // press "play now" once the first depth is shown
	}
	start := time.Now()
	r := p.GetMove(req)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("a 30 s search told to play now took %v", took)
	}
	if _, ok := successor(t, engine.StartFEN, r.Board); !ok || !r.Moved {
		t.Errorf("no legal move after play now: %+v", r)
	}
	// Pressed before the search starts, the engine still moves.
	flag.Store(true)
	if r := p.GetMove(req); !r.Moved {
		t.Errorf("play now before the search: %+v", r)
	}
}

func TestGetMoveWhileSearchingIsRefused(t *testing.T) {
	p := newPlugin(t)
	var flag atomic.Bool
	started := make(chan struct{})
	var once sync.Once
	req := request(t, engine.StartFEN, 30, ExactTime, &lines{})
	req.PlayNow = flag.Load
	req.Status = func(string) { once.Do(func() { close(started) }) }
	done := make(chan Reply)
	go func() { done <- p.GetMove(req) }()
	<-started
	second := request(t, engine.StartFEN, 0.01, 0, &lines{})
	if r := p.GetMove(second); r.Moved || r.Result != ResultUnknown || !strings.Contains(r.Line, "already searching") {
		t.Errorf("second getmove: %+v", r)
	}
	expect(t, p, "get hashsize", "64", true) // commands are answered meanwhile
	flag.Store(true)
	if r := <-done; !r.Moved {
		t.Errorf("first getmove: %+v", r)
	}
}

func TestBookOnlyMoveAndAllScores(t *testing.T) {
	p := newPlugin(t)
	expect(t, p, "set dbpath none", "dbpath none", true) // a line with no database verdict
	expect(t, p, "set book 3", "book 3", true)
	var st lines
	r := p.GetMove(request(t, engine.StartFEN, 1, 0, &st))
	if _, ok := successor(t, engine.StartFEN, r.Board); !ok || !strings.HasPrefix(r.Line, "book move ") {
		t.Errorf("book: %+v", r)
	}
	// One legal move is played at once.
	start := time.Now()
	r = p.GetMove(request(t, "W:W18,30:B14,1", 20, 0, &st))
	if r.Line != "only move 18x9" || time.Since(start) > 10*time.Second {
		t.Errorf("only move: %q", r.Line)
	}
	expect(t, p, "set allscores 1", "allscores 1", true)
	st = lines{}
	r = p.GetMove(request(t, "B:W21,22,23:B9,10,11", 0.2, ExactTime, &st))
	shown := st.get()
	if !r.Moved || len(shown) < 2 {
		t.Fatalf("allscores: %+v, lines %q", r, shown)
	}
	thinking := shown[len(shown)-2]
	root := mustFEN(t, "B:W21,22,23:B9,10,11")
	for _, m := range root.LegalMoves() {
		if !strings.Contains(thinking, " "+m.String()+" ") {
			t.Errorf("allscores line %q lacks %s", thinking, m)
		}
	}
}

// TestKeepLineEachMoveOnce replays the infos of a multi-PV search stopped
// in the middle of a depth, after its first line changed the best move:
// each root move is shown once, the new depth's lines first.
func TestKeepLineEachMoveOnce(t *testing.T) {
	root := mustFEN(t, "B:W21,22,23:B9,10,11")
	legal := root.LegalMoves()
	if len(legal) < 3 {
		t.Fatalf("%d legal moves, want 3 or more", len(legal))
	}
	a, b, c := legal[0], legal[1], legal[2]
	info := func(depth, rank int, m engine.Move) player.Info {
		return player.Info{Depth: depth, MultiPV: rank, PV: []engine.Move{m}}
	}
	var lines []player.Info
	for _, in := range []player.Info{info(5, 1, a), info(5, 2, b), info(5, 3, c), info(6, 1, c)} {
		lines = keepLine(lines, in)
	}
	var got []engine.Move
	for _, l := range lines {
		got = append(got, l.PV[0])
	}
	want := []engine.Move{c, a, b}
	if !slices.Equal(got, want) {
		t.Errorf("lines show %v, want %v (depth 6's line, then depth 5's other moves)", got, want)
	}
	if s := StatusLine(root, lines[0], lines); strings.Count(s, " "+root.Notation(c)+" ") != 2 {
		t.Errorf("status %q: want %s as the pv's move and once among all scores", s, root.Notation(c))
	}
}
