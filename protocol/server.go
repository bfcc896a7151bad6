package protocol

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rs/zerolog"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// Config is what a Server is built from.
type Config struct {
	// Name, Version and Author identify the engine in the handshakes.
	Name, Version, Author string
	// Searcher runs the searches; required.
	Searcher Searcher
	// Bench runs the bench command; nil makes bench answer with an error.
	Bench BenchFunc
	// OpenBook loads opening books for the Book and BookFile options; nil
	// means the build has no book and the engine always searches.
	OpenBook BookOpener
	// LogOutput receives the logs unless the LogFile option names a file;
	// nil means os.Stderr. It must not be the protocol's output.
	LogOutput io.Writer
}

// Server serves the protocol on one input and one output. Its methods other
// than Serve are for setting it up before Serve is called.
type Server struct {
	cfg     Config
	out     *output
	log     zerolog.Logger
	logFile *os.File

	hub          bool     // the Hub dialect is in use
	cur, pending Settings // options in force and as last set
	book         BookProber
	game         record
	level        hubLevel

	search *activeSearch
	done   chan searchDone
}

// NewServer makes a server with the default options, loading the default
// evaluator into cfg.Searcher.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Searcher == nil {
		return nil, errors.New("protocol: Config.Searcher is nil")
	}
	if cfg.LogOutput == nil {
		cfg.LogOutput = os.Stderr
	}
	s := &Server{cfg: cfg, cur: DefaultSettings(), done: make(chan searchDone, 1)}
	s.pending = s.cur
	s.log = newLogger(cfg.LogOutput, s.cur.LogLevel)
	if err := cfg.Searcher.LoadEvaluator(s.cur.Eval); err != nil {
		return nil, fmt.Errorf("protocol: default evaluator: %w", err)
	}
	cfg.Searcher.SetOptions(s.cur.searchOptions())
	s.game.reset(engine.StartPosition())
	s.level = defaultHubLevel
	return s, nil
}

// SetOption sets an option before serving, as setoption would; the change is
// applied when Serve starts.
func (s *Server) SetOption(name, value string) error {
	return setSetting(&s.pending, name, value)
}

// Serve reads commands from r and writes replies to w until quit or the end
// of r. It returns nil then, or the error that ended reading.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	s.out = newOutput(w)
	defer s.closeLog()
	defer s.out.close()
	s.applyPending()
	lines := make(chan string)
	readErr := make(chan error, 1)
	go readLines(r, lines, readErr)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				s.endOfInput()
				err := <-readErr
				if err == io.EOF {
					err = nil
				}
				return err
			}
			s.log.Debug().Str("in", line).Msg("command")
			if s.handle(line) {
				s.quit()
				return nil
			}
		case d := <-s.done:
			s.searchEnded(d)
		}
	}
}

// readLines sends every line of r, without its end of line, then closes
// lines and reports why reading ended.
func readLines(r io.Reader, lines chan<- string, readErr chan<- error) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			lines <- strings.TrimRight(line, "\r\n")
		}
		if err != nil {
			close(lines)
			readErr <- err
			return
		}
	}
}

// handle runs one command line and reports whether it was quit.
func (s *Server) handle(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	cmd := strings.ToLower(f[0])
	switch cmd {
	case "quit":
		return true
	case "uci", "hub":
		if s.busy() {
			return false
		}
		s.hub = cmd == "hub"
		s.handshake()
		return false
	}
	if s.hub {
		s.handleHub(cmd, line)
	} else {
		s.handleUCI(cmd, line, f[1:])
	}
	return false
}

