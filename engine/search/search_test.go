package search

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/nechecb/nechecb/engine"
)

func mustFEN(t testing.TB, fen string) engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

func depthSearch(t testing.TB, s *Searcher, pos engine.Position, depth int) Result {
	t.Helper()
	return s.Search(context.Background(), pos, nil, Limits{Depth: depth}, nil)
}

func TestEntrySize(t *testing.T) {
	if got := unsafe.Sizeof(entry{}); got != entryBytes {
		t.Fatalf("unsafe.Sizeof(entry) = %d, want %d", got, entryBytes)
	}
	if got := unsafe.Sizeof(bucket{}); got != 64 {
		t.Fatalf("unsafe.Sizeof(bucket) = %d, want one 64-byte cache line", got)
	}
}

func TestTableSizeIsPowerOfTwo(t *testing.T) {
	for _, mb := range []int{1, 3, 16, 100} {
		tt := newTable(mb)
		n := tt.entries()
		if n&(n-1) != 0 || n*entryBytes > mb<<20 || n*entryBytes*2 <= mb<<20 {
			t.Errorf("%d MB: %d entries of %d bytes, want the largest power of two that fits", mb, n, entryBytes)
		}
	}
}

func TestTableStoresAndAges(t *testing.T) {
	tt := newTable(1)
	want := ttData{score: -1234, depth: 17, move: 3, bound: boundLower}
	tt.store(0xdeadbeef00000005, want)
	got, ok := tt.probe(0xdeadbeef00000005)
	if !ok {
		t.Fatal("stored entry not found")
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(ttData{})); diff != "" {
		t.Errorf("probe after store (-want +got):\n%s", diff)
	}
	if _, ok := tt.probe(0xdeadbeef00000006); ok {
		t.Error("probe found an entry for a key never stored")
	}
	if hf := tt.hashFull(); hf != 1 {
		t.Errorf("hashFull after one store = %d, want 1 (of 1000 sampled)", hf)
	}
	tt.newSearch()
	if hf := tt.hashFull(); hf != 0 {
		t.Errorf("hashFull after newSearch = %d, want 0", hf)
	}
}

func TestScoreDistance(t *testing.T) {
	cases := []struct {
		s         Score
		win, loss bool
		plies     int
		text      string
	}{
		{WinIn(7), true, false, 7, "win 7"},
		{LossIn(4), false, true, 4, "loss 4"},
		{250, false, false, 0, "+250"},
		{-30, false, false, 0, "-30"},
	}
	for _, c := range cases {
		if c.s.IsWin() != c.win || c.s.IsLoss() != c.loss || c.s.Plies() != c.plies || c.s.String() != c.text {
			t.Errorf("%d: IsWin %v IsLoss %v Plies %d String %q, want %v %v %d %q",
				c.s, c.s.IsWin(), c.s.IsLoss(), c.s.Plies(), c.s, c.win, c.loss, c.plies, c.text)
		}
		for ply := 0; ply < 50; ply += 7 {
			if back := fromTable(toTable(c.s, ply), ply); back != c.s {
				t.Errorf("table round trip of %v at ply %d gave %v", c.s, ply, back)
			}
		}
	}
	if Score(10000).IsWin() || Score(-10000).IsLoss() {
		t.Error("the evaluation limit counts as a win or loss")
	}
}

func TestNoMoveIsLoss(t *testing.T) {
	// White's only man on 32 is blocked by Black men on 27 and 28 backed by 23 and 24.
	pos := mustFEN(t, "W:W32:B23,24,27,28")
	if pos.CountMoves() != 0 {
		t.Fatalf("test position has %d moves, want 0", pos.CountMoves())
	}
	r := depthSearch(t, New(Options{HashMB: 1}, nil), pos, 5)
	if r.HasMove || !r.Score.IsLoss() || r.Score.Plies() != 0 {
		t.Errorf("search of a position with no move = %+v, want no move and loss 0", r)
	}
}

