// Package client drives an engine process through nechecb's protocol
// (PROTOCOL.md): the UCI-like dialect or the Hub dialect. It starts the
// process, does the handshake and sets options, sends positions and limits,
// and reads the reply of each search with a deadline. It judges nothing
// about the game: the caller checks the move it gets back.
package client

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// Dialect is the protocol dialect an engine speaks.
type Dialect int

const (
	// UCI is nechecb's UCI-like dialect.
	UCI Dialect = iota
	// Hub is the Hub dialect (Scan's protocol, version 2). The position is
	// sent as pydraughts sends it for English draughts (hubtext.Pydraughts,
	// nechecb's default reading), so that any engine pydraughts can drive
	// can be driven; moves are in real English numbering.
	Hub
)

// String returns "uci" or "hub".
func (d Dialect) String() string {
	if d == Hub {
		return "hub"
	}
	return "uci"
}

// Option is one engine option to set after the handshake.
type Option struct {
	Name, Value string
}

// Config says how to start an engine.
type Config struct {
	// Name is the engine's name in reports.
	Name string
	// Command is the program and its arguments.
	Command []string
	// Dir is the working directory; empty means the current one.
	Dir string
	// Env holds extra environment variables ("KEY=value") for the process.
	Env []string
	// Dialect is the protocol to speak.
	Dialect Dialect
	// Options are set after the handshake, in order.
	Options []Option
	// Timeout bounds the handshake and each wait beyond a search's own time.
	Timeout time.Duration
}

// Fault kinds, wrapped by the errors the client returns, so that a caller
// can tell them apart with errors.Is.
var (
	// ErrCrashed means the process exited or closed its output.
	ErrCrashed = errors.New("engine crashed")
	// ErrTimeout means no answer came before the deadline.
	ErrTimeout = errors.New("engine hung")
	// ErrProtocol means the engine sent something the protocol does not
	// allow where an answer was expected.
	ErrProtocol = errors.New("protocol violation")
)

// Limits are the limits of one search. Zero fields are not sent.
type Limits struct {
	Depth    int
	Nodes    int64
	MoveTime time.Duration
	// Time and Inc are the remaining clock time and increment of each side,
	// indexed by engine.Color; HasClock says whether they are sent.
	HasClock bool
	Time     [2]time.Duration
	Inc      [2]time.Duration
}

// Reply is an engine's answer to one search.
type Reply struct {
	// Move is the move as the engine wrote it; empty when it said it has no
	// legal move.
	Move string
	// Score is the last score reported, in centipawns for the side to move;
	// a win in n plies is engine.WinScore-n, a loss the negative. HasScore
	// says whether one was reported.
	Score    int
	HasScore bool
	// Claim is the engine's last claim ("win ...", "loss ...", "draw ..."),
	// empty if none.
	Claim string
	// Book is set when the engine said it played from its book.
	Book bool
	// Elapsed is the time from sending the search to reading the move.
	Elapsed time.Duration
}

// WinScore is the score given to a reported win (minus its length in plies).
const WinScore = 100000

// Engine is a running engine process. It is used by one goroutine at a time.
type Engine struct {
	cfg    Config
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	exited chan struct{}
	stderr *tailBuffer
	waitMu sync.Mutex
	waited error
}

// Start runs the engine, does the handshake, sets the options and waits until
// it is ready.
func Start(cfg Config) (*Engine, error) {
	if len(cfg.Command) == 0 {
		return nil, fmt.Errorf("engine %s: no command", cfg.Name)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir = cfg.Dir
	if len(cfg.Env) > 0 {
		cmd.Env = append(os.Environ(), cfg.Env...)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	e := &Engine{cfg: cfg, cmd: cmd, stdin: stdin, lines: make(chan string, 256), exited: make(chan struct{}), stderr: &tailBuffer{max: 2048}}
	cmd.Stderr = e.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("engine %s: %w", cfg.Name, err)
	}
	go e.read(stdout)
	if err := e.handshake(); err != nil {
		e.Kill()
		return nil, fmt.Errorf("engine %s: %w", cfg.Name, err)
	}
	return e, nil
}

// read passes stdout lines to e.lines until the output closes, then waits
// for the process.
func (e *Engine) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		e.lines <- strings.TrimRight(sc.Text(), "\r")
	}
	close(e.lines)
	err := e.cmd.Wait()
	e.waitMu.Lock()
	e.waited = err
	e.waitMu.Unlock()
	close(e.exited)
}

// PID returns the process id.
func (e *Engine) PID() int { return e.cmd.Process.Pid }

// Name returns the engine's name.
func (e *Engine) Name() string { return e.cfg.Name }

