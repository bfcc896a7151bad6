// Package session is the one engine session behind every front end (the
// protocol server, the CheckerBoard plugin, the console): the search and
// its evaluator, the opening book and its randomness, and the endgame
// database, configured through one declarative option table, and the game
// a front end plays (Game: its positions and moves, its result by the
// rules, take-backs). A new option is one entry in the table (table.go),
// and every front end has it: the protocol announces it, CheckerBoard's
// set/get/help and the console's set command and flags reach it by name.
//
// A Session is not safe for concurrent use: a front end changes options
// between searches.
package session

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
)

// Config sets a Session up.
type Config struct {
	// Defaults replace the table's defaults by option name: the binary's
	// default evaluator, or a front end's own (CheckerBoard, in the same
	// process, keeps no time back for communication).
	Defaults map[string]string
	// Resolve finds a file the user named (BookFile, DBPath, the file of an
	// Eval spec); nil takes names as they are.
	Resolve func(string) string
}

// Session is one engine with its settings.
type Session struct {
	eng     *player.Engine
	book    openingBook
	resolve func(string) string
	opts    []Option // the table, Set bound to the session
	vals    []string // the value in force of each option
	ready   bool     // the front end called Ready: Set prepares the engine
}

// New makes a session and puts every option's default in force. A default
// of Config.Defaults that is not a valid value, or that does not take (an
// evaluator that does not load), is an error naming the option.
func New(cfg Config) (*Session, error) {
	// The table is made at the Hash default's size at once, not made at
	// the search's and then resized: memory a WebAssembly program took
	// once (the browser build) is never given back to the browser.
	var first player.Options
	if mb, err := strconv.Atoi(cfg.Defaults["Hash"]); err == nil && mb > 0 {
		first.HashMB = mb
	}
	s := &Session{eng: player.New(first, nil, ""), resolve: cfg.Resolve}
	if s.resolve == nil {
		s.resolve = func(name string) string { return name }
	}
	s.book.resolve = s.resolve
	s.opts = s.table()
	s.vals = make([]string, len(s.opts))
	for i := range s.opts {
		o := &s.opts[i]
		if v, ok := cfg.Defaults[o.Name]; ok {
			o.Default = v
		}
		if err := o.Validate(); err != nil {
			return nil, fmt.Errorf("option %d: %w", i+1, err)
		}
		s.vals[i] = o.Default
		set := o.Set
		if _, err := set(o.Default); err != nil {
			return nil, fmt.Errorf("option %s: default %q: %w", o.Name, o.Default, err)
		}
		o.Set = func(v string) ([]string, error) {
			notes, err := set(v)
			if err == nil {
				s.vals[i] = v
			}
			return notes, err
		}
	}
	for name := range cfg.Defaults {
		if Find(s.opts, name) < 0 {
			return nil, fmt.Errorf("a default for unknown option %q", name)
		}
	}
	return s, nil
}

// Options returns the option table, with each default as this session put
// it in force and each setter bound to the session (a value it sets is
// what Get returns). Front ends build their settings from it.
func (s *Session) Options() []Option { return append([]Option(nil), s.opts...) }

// Set checks value for the option called name (any case) and puts it in
// force; once the front end has called Ready, it also readies the engine
// for it (a new hash table is mapped now, not on the next move's clock).
// It returns the setter's remarks; on an error, which names the option and
// what was wrong, the value in force stays. Call it between searches.
func (s *Session) Set(name, value string) (notes []string, err error) {
	i, err := s.find(name)
	if err != nil {
		return nil, err
	}
	o := &s.opts[i]
	v, err := o.Check(strings.TrimSpace(value))
	if err != nil {
		return nil, fmt.Errorf("option %s: %v", o.Name, err)
	}
	if notes, err = o.Set(v); err != nil {
		return nil, fmt.Errorf("option %s %q: %w", o.Name, v, err)
	}
	if s.ready {
		s.eng.Prepare()
	}
	return notes, nil
}

// Ready readies the engine for the options in force (player.Engine.Prepare:
// the hash table is mapped now, not on the first move's clock). A front end
// calls it once its start-up settings are made, so that a table they
// replace is never mapped; from then on Set readies the engine after each
// change.
func (s *Session) Ready() {
	s.ready = true
	s.eng.Prepare()
}

// Get returns the value in force of the option called name (any case).
func (s *Session) Get(name string) (string, error) {
	i, err := s.find(name)
	if err != nil {
		return "", err
	}
	return s.vals[i], nil
}

// find looks an option up by name; the error for an unknown name lists the
// announced options.
func (s *Session) find(name string) (int, error) {
	if i := Find(s.opts, name); i >= 0 {
		return i, nil
	}
	var names []string
	for _, o := range s.opts {
		if !o.Hidden {
			names = append(names, o.Name)
		}
	}
	return 0, fmt.Errorf("unknown option %q (known: %s)", name, strings.Join(names, ", "))
}

// Engine returns the search with its evaluator and endgame database.
func (s *Session) Engine() *player.Engine { return s.eng }

// Probe returns a move of the opening book for pos, reached after the
// positions history (oldest first), under the Book option's level; ok is
// false when the book has none or is switched off.
func (s *Session) Probe(pos engine.Position, history []engine.Position) (m engine.Move, ok bool) {
	return s.book.probe(pos, history)
}

// Table returns the option table with defaults replaced as
// Config.Defaults replaces them, and no setters: what a front end declares
// (its flags, say) before it makes the session.
func Table(defaults map[string]string) []Option {
	opts := (&Session{}).table()
	for i := range opts {
		opts[i].Set = nil
		if v, ok := defaults[opts[i].Name]; ok {
			opts[i].Default = v
		}
	}
	return opts
}