func TestBestMoveLegalInRandomPositions(t *testing.T) {
	// The search's selective features must keep moves and lines legal too.
	for _, tune := range []Tuning{{}, {ThreatPlies: 2, SingleReply: true, Crown: 2, HistLMR: true, KingLMR: true, NoPVExt: true}, {LMRLog: 12, LMP: 2, Trunc: 60, Futility: 60}} {
		bestMoveLegal(t, New(Options{HashMB: 4, Tuning: tune}, nil))
	}
}

func bestMoveLegal(t *testing.T, s *Searcher) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 60
	if testing.Short() {
		n = 20
	}
	for i := 0; i < n; i++ {
		pos := engine.StartPosition()
		var hist []engine.Position
		var l engine.MoveList
		for ply := rng.IntN(60); ply > 0; ply-- {
			pos.Generate(&l)
			if l.N == 0 {
				break
			}
			hist = append(hist, pos)
			pos = pos.Play(l.Moves[rng.IntN(l.N)])
		}
		pos.Generate(&l)
		r := s.Search(context.Background(), pos, hist, Limits{Depth: 1 + rng.IntN(7)}, nil)
		if r.HasMove != (l.N > 0) {
			t.Fatalf("%s: HasMove %v with %d legal moves", pos.FEN(), r.HasMove, l.N)
		}
		if !r.HasMove {
			continue
		}
		legal := false
		for _, m := range l.Slice() {
			legal = legal || m == r.Best
		}
		if !legal {
			t.Fatalf("%s: best move %v is not legal", pos.FEN(), r.Best)
		}
		checkLine(t, pos, r.PV)
	}
}

// checkLine fails unless every move of line is legal in turn from pos.
func checkLine(t *testing.T, pos engine.Position, line []engine.Move) {
	t.Helper()
	var l engine.MoveList
	for i, m := range line {
		pos.Generate(&l)
		legal := false
		for _, x := range l.Slice() {
			legal = legal || x == m
		}
		if !legal {
			t.Fatalf("move %d (%v) of the line is illegal in %s", i, m, pos.FEN())
		}
		pos = pos.Play(m)
	}
}

// TestClearIsAFreshTable checks that a search after Clear is the search
// of a new Searcher, node for node, including when the table's epochs
// wrap round; and that an entry stored before a clear is gone.
func TestClearIsAFreshTable(t *testing.T) {
	a, b := mustFEN(t, BenchFENs[3]), mustFEN(t, BenchFENs[12])
	want := depthSearch(t, New(Options{HashMB: 1}, nil), b, 9)
	used := New(Options{HashMB: 1}, nil)
	for _, epoch := range []uint16{1, 0xFFFF} {
		depthSearch(t, used, a, 9)
		used.tt.epoch = epoch // 0xFFFF: the next clear wraps round
		for i := range used.tt.buckets {
			for j := range used.tt.buckets[i] {
				e := &used.tt.buckets[i][j]
				if d := e.data.Load(); d != 0 {
					moved := d&(1<<epochShift-1) | uint64(epoch)<<epochShift
					e.check.Store(e.check.Load() ^ d ^ moved)
					e.data.Store(moved)
				}
			}
		}
		used.Clear()
		got := depthSearch(t, used, b, 9)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("epoch %d: the search after Clear differs from a new searcher's (-new +cleared):\n%s", epoch, diff)
		}
	}
	tt := newTable(1)
	tt.store(0xdeadbeef00000005, ttData{score: 7, depth: 3, move: 2, bound: boundExact})
	tt.clear()
	if _, ok := tt.probe(0xdeadbeef00000005); ok {
		t.Error("an entry stored before clear is found after it")
	}
	if hf := tt.hashFull(); hf != 0 {
		t.Errorf("hashFull after clear = %d, want 0", hf)
	}
}

func TestDeterministicWithOneThread(t *testing.T) {
	pos := mustFEN(t, BenchFENs[12])
	a := depthSearch(t, New(Options{HashMB: 4}, nil), pos, 9)
	b := depthSearch(t, New(Options{HashMB: 4}, nil), pos, 9)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two fixed-depth searches differ (-first +second):\n%s", diff)
	}
}