func (e *Engine) send(format string, args ...any) error {
	if _, err := fmt.Fprintf(e.stdin, format+"\n", args...); err != nil {
		return fmt.Errorf("%w: writing to it: %v", ErrCrashed, err)
	}
	return nil
}

// expect reads lines until one satisfies done or the deadline passes.
func (e *Engine) expect(deadline time.Time, what string, done func(line string) (bool, error)) error {
	total := time.Until(deadline)
	timer := time.NewTimer(total)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return e.crashError(what)
			}
			finished, err := done(line)
			if err != nil || finished {
				return err
			}
		case <-timer.C:
			return fmt.Errorf("%w: no %s within %v", ErrTimeout, what, total.Round(time.Millisecond))
		}
	}
}

// crashError describes an engine whose output closed: its exit status and
// the end of its stderr.
func (e *Engine) crashError(what string) error {
	select {
	case <-e.exited:
	case <-time.After(time.Second):
	}
	e.waitMu.Lock()
	status := e.waited
	e.waitMu.Unlock()
	detail := "it exited"
	if status != nil {
		detail = status.Error()
	}
	err := fmt.Errorf("%w while waiting for %s (%s)", ErrCrashed, what, detail)
	if tail := e.stderr.String(); tail != "" {
		err = fmt.Errorf("%w; its last stderr: %s", err, tail)
	}
	return err
}

func (e *Engine) handshake() error {
	deadline := time.Now().Add(e.cfg.Timeout)
	if e.cfg.Dialect == Hub {
		if err := e.send("hub"); err != nil {
			return err
		}
		if err := e.expect(deadline, "wait", func(l string) (bool, error) { return l == "wait", nil }); err != nil {
			return err
		}
		for _, o := range e.cfg.Options {
			if err := e.send("set-param name=%s value=%s", o.Name, hubtext.Value(o.Value)); err != nil {
				return err
			}
		}
		if err := e.send("init"); err != nil {
			return err
		}
		return e.expect(deadline, "ready", e.readyLine("ready"))
	}
	if err := e.send("uci"); err != nil {
		return err
	}
	if err := e.expect(deadline, "uciok", func(l string) (bool, error) { return l == "uciok", nil }); err != nil {
		return err
	}
	for _, o := range e.cfg.Options {
		if err := e.send("setoption name %s value %s", o.Name, o.Value); err != nil {
			return err
		}
	}
	if err := e.send("isready"); err != nil {
		return err
	}
	return e.expect(deadline, "readyok", e.readyLine("readyok"))
}

// readyLine waits for the ready answer, turning an error line about an
// option into a failure: an engine that refuses its options would play a
// different match than asked for.
func (e *Engine) readyLine(ready string) func(string) (bool, error) {
	return func(l string) (bool, error) {
		if l == ready {
			return true, nil
		}
		if msg, ok := strings.CutPrefix(l, "info string error: "); ok {
			return false, fmt.Errorf("refused an option: %s", msg)
		}
		if strings.HasPrefix(l, "error ") {
			return false, fmt.Errorf("refused an option: %s", l)
		}
		return false, nil
	}
}

// NewGame tells the engine a new game follows and waits until it is ready.
func (e *Engine) NewGame() error {
	deadline := time.Now().Add(e.cfg.Timeout)
	if e.cfg.Dialect == Hub {
		if err := e.send("new-game"); err != nil {
			return err
		}
		if err := e.send("ping"); err != nil {
			return err
		}
		return e.expect(deadline, "pong", func(l string) (bool, error) { return l == "pong", nil })
	}
	if err := e.send("ucinewgame"); err != nil {
		return err
	}
	if err := e.send("isready"); err != nil {
		return err
	}
	return e.expect(deadline, "readyok", func(l string) (bool, error) { return l == "readyok", nil })
}

// Go sends the game so far (start and moves) and the limits, and waits for
// the move until wait has passed.
func (e *Engine) Go(start engine.Position, moves []engine.Move, lim Limits, wait time.Duration) (Reply, error) {
	var err error
	if e.cfg.Dialect == Hub {
		err = e.goHub(start, moves, lim)
	} else {
		err = e.goUCI(start, moves, lim)
	}
	if err != nil {
		return Reply{}, err
	}
	began := time.Now()
	var r Reply
	parse := parseUCILine
	if e.cfg.Dialect == Hub {
		parse = parseHubLine
	}
	err = e.expect(began.Add(wait), "move", func(l string) (bool, error) {
		return parse(l, &r)
	})
	r.Elapsed = time.Since(began)
	return r, err
}

