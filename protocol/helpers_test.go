package protocol

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	_ "github.com/nechecb/nechecb/eval/all" // the test options' default evaluator
	"github.com/nechecb/nechecb/internal/player"
)

// fakeSearcher stands in for the engine's searcher. It picks the first
// allowed legal move and reports one progress line per depth. With a depth
// limit it returns after that depth; otherwise it runs until its context is
// cancelled or its move time runs out. It never waits for ponderhit itself,
// so that the server's own holding of bestmove is what the tests see.
type fakeSearcher struct {
	mu       sync.Mutex
	opts     player.Options
	spec     string // the evaluator loaded last
	evals    int
	clears   int
	hits     int
	prepared int // HashMB in force at the last Prepare (0: none yet)
	searches int
	history  int           // length of the last history passed in
	limits   player.Limits // the last limits passed in
	score    player.Score
	perDepth time.Duration // pause between depths
	factory  eval.Factory
}

func (f *fakeSearcher) SetOptions(o player.Options) { f.mu.Lock(); f.opts = o; f.mu.Unlock() }
func (f *fakeSearcher) Options() player.Options     { f.mu.Lock(); defer f.mu.Unlock(); return f.opts }
func (f *fakeSearcher) Evaluator() string           { f.mu.Lock(); defer f.mu.Unlock(); return f.spec }
func (f *fakeSearcher) Clear()                      { f.mu.Lock(); f.clears++; f.mu.Unlock() }
func (f *fakeSearcher) PonderHit()                  { f.mu.Lock(); f.hits++; f.mu.Unlock() }
func (f *fakeSearcher) Prepare()                    { f.mu.Lock(); f.prepared = f.opts.HashMB; f.mu.Unlock() }

// LoadEvaluator loads spec for real, so that bad specs fail as they would.
func (f *fakeSearcher) LoadEvaluator(spec string) error {
	fac, err := eval.Load(spec)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.factory, f.spec = fac, spec
	f.evals++
	f.mu.Unlock()
	return nil
}

func (f *fakeSearcher) Evaluate(p *engine.Position) (float64, int) {
	f.mu.Lock()
	ev := f.factory()
	f.mu.Unlock()
	return ev.Raw(p), ev.Evaluate(p)
}

func (f *fakeSearcher) snapshot() fakeSearcher {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fakeSearcher{opts: f.opts, evals: f.evals, clears: f.clears, hits: f.hits, prepared: f.prepared, searches: f.searches, history: f.history, limits: f.limits}
}

func (f *fakeSearcher) Search(ctx context.Context, root engine.Position, history []engine.Position, limits player.Limits, progress func(player.Info)) player.Result {
	f.mu.Lock()
	f.searches++
	f.history = len(history)
	f.limits = limits
	score, pause := f.score, f.perDepth
	f.mu.Unlock()
	var l engine.MoveList
	root.Generate(&l)
	best := l.Moves[0]
	if len(limits.SearchMoves) > 0 {
		best = limits.SearchMoves[0]
	}
	pv := []engine.Move{best}
	after := root.Play(best)
	if replies := after.LegalMoves(); len(replies) > 0 {
		pv = append(pv, replies[0])
	}
	res := player.Result{Best: best, HasMove: true, Score: score, PV: pv, Ponder: pv[len(pv)-1], HasPonder: len(pv) > 1}
	var deadline <-chan time.Time
	if limits.MoveTime > 0 {
		deadline = time.After(limits.MoveTime)
	}
	for depth := 1; limits.Depth == 0 || depth <= limits.Depth; depth++ {
		select {
		case <-ctx.Done():
			return res
		case <-deadline:
			return res
		case <-time.After(pause):
		}
		res.Depth = depth
		progress(player.Info{Depth: depth, SelDepth: depth, Score: score, Nodes: uint64(depth * 10), PV: pv})
	}
	return res
}

// optionTarget is what the test options configure: the fake searcher or the
// engine's own.
type optionTarget interface {
	Options() player.Options
	SetOptions(player.Options)
	LoadEvaluator(spec string) error
}

// testDefaultEval is the test options' default evaluator.
const testDefaultEval = "pattern"