func TestRepetitionIsDraw(t *testing.T) {
	// Black has two kings against one. The game went 1-6 32-28 6-1 28-32 to
	// reach the root, so 1-6 now repeats the first position of the history:
	// a draw, where 5-9 keeps the extra king.
	root := mustFEN(t, "B:WK32:BK1,K5")
	play := func(p engine.Position, text string) engine.Position {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		return p.Play(m)
	}
	a := play(root, "1-6")
	b := play(a, "32-28")
	c := play(b, "6-1")
	if r := play(c, "28-32"); !r.SameBoard(&root) {
		t.Fatalf("history does not lead back to the root: %s", r.FEN())
	}
	s := New(Options{HashMB: 1, MultiPV: 2}, nil)
	scores := map[string]Score{}
	s.Search(context.Background(), root, nil, Limits{Depth: 6}, func(i Info) { scores[i.PV[0].String()] = i.Score })
	if scores["1-6"] <= 0 || scores["5-9"] <= 0 {
		t.Fatalf("without history both moves should keep the extra king: %v", scores)
	}
	clear(scores)
	s.Clear()
	s.Search(context.Background(), root, []engine.Position{a, b, c}, Limits{Depth: 6}, func(i Info) { scores[i.PV[0].String()] = i.Score })
	if scores["1-6"] != DrawScore || scores["5-9"] <= 0 {
		t.Errorf("with history, want 1-6 a draw and 5-9 still ahead: %v", scores)
	}
	// One ply before the 40-move rule every move (all are king moves) draws.
	root.Reversible = engine.DrawPlies - 1
	r := depthSearch(t, New(Options{HashMB: 1}, nil), root, 6)
	if r.Score != DrawScore {
		t.Errorf("one ply before the 40-move rule, score %v, want a draw", r.Score)
	}
}

// guard bounds the timed searches of these tests. It is far beyond any of
// their limits, so only a search that ignores its limits reaches it, even on
// a loaded machine; the tests assert outcomes, not how fast they came.
const guard = 60 * time.Second

// searchOnItsOwn runs a search that must end by its own limits, and fails
// the test if the guard had to stop it. It returns the result and the time
// the search took.
func searchOnItsOwn(t *testing.T, s *Searcher, pos engine.Position, limits Limits, progress func(Info)) (Result, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	start := time.Now()
	r := s.Search(ctx, pos, nil, limits, progress)
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("search with limits %+v did not end by itself; the test stopped it after %v", limits, took)
	}
	return r, took
}

// TestStopByContext cancels an infinite search from its own progress report
// of depth 2: the search, which would otherwise never end, returns the move
// of the depths it completed.
func TestStopByContext(t *testing.T) {
	s := New(Options{HashMB: 4}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Result, 1)
	go func() {
		done <- s.Search(ctx, engine.StartPosition(), nil, Limits{Infinite: true}, func(i Info) {
			if i.Depth >= 2 {
				cancel()
			}
		})
	}()
	select {
	case r := <-done:
		if !r.HasMove || r.Depth < 2 {
			t.Errorf("search stopped after depth 2 gave move %v, depth %d; want a move and depth 2 or more", r.HasMove, r.Depth)
		}
	case <-time.After(guard):
		t.Fatalf("search did not stop within %v of the cancel", guard)
	}
}

// TestMoveTimeRespected checks that a movetime search ends by itself with a
// move, and not before its budget (movetime less the overhead) is spent: a
// lower bound, which load cannot break.
func TestMoveTimeRespected(t *testing.T) {
	s := New(Options{HashMB: 4, MoveOverhead: 10 * time.Millisecond}, nil)
	r, took := searchOnItsOwn(t, s, engine.StartPosition(), Limits{MoveTime: 100 * time.Millisecond}, nil)
	if !r.HasMove || took < 90*time.Millisecond {
		t.Errorf("movetime 100 ms (overhead 10 ms) search: move %v after %v, want a move after 90 ms or more", r.HasMove, took)
	}
}

func TestNodeLimit(t *testing.T) {
	s := New(Options{HashMB: 4}, nil)
	r := s.Search(context.Background(), engine.StartPosition(), nil, Limits{Nodes: 20000}, nil)
	if r.Nodes < 20000 || r.Nodes > 20000+2*(pollMask+1) {
		t.Errorf("node-limited search searched %d nodes, want about 20000", r.Nodes)
	}
}

