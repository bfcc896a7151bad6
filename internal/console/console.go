// Package console is nechecb's interactive console: a board in the terminal,
// moves typed in algebraic ("c3d4", "c3xe5xc7") or numeric ("11-15", "22x15")
// notation, an engine that can play either side, analyse or hint, and games
// saved and loaded as PDN. It reads lines through a LineReader, which is
// github.com/peterh/liner in a terminal (line editing, a history kept between
// runs, tab completion of commands and legal moves) and a scripted reader in
// tests.
package console

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/session"
)

// ErrInterrupted is what a LineReader returns when the user presses Ctrl-C at
// the prompt.
var ErrInterrupted = errors.New("interrupted")

// LineReader reads the user's lines.
type LineReader interface {
	// Prompt shows prompt and returns the line typed, without its newline.
	// It returns io.EOF when input ends (Ctrl-D) and ErrInterrupted on
	// Ctrl-C.
	Prompt(prompt string) (string, error)
	// AppendHistory records a line in the history.
	AppendHistory(line string)
}

// Config sets up a Session.
type Config struct {
	In  LineReader
	Out io.Writer
	// Engine searches with the options Settings set.
	Engine Engine
	// Settings are the engine's options: eval, db path and set change
	// them, saved games name the evaluator.
	Settings Settings
	// Interrupts delivers Ctrl-C presses made while the engine thinks (nil:
	// none).
	Interrupts <-chan struct{}
	Style      Style
	// Numeric shows moves in numeric notation rather than algebraic.
	Numeric bool
	// Now gives the date for saved games (nil: time.Now).
	Now func() time.Time
	// Start is the position the first game starts from (nil: the standard
	// start position).
	Start *engine.Position
}

// level is how long the engine thinks.
type level struct {
	kind     string // "depth", "time" or "movetime"
	depth    int
	game     time.Duration // the clock for "time"
	moveTime time.Duration
}

func (l level) String() string {
	switch l.kind {
	case "depth":
		return fmt.Sprintf("depth %d", l.depth)
	case "time":
		return fmt.Sprintf("time %g s for the game", l.game.Seconds())
	}
	return fmt.Sprintf("movetime %d ms", l.moveTime.Milliseconds())
}

// Session is one console session: a game, its settings and the engine.
type Session struct {
	cfg    Config
	out    *lockedWriter
	game   *session.Game
	redo   []engine.Move // moves taken back, the next to redo last
	loaded *pdn.Game     // the game last loaded, whose tags and comments a save keeps
	// loadedMoves are the moves of the loaded game as it was read (its
	// Record is the session's game and changes with it).
	loadedMoves []engine.Move
	engineOn    [2]bool // the sides the engine plays, by engine.Color
	level       level
	clock       [2]time.Duration // each side's remaining time under "level time"
	// report is the last progress report printed in the search under way.
	report lastReport
	// lastInterrupt is set after a Ctrl-C; a second one in a row leaves.
	lastInterrupt bool
	quit          bool
}

// NewSession starts a session on cfg.Start (the standard start position when
// nil), the engine playing the side that is not to move there, so that it
// answers the user's first move.
func NewSession(cfg Config) *Session {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Session{cfg: cfg, out: &lockedWriter{w: cfg.Out}}
	s.level = level{kind: "movetime", moveTime: time.Second}
	start := engine.StartPosition()
	if cfg.Start != nil {
		start = *cfg.Start
	}
	s.engineOn[start.Side.Opponent()] = true
	s.newGame(start)
	return s
}

// lockedWriter lets the search's progress reports and the session share the
// output.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (s *Session) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

// Loop reads and runs lines until quit, Ctrl-D or two Ctrl-C in a row, and
// returns the exit status.
func (s *Session) Loop() int {
	s.printf("nechecb console: type a move (c3d4, 11-15) or a command; 'help' lists them.\n")
	s.printf("The engine plays %s and answers your moves. 'play white|black|both|none'\n", s.engineSides())
	s.printf("changes its side ('none': you move both), 'go' makes it take the side to move,\n")
	s.printf("'analyze' analyses the position instead.\n")
	s.showBoard()
	for !s.quit {
		line, err := s.cfg.In.Prompt(s.prompt())
		switch {
		case errors.Is(err, ErrInterrupted):
			if s.lastInterrupt {
				s.printf("\n")
				return 0
			}
			s.lastInterrupt = true
			s.printf("(Ctrl-C again, Ctrl-D or 'quit' to leave)\n")
			continue
		case errors.Is(err, io.EOF):
			s.printf("\n")
			return 0
		case err != nil:
			s.printf("reading input: %v\n", err)
			return 1
		}
		s.lastInterrupt = false
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		s.cfg.In.AppendHistory(line)
		s.Execute(line)
	}
	return 0
}

// prompt shows the move number and the side to move.
func (s *Session) prompt() string {
	if s.over() {
		return "game over> "
	}
	cur := s.game.Current()
	num, _ := pdn.MoveNumber(s.game.Start().Side, s.game.Ply())
	return fmt.Sprintf("%d. %s> ", num, cur.Side)
}