// testOptions declares the same options as the binary (cmd/nechecb, whose
// own test checks them against PROTOCOL.md), bound to t and b, so that the
// handshake and the golden transcript here are the real ones; two hidden
// options, ExpNoLMR and HubPosLayout, are among them.
func testOptions(t optionTarget, b *fakeBook) []Option {
	search := func(change func(*player.Options)) {
		o := t.Options()
		change(&o)
		t.SetOptions(o)
	}
	spin := func(name string, def, lo, hi int, field func(*player.Options) *int) Option {
		return SpinOption(name, def, lo, hi, func(n int) error { search(func(o *player.Options) { *field(o) = n }); return nil })
	}
	return []Option{
		spin("Hash", 64, 1, 4096, func(o *player.Options) *int { return &o.HashMB }),
		spin("Threads", 1, 1, 256, func(o *player.Options) *int { return &o.Threads }),
		spin("MultiPV", 1, 1, 64, func(o *player.Options) *int { return &o.MultiPV }),
		CheckOption("Ponder", false, nil),
		SpinOption("MoveOverhead", 30, 0, 5000, func(n int) error {
			search(func(o *player.Options) { o.MoveOverhead = time.Duration(n) * time.Millisecond })
			return nil
		}),
		SpinOption("Book", 0, 0, 3, func(n int) error { b.level = n; return nil }),
		StringOption("BookFile", "", func(file string) error {
			if file == "bad" {
				return errors.New("not a book")
			}
			b.opened = append(b.opened, file)
			return nil
		}),
		StringOption("Eval", testDefaultEval, t.LoadEvaluator).Confirm(),
		CheckOption("RandomTies", false, func(on bool) error { search(func(o *player.Options) { o.RandomTies = on }); return nil }),
		SpinOption("Seed", 0, 0, 1<<31-1, func(n int) error { search(func(o *player.Options) { o.Seed = uint64(n) }); return nil }),
		LogFileOption(),
		LogLevelOption(),
		StringOption("DBPath", "", nil),
		SpinOption("DBCache", 64, 1, 65536, nil),
		CheckOption("ExpNoLMR", false, func(on bool) error { search(func(o *player.Options) { o.Tuning.NoLMR = on }); return nil }).Hide(),
		HubPosLayoutOption(),
	}
}

// testSearchDefaults are the search options the test options' defaults set.
var testSearchDefaults = player.Options{HashMB: 64, Threads: 1, MultiPV: 1, MoveOverhead: 30 * time.Millisecond}

// fakeBook knows one move from the start position; it answers only when
// the Book option's level is above 0.
type fakeBook struct {
	level  int      // the Book option
	probed int      // the level at the last probe
	opened []string // the BookFile values put in force
}

func (b *fakeBook) Probe(pos engine.Position, _ []engine.Position) (engine.Move, bool) {
	b.probed = b.level
	if b.level == 0 || pos.FEN() != engine.StartFEN {
		return engine.Move{}, false
	}
	m, err := pos.ParseMove("11-15")
	return m, err == nil
}

// session drives a Server through in-memory pipes.
type session struct {
	t     testing.TB
	fake  *fakeSearcher
	book  *fakeBook
	srv   *Server
	in    *io.PipeWriter
	out   lineQueue
	done  chan error
	log   strings.Builder // every line sent and received, for failure messages
	logMu sync.Mutex
}

// newSession starts a server with a fake searcher (or cfg's own searcher),
// the test options (or cfg's own) and a fake book (or cfg's own).
func newSession(t testing.TB, cfg Config) *session {
	t.Helper()
	s := &session{t: t, out: lineQueue{notify: make(chan struct{}, 1)}, done: make(chan error, 1), book: &fakeBook{}}
	if cfg.Searcher == nil {
		s.fake = &fakeSearcher{perDepth: time.Millisecond}
		cfg.Searcher = s.fake
	}
	if cfg.Options == nil {
		cfg.Options = testOptions(cfg.Searcher.(optionTarget), s.book)
	}
	if cfg.Book == nil {
		cfg.Book = s.book
	}
	cfg.Name, cfg.Version, cfg.Author = "nechecb", "9.9", "the nechecb authors"
	if cfg.LogOutput == nil {
		cfg.LogOutput = io.Discard
	}
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.srv = srv
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s.in = inW
	go func() {
		s.done <- srv.Serve(inR, outW)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.record("< " + sc.Text())
			s.out.push(sc.Text())
		}
		s.out.close()
	}()
	t.Cleanup(func() { inW.Close() })
	return s
}