// TestPonderHit ponders until the search reports having run for twice its
// movetime, checks that it is still running, and then sends ponderhit: the
// search must end by itself, having spent its movetime counted from the
// ponderhit rather than from its start.
func TestPonderHit(t *testing.T) {
	const moveTime = 50 * time.Millisecond
	s := New(Options{HashMB: 4, MoveOverhead: 0}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	ran := make(chan struct{})
	var once sync.Once
	done := make(chan Result, 1)
	go func() {
		done <- s.Search(ctx, engine.StartPosition(), nil, Limits{Ponder: true, MoveTime: moveTime}, func(i Info) {
			if i.Time >= 2*moveTime {
				once.Do(func() { close(ran) })
			}
		})
	}()
	select {
	case <-ran:
	case <-done:
		t.Fatal("ponder search ended before ponderhit")
	}
	select {
	case <-done:
		t.Fatal("ponder search ended before ponderhit")
	default:
	}
	hit := time.Now()
	s.PonderHit()
	r := <-done
	took := time.Since(hit)
	if ctx.Err() != nil {
		t.Fatalf("after ponderhit with movetime %v the search did not end by itself; the test stopped it after %v", moveTime, took)
	}
	if !r.HasMove || took < moveTime {
		t.Errorf("after ponderhit: move %v after %v, want a move after the movetime %v counted from the ponderhit", r.HasMove, took, moveTime)
	}
}

func TestThreadsRace(t *testing.T) {
	var infos atomic.Int32
	s := New(Options{HashMB: 4, Threads: 3}, nil)
	r := s.Search(context.Background(), mustFEN(t, BenchFENs[15]), nil, Limits{Depth: 9}, func(Info) { infos.Add(1) })
	if !r.HasMove || r.Depth != 9 || infos.Load() != 9 {
		t.Errorf("3-thread search: move %v depth %d infos %d, want a move, depth 9 and 9 infos", r.HasMove, r.Depth, infos.Load())
	}
}

func TestSearchMovesAndMultiPV(t *testing.T) {
	pos := engine.StartPosition()
	var l engine.MoveList
	pos.Generate(&l)
	only := []engine.Move{l.Moves[3], l.Moves[5]}
	s := New(Options{HashMB: 4, MultiPV: 3}, nil)
	var lines []int
	r := s.Search(context.Background(), pos, nil, Limits{Depth: 4, SearchMoves: only}, func(i Info) {
		if i.Depth == 4 {
			lines = append(lines, i.MultiPV)
		}
	})
	if r.Best != only[0] && r.Best != only[1] {
		t.Errorf("best move %v is not among searchmoves %v", r.Best, only)
	}
	if diff := cmp.Diff([]int{1, 2}, lines); diff != "" {
		t.Errorf("multipv lines at depth 4 (-want +got):\n%s", diff)
	}
}

func TestSearchDoesNotAllocate(t *testing.T) {
	s := New(Options{HashMB: 4}, nil)
	pos := mustFEN(t, BenchFENs[13])
	w := s.workers[0]
	moves := rootMoves(&pos, nil, nil)
	allocs := testing.AllocsPerRun(5, func() {
		s.tt.newSearch()
		w.newSearch()
		w.setRoot(&pos, nil, moves)
		s.limits = Limits{Depth: 8}
		w.iterate(nil)
	})
	if allocs != 0 {
		t.Errorf("a depth-8 search allocates %v times, want 0", allocs)
	}
}

func TestCanStepMatchesMoveCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 3000; i++ {
		var p engine.Position
		for sq := 1; sq <= 32; sq++ {
			switch rng.IntN(6) {
			case 0:
				p.SetPiece(sq, engine.BlackMan)
			case 1:
				p.SetPiece(sq, engine.WhiteMan)
			case 2:
				p.SetPiece(sq, engine.BlackKing+engine.Piece(rng.IntN(2)))
			}
		}
		p.Side = engine.Color(rng.IntN(2))
		if p.HasCapture() {
			continue
		}
		if got, want := canStep(&p), p.CountMoves() > 0; got != want {
			t.Fatalf("%s: canStep %v, CountMoves %d", p.FEN(), got, p.CountMoves())
		}
	}
}