// handshake sends the identification and the option list of the dialect.
func (s *Server) handshake() {
	def := DefaultSettings()
	if s.hub {
		s.send(fmt.Sprintf("id name=%s version=%s author=%s", hubtext.Value(s.cfg.Name), hubtext.Value(s.cfg.Version), hubtext.Value(s.cfg.Author)))
		s.send("param name=variant value=english type=enum values=english")
		for i := range options {
			s.send(options[i].hubLine(&def))
		}
		s.send("wait")
		return
	}
	s.send("id name " + s.cfg.Name + " " + s.cfg.Version)
	s.send("id author " + s.cfg.Author)
	for i := range options {
		s.send(options[i].uciLine(&def))
	}
	s.send("uciok")
}

// send writes one protocol line.
func (s *Server) send(line string) {
	s.log.Debug().Str("out", line).Msg("reply")
	s.out.send(line)
}

// errorf reports a refused command in the dialect's error form.
func (s *Server) errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.log.Info().Str("error", msg).Msg("command refused")
	if s.hub {
		s.send("error message=" + hubtext.Quote(msg))
		return
	}
	s.send("info string error: " + msg)
}

// note sends free text: info string (UCI-like) or info message (Hub).
func (s *Server) note(text string) {
	if s.hub {
		s.send("info message=" + hubtext.Quote(text))
		return
	}
	s.send("info string " + text)
}

// busy reports, with an error line, that a search is running.
func (s *Server) busy() bool {
	if s.search == nil {
		return false
	}
	s.errorf("busy: a search is running (send stop first)")
	return true
}

// applyPending puts the pending options in force. A change that fails is
// reported and the previous value kept, in both copies.
func (s *Server) applyPending() {
	old, next := s.cur, s.pending
	if next.Eval != old.Eval {
		if err := s.cfg.Searcher.LoadEvaluator(next.Eval); err != nil {
			s.errorf("Eval %q: %v; keeping %q", next.Eval, err, old.Eval)
			next.Eval = old.Eval
		} else {
			s.note("Eval " + next.Eval)
		}
	}
	if next.LogFile != old.LogFile || next.LogLevel != old.LogLevel {
		if err := s.openLog(next.LogFile, next.LogLevel); err != nil {
			s.errorf("LogFile %q: %v; keeping %q", next.LogFile, err, old.LogFile)
			next.LogFile = old.LogFile
		}
	}
	if next.Book != old.Book || next.BookFile != old.BookFile {
		next.BookFile = s.openBook(next, old)
	}
	if next.searchOptions() != old.searchOptions() {
		s.cfg.Searcher.SetOptions(next.searchOptions())
	}
	s.cur, s.pending = next, next
}

// openBook loads the book the options name, or drops it when Book is 0.
// It returns the BookFile value now in force.
func (s *Server) openBook(next, old Settings) string {
	// The hook for the opening book: cfg.OpenBook is set by the binary once
	// the book package exists; the server probes it before each search.
	if next.Book == 0 {
		s.book = nil
		return next.BookFile
	}
	if s.cfg.OpenBook == nil {
		s.note("Book: this build has no opening book; the engine searches every move")
		return next.BookFile
	}
	b, err := s.cfg.OpenBook(next.BookFile)
	if err != nil {
		s.errorf("BookFile %q: %v; keeping %q", next.BookFile, err, old.BookFile)
		return old.BookFile
	}
	s.book = b
	return next.BookFile
}

// newLogger makes a zerolog logger on w at the named level.
func newLogger(w io.Writer, level string) zerolog.Logger {
	lvl, err := zerolog.ParseLevel(level)
	if level == "off" || err != nil {
		lvl = zerolog.Disabled
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger()
}

// openLog sends the logs to file (appending), or to cfg.LogOutput when file
// is empty.
func (s *Server) openLog(file, level string) error {
	var w io.Writer = s.cfg.LogOutput
	var f *os.File
	if file != "" {
		var err error
		f, err = os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		w = f
	}
	s.closeLog()
	s.logFile = f
	s.log = newLogger(w, level)
	return nil
}

func (s *Server) closeLog() {
	if s.logFile != nil {
		s.logFile.Close()
		s.logFile = nil
	}
}