func (s *session) record(line string) {
	s.logMu.Lock()
	s.log.WriteString(line + "\n")
	s.logMu.Unlock()
}

func (s *session) transcript() string {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return s.log.String()
}

// send writes command lines to the server.
func (s *session) send(lines ...string) {
	s.t.Helper()
	for _, line := range lines {
		s.record("> " + line)
		if _, err := io.WriteString(s.in, line+"\n"); err != nil {
			s.t.Fatalf("send %q: %v", line, err)
		}
	}
}

// waitLimit guards against a hang; it is not a speed requirement.
const waitLimit = 10 * time.Second

// lineQueue holds the server's output lines without limit, so that the
// server never waits for a test that is busy sending.
type lineQueue struct {
	mu     sync.Mutex
	lines  []string
	closed bool
	notify chan struct{}
}

func (q *lineQueue) push(line string) {
	q.mu.Lock()
	q.lines = append(q.lines, line)
	q.mu.Unlock()
	q.wake()
}

func (q *lineQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.wake()
}

func (q *lineQueue) wake() {
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// pop waits up to d for a line; ok is false when the output has ended or
// the time ran out (then timedOut is set).
func (q *lineQueue) pop(d time.Duration) (line string, ok, timedOut bool) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		q.mu.Lock()
		if len(q.lines) > 0 {
			line = q.lines[0]
			q.lines = q.lines[1:]
			q.mu.Unlock()
			return line, true, false
		}
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return "", false, false
		}
		select {
		case <-q.notify:
		case <-timer.C:
			return "", false, true
		}
	}
}

// next returns the next output line.
func (s *session) next() string {
	s.t.Helper()
	line, ok, timedOut := s.out.pop(waitLimit)
	switch {
	case timedOut:
		s.t.Fatalf("no output for %v; transcript:\n%s", waitLimit, s.transcript())
	case !ok:
		s.t.Fatalf("output ended; transcript:\n%s", s.transcript())
	}
	return line
}

// rest returns the lines written until the output ends.
func (s *session) rest() []string {
	s.t.Helper()
	var out []string
	for {
		line, ok, timedOut := s.out.pop(waitLimit)
		if timedOut {
			s.t.Fatalf("output did not end; transcript:\n%s", s.transcript())
		}
		if !ok {
			return out
		}
		out = append(out, line)
	}
}

// expect checks that the next lines are exactly want.
func (s *session) expect(want ...string) {
	s.t.Helper()
	for _, w := range want {
		if got := s.next(); got != w {
			s.t.Fatalf("got %q, want %q; transcript:\n%s", got, w, s.transcript())
		}
	}
}

// until reads lines up to and including the first that starts with prefix
// and returns them all, that line last.
func (s *session) until(prefix string) []string {
	s.t.Helper()
	var got []string
	for {
		line := s.next()
		got = append(got, line)
		if strings.HasPrefix(line, prefix) {
			return got
		}
	}
}

// quiet checks that no line arrives for a short while.
func (s *session) quiet(d time.Duration) {
	s.t.Helper()
	if line, ok, _ := s.out.pop(d); ok {
		s.t.Fatalf("unexpected line %q; transcript:\n%s", line, s.transcript())
	}
}

// finish closes the input and checks that Serve returns nil and that no
// further line was written.
func (s *session) finish() {
	s.t.Helper()
	s.in.Close()
	s.exited()
}

// exited checks that Serve returns nil (after quit or the end of input)
// and writes nothing more.
func (s *session) exited() {
	s.t.Helper()
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Fatalf("Serve: %v", err)
		}
	case <-time.After(waitLimit):
		s.t.Fatalf("Serve did not return; transcript:\n%s", s.transcript())
	}
	if rest := s.rest(); len(rest) > 0 {
		s.t.Fatalf("unexpected lines at the end %q; transcript:\n%s", rest, s.transcript())
	}
}