// Execute runs one line: a command, or one or more moves.
func (s *Session) Execute(line string) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return
	}
	if c := findCommand(words[0]); c != nil {
		c.run(s, words[1:])
		return
	}
	if !looksLikeMove(words[0]) {
		s.printf("unknown command %q; type 'help' for the commands\n", words[0])
		return
	}
	s.playTyped(words)
}

// looksLikeMove reports whether a word starts like a move: a square number or
// a square name.
func looksLikeMove(w string) bool {
	if w == "" {
		return false
	}
	c := w[0] | 0x20
	return w[0] >= '0' && w[0] <= '9' || len(w) >= 2 && c >= 'a' && c <= 'h' && w[1] >= '1' && w[1] <= '8'
}

// playTyped plays the moves typed, stopping at the first bad one, then lets
// the engine answer when it plays the side to move.
func (s *Session) playTyped(words []string) {
	played := false
	for _, w := range words {
		if s.refuseIfOver() {
			break
		}
		cur := s.game.Current()
		m, err := cur.ParseMove(w)
		if err != nil {
			s.explainBadMove(&cur, w, err)
			break
		}
		s.play(m)
		played = true
	}
	if played {
		s.autoPlay()
		s.showBoard()
	}
}

// explainBadMove says why a typed move was refused and lists the legal moves.
func (s *Session) explainBadMove(pos *engine.Position, input string, err error) {
	var me *engine.MoveError
	if !errors.As(err, &me) {
		s.printf("%v\n", err)
		return
	}
	msg := fmt.Sprintf("%s move %q", me.Problem, input)
	if me.Detail != "" {
		msg += ": " + me.Detail
	}
	s.printf("%s\n", msg)
	s.listMoves(pos)
}

// listMoves prints the legal moves of pos in the chosen notation.
func (s *Session) listMoves(pos *engine.Position) {
	moves := pos.LegalMoves()
	if len(moves) == 0 {
		s.printf("no legal move\n")
		return
	}
	names := make([]string, len(moves))
	for i, m := range moves {
		names[i] = s.moveName(m)
	}
	s.printf("legal moves: %s\n", strings.Join(names, " "))
}

// moveName writes m in the chosen notation, full path.
func (s *Session) moveName(m engine.Move) string {
	if s.cfg.Numeric {
		return m.String()
	}
	return m.Algebraic()
}

// bothNames writes m in the chosen notation with the other in parentheses.
func (s *Session) bothNames(m engine.Move) string {
	if s.cfg.Numeric {
		return m.String() + " (" + m.Algebraic() + ")"
	}
	return m.Algebraic() + " (" + m.String() + ")"
}

// play plays a legal move and forgets the redo list. The board shown after
// it announces the end of the game.
func (s *Session) play(m engine.Move) {
	if err := s.game.Play(m); err != nil {
		s.printf("%v\n", err)
		return
	}
	s.redo = nil
}

// over reports whether the game has ended under the rules.
func (s *Session) over() bool { return s.game.Result().Outcome != engine.Ongoing }

// refuseIfOver says so and returns true when the game is over.
func (s *Session) refuseIfOver() bool {
	if r := s.game.Result(); r.Outcome != engine.Ongoing {
		s.printf("the game is over (%s); 'undo' or 'new' to go on\n", r)
		return true
	}
	return false
}

// newGame starts a fresh game from start.
func (s *Session) newGame(start engine.Position) {
	s.game = session.NewGame(start)
	s.redo = nil
	s.loaded, s.loadedMoves = nil, nil
	s.resetClock()
	if s.cfg.Engine != nil {
		s.cfg.Engine.Clear()
	}
}

func (s *Session) resetClock() { s.clock = [2]time.Duration{s.level.game, s.level.game} }

// lastMove returns the last move played, or nil.
func (s *Session) lastMove() *engine.Move {
	moves := s.game.Moves()
	if len(moves) == 0 {
		return nil
	}
	return &moves[len(moves)-1]
}

// showBoard prints the diagram and a status line.
func (s *Session) showBoard() {
	cur := s.game.Current()
	s.printf("%s", DrawBoard(&cur, s.lastMove(), s.cfg.Style))
	status := fmt.Sprintf("%s to move", capitalize(cur.Side.String()))
	if r := s.game.Result(); r.Outcome != engine.Ongoing {
		status = "Game over: " + r.String() + " " + r.PDN()
	}
	if m := s.lastMove(); m != nil {
		status += ". Last move: " + s.bothNames(*m)
	}
	if s.over() {
		status += ". 'undo' or 'new' to go on"
	}
	s.printf("%s.\n", status)
}

func capitalize(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// evalSpec names the evaluator in force.
func (s *Session) evalSpec() string {
	v, _ := s.cfg.Settings.Get("Eval")
	return v
}
