package protocol

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rs/zerolog"

	"github.com/nechecb/nechecb/engine"
	esession "github.com/nechecb/nechecb/internal/session"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// Config is what a Server is built from.
type Config struct {
	// Name, Version and Author identify the engine in the handshakes.
	Name, Version, Author string
	// Searcher runs the searches; required.
	Searcher Searcher
	// Options are the engine's options, in the order the handshakes announce
	// them (hidden ones are not announced): SessionOptions builds them from
	// the engine session's table with the server's own (LogFileOption,
	// LogLevelOption, HubPosLayoutOption) placed among them.
	Options []Option
	// Bench runs the bench command; nil makes bench answer with an error.
	Bench BenchFunc
	// Book is probed before searches; nil means the engine always searches.
	Book Book
	// LogOutput receives the logs unless the LogFile option names a file;
	// nil means os.Stderr. It must not be the protocol's output.
	LogOutput io.Writer
}

// Server serves the protocol on one input and one output. Its methods other
// than Serve are for setting it up before Serve is called.
type Server struct {
	cfg      Config
	out      *output
	log      zerolog.Logger
	logW     io.Writer // where the logs go: cfg.LogOutput or logFile
	logLevel string
	logFile  *os.File

	hub       bool           // the Hub dialect is in use
	hubLayout hubtext.Layout // how the Hub dialect reads pos=
	opts      optionSet      // options in force and as last set
	// startNotes are the lines the options set before Serve have to show.
	startNotes []string
	game       *esession.Game
	// noPosition holds the command that was refused last, when the latest
	// pos or position command was refused: go then answers with an error
	// instead of searching the game that was there before.
	noPosition string
	level      hubLevel

	search *activeSearch
	done   chan searchDone
}

// defaultLogLevel is the log level before any LogLevel option.
const defaultLogLevel = "warn"

// NewServer makes a server and puts every option's default in force by
// running its setter; a default that fails is an error.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Searcher == nil {
		return nil, errors.New("protocol: Config.Searcher is nil")
	}
	if cfg.LogOutput == nil {
		cfg.LogOutput = os.Stderr
	}
	s := &Server{cfg: cfg, done: make(chan searchDone, 1), logW: cfg.LogOutput, logLevel: defaultLogLevel}
	s.log = newLogger(s.logW, s.logLevel)
	opts := append([]Option(nil), cfg.Options...)
	for i := range opts {
		if opts[i].own != nil {
			set := opts[i].own(s)
			opts[i].decl.Set = func(v string) ([]string, error) { return nil, set(v) }
		}
	}
	var err error
	if s.opts, err = newOptionSet(opts); err != nil {
		return nil, fmt.Errorf("protocol: %w", err)
	}
	if err := s.opts.applyDefaults(); err != nil {
		return nil, fmt.Errorf("protocol: %w", err)
	}
	s.game = esession.NewGame(engine.StartPosition())
	s.level = defaultHubLevel
	return s, nil
}

// Serve reads commands from r and writes replies to w until quit or the end
// of r. It returns nil then, or the error that ended reading.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	s.out = newOutput(w)
	defer s.closeLog()
	defer s.out.close()
	for _, n := range s.startNotes {
		s.note(n)
	}
	s.startNotes = nil
	s.applyPending()
	lines := make(chan inputLine)
	readErr := make(chan error, 1)
	go readLines(r, lines, readErr)
	for {
		select {
		case in, ok := <-lines:
			if !ok {
				s.endOfInput()
				err := <-readErr
				if err == io.EOF {
					err = nil
				}
				return err
			}
			line := in.text
			s.log.Debug().Str("in", clip(line, maxLogged)).Msg("command")
			if in.size > 0 {
				s.errorf("line too long: %d bytes, more than %d; it starts %q", in.size, maxLineBytes, line)
				continue
			}
			if s.handle(line) {
				s.quit()
				return nil
			}
		case d := <-s.done:
			s.searchEnded(d)
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
	if s.hub {
		s.send(fmt.Sprintf("id name=%s version=%s author=%s", hubtext.Value(s.cfg.Name), hubtext.Value(s.cfg.Version), hubtext.Value(s.cfg.Author)))
		s.send("param name=variant value=english type=enum values=english")
		for i := range s.opts.opts {
			if o := &s.opts.opts[i]; !o.decl.Hidden {
				s.send(o.hubLine())
			}
		}
		s.send("wait")
		return
	}
	s.send("id name " + s.cfg.Name + " " + s.cfg.Version)
	s.send("id author " + s.cfg.Author)
	for i := range s.opts.opts {
		if o := &s.opts.opts[i]; !o.decl.Hidden {
			s.send(o.uciLine())
		}
	}
	s.send("uciok")
}

// send writes one protocol line.
func (s *Server) send(line string) {
	s.log.Debug().Str("out", line).Msg("reply")
	s.out.send(line)
}

// errorf reports a refused command in the dialect's error form. Quoted
// input is cut to its first maxQuoted characters and the whole message to
// maxMessage bytes, so that bad input never comes back at length.
func (s *Server) errorf(format string, args ...any) {
	msg := shortenMessage(fmt.Sprintf(format, args...))
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

// The log's timestamps are to the millisecond: a log that says when a go
// came and when its bestmove left must tell apart the moves of a fast game.
func init() { zerolog.TimeFieldFormat = "2006-01-02T15:04:05.000Z07:00" }

// newLogger makes a zerolog logger on w at the named level.
func newLogger(w io.Writer, level string) zerolog.Logger {
	lvl, err := zerolog.ParseLevel(level)
	if level == "off" || err != nil {
		lvl = zerolog.Disabled
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger()
}

// setLogFile sends the logs to file (appending), or to cfg.LogOutput when
// file is empty.
func (s *Server) setLogFile(file string) error {
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
	s.logFile, s.logW = f, w
	s.log = newLogger(w, s.logLevel)
	return nil
}

// setLogLevel sets how much is logged.
func (s *Server) setLogLevel(level string) error {
	s.logLevel = level
	s.log = newLogger(s.logW, level)
	return nil
}

// setHubLayout sets how the Hub dialect reads pos= (HubPosLayout).
func (s *Server) setHubLayout(name string) error {
	l, err := hubtext.ParseLayout(name)
	if err != nil {
		return err
	}
	s.hubLayout = l
	return nil
}

// setGame puts an accepted position command's game in force.
func (s *Server) setGame(g *esession.Game) {
	s.game = g
	s.noPosition = ""
}

// refusePosition reports a refused pos or position command (cmd) on one
// error line and leaves the server without a position: the game before it
// stays, but go refuses to search it until a position command is accepted
// or a new game starts.
func (s *Server) refusePosition(cmd, format string, args ...any) {
	s.errorf(cmd+": "+format, args...)
	s.noPosition = cmd
}

// positionMissing reports, with an error line, that go has no position to
// search because the latest position command was refused.
func (s *Server) positionMissing() bool {
	if s.noPosition == "" {
		return false
	}
	s.errorf("go: no position: the last %s command was refused; send a valid one", s.noPosition)
	return true
}

// closeLog closes the log file, if any, and sends the logs back to
// cfg.LogOutput.
func (s *Server) closeLog() {
	if s.logFile != nil {
		s.logFile.Close()
		s.logFile, s.logW = nil, s.cfg.LogOutput
		s.log = newLogger(s.logW, s.logLevel)
	}
}