func TestRandomTiesPicksAmongEqualBest(t *testing.T) {
	pos := engine.StartPosition()
	const depth = 3
	// The exact score of every root move, each searched alone.
	exact := map[engine.Move]Score{}
	best := -infinity
	for _, rm := range rootMoves(&pos, nil, nil) {
		r := New(Options{HashMB: 1}, nil).Search(context.Background(), pos, nil, Limits{Depth: depth, SearchMoves: []engine.Move{rm.move}}, nil)
		exact[rm.move] = r.Score
		best = max(best, r.Score)
	}
	ties := 0
	for _, sc := range exact {
		if sc == best {
			ties++
		}
	}
	if ties < 2 {
		t.Fatalf("the test needs tied best moves at depth %d; scores %v", depth, exact)
	}
	chosen := map[engine.Move]bool{}
	for seed := uint64(0); seed < 30; seed++ {
		r := New(Options{HashMB: 1, RandomTies: true, Seed: seed}, nil).Search(context.Background(), pos, nil, Limits{Depth: depth}, nil)
		if exact[r.Best] != best || r.Score != best {
			t.Fatalf("seed %d chose %v scoring %v (reported %v), best is %v", seed, r.Best, exact[r.Best], r.Score, best)
		}
		chosen[r.Best] = true
	}
	if len(chosen) < 2 {
		t.Errorf("30 seeds always chose %v among %d tied moves", chosen, ties)
	}
	// Without RandomTies the choice does not depend on the seed.
	a := New(Options{HashMB: 1, Seed: 1}, nil).Search(context.Background(), pos, nil, Limits{Depth: depth}, nil)
	b := New(Options{HashMB: 1, Seed: 2}, nil).Search(context.Background(), pos, nil, Limits{Depth: depth}, nil)
	if a.Best != b.Best {
		t.Errorf("without RandomTies, seeds 1 and 2 chose %v and %v", a.Best, b.Best)
	}
}

func TestIllegalSearchMovesIgnored(t *testing.T) {
	pos := engine.StartPosition()
	r := New(Options{HashMB: 1}, nil).Search(context.Background(), pos, nil, Limits{Depth: 3, SearchMoves: []engine.Move{{From: 30, To: 0}}}, nil)
	if !r.HasMove {
		t.Error("a searchmoves list with no legal move made the search report no move")
	}
}

func TestInstantStopStillSearchesOnePly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pos := mustFEN(t, BenchFENs[20])
	r := New(Options{HashMB: 1}, nil).Search(ctx, pos, nil, Limits{Infinite: true}, nil)
	if !r.HasMove || r.Depth < 1 || r.Score < -WinScore || r.Score > WinScore {
		t.Errorf("search stopped before it began: %+v, want a move searched to depth 1 with a real score", r)
	}
}

// TestHistorySetCoversHistory checks, along a game of searches, that every
// nonzero history entry is marked in historySet, so that newSearch's
// halving of the marked entries halves them all.
func TestHistorySetCoversHistory(t *testing.T) {
	s := New(Options{HashMB: 1}, nil)
	pos := engine.StartPosition()
	var hist []engine.Position
	nonzero := 0
	for ply := 0; ply < 60; ply++ {
		r := s.Search(context.Background(), pos, hist, Limits{Depth: 5}, nil)
		if !r.HasMove {
			break
		}
		w := s.workers[0]
		for c := range w.history {
			for f := range w.history[c] {
				for to, v := range w.history[c][f] {
					if v != 0 {
						nonzero++
						if w.historySet[c<<6|f]&(1<<to) == 0 {
							t.Fatalf("ply %d: history[%d][%d][%d] = %d is not marked", ply, c, f, to, v)
						}
					}
				}
			}
		}
		hist = append(hist, pos)
		pos = pos.Play(r.Best)
	}
	if nonzero == 0 {
		t.Fatal("no history entry was ever set: the test checks nothing")
	}
}