func (e *Engine) goUCI(start engine.Position, moves []engine.Move, lim Limits) error {
	var sb strings.Builder
	sb.WriteString("position fen " + start.FEN())
	if len(moves) > 0 {
		sb.WriteString(" moves")
		for _, m := range moves {
			sb.WriteString(" " + m.String())
		}
	}
	if err := e.send("%s", sb.String()); err != nil {
		return err
	}
	goCmd := "go"
	if lim.Depth > 0 {
		goCmd += fmt.Sprintf(" depth %d", lim.Depth)
	}
	if lim.Nodes > 0 {
		goCmd += fmt.Sprintf(" nodes %d", lim.Nodes)
	}
	if lim.MoveTime > 0 {
		goCmd += fmt.Sprintf(" movetime %d", lim.MoveTime.Milliseconds())
	}
	if lim.HasClock {
		goCmd += fmt.Sprintf(" wtime %d btime %d winc %d binc %d",
			max(1, lim.Time[engine.White].Milliseconds()), max(1, lim.Time[engine.Black].Milliseconds()),
			lim.Inc[engine.White].Milliseconds(), lim.Inc[engine.Black].Milliseconds())
	}
	return e.send("%s", goCmd)
}

func (e *Engine) goHub(start engine.Position, moves []engine.Move, lim Limits) error {
	cmd := "pos pos=" + hubtext.Position(&start, hubtext.Pydraughts)
	if len(moves) > 0 {
		parts := make([]string, len(moves))
		for i, m := range moves {
			parts[i] = hubtext.Move(m)
		}
		cmd += ` moves="` + strings.Join(parts, " ") + `"`
	}
	if err := e.send("%s", cmd); err != nil {
		return err
	}
	level := "level infinite"
	switch {
	case lim.Depth > 0:
		level = fmt.Sprintf("level depth=%d", lim.Depth)
	case lim.Nodes > 0:
		level = fmt.Sprintf("level nodes=%d", lim.Nodes)
	case lim.MoveTime > 0:
		level = fmt.Sprintf("level move-time=%.3f", lim.MoveTime.Seconds())
	case lim.HasClock:
		side := start.Side
		if len(moves)%2 == 1 {
			side = side.Opponent()
		}
		level = fmt.Sprintf("level time=%.3f inc=%.3f", lim.Time[side].Seconds(), lim.Inc[side].Seconds())
	}
	if err := e.send("%s", level); err != nil {
		return err
	}
	return e.send("go think")
}

// parseUCILine reads one line of a UCI-like search reply into r; it returns
// true at bestmove.
func parseUCILine(l string, r *Reply) (bool, error) {
	f := strings.Fields(l)
	if len(f) == 0 {
		return false, nil
	}
	switch f[0] {
	case "bestmove":
		if len(f) < 2 {
			return true, fmt.Errorf("%w: %q has no move", ErrProtocol, l)
		}
		if f[1] != "(none)" {
			r.Move = f[1]
		}
		return true, nil
	case "info":
		if len(f) >= 3 && f[1] == "string" {
			switch f[2] {
			case "claim":
				r.Claim = strings.Join(f[3:], " ")
			case "book":
				r.Book = true
			}
			return false, nil
		}
		for i := 1; i+2 < len(f); i++ {
			if f[i] == "score" {
				readScore(f[i+1], f[i+2], r)
			}
		}
	}
	return false, nil
}

// readScore reads "cp N", "win N" or "loss N".
func readScore(kind, value string, r *Reply) {
	n, err := strconv.Atoi(value)
	if err != nil {
		return
	}
	switch kind {
	case "cp":
		r.Score = n
	case "win":
		r.Score = WinScore - n
	case "loss":
		r.Score = -WinScore + n
	default:
		return
	}
	r.HasScore = true
}

// Close asks the engine to quit and kills it if it has not exited within a
// second.
func (e *Engine) Close() {
	_ = e.send("quit")
	_ = e.stdin.Close()
	select {
	case <-e.exited:
	case <-time.After(time.Second):
		e.Kill()
	}
}

// Kill ends the process at once and waits for it.
func (e *Engine) Kill() {
	_ = e.cmd.Process.Kill()
	_ = e.stdin.Close()
	go func() { // drain, so the reader can reach Wait
		for range e.lines {
		}
	}()
	select {
	case <-e.exited:
	case <-time.After(5 * time.Second):
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 && len(s)-i < 300 {
		// Keep the last few lines only.
		lines := strings.Split(s, "\n")
		s = strings.Join(lines[max(0, len(lines)-3):], " | ")
	}
	if len(s) > 300 {
		s = s[len(s)-300:]
	}
	return s
}
