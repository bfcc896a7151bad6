package protocol

import (
	"fmt"
	"strconv"
	"strings"

	esession "github.com/nechecb/nechecb/internal/session"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// Option is one option of the server: its declaration (name, kind,
// default, range and setter, the session's option type) as the handshakes
// announce it. The engine's options come from the session's table
// (SessionOptions); the server adds its own, and tests declare theirs with
// CheckOption, SpinOption, ComboOption and StringOption. A value is checked
// (kind and range) when setoption (Hub: set-param) arrives and kept as a
// pending change; the setter runs at the next isready (Hub: init) or go. A
// setter that fails is reported on one error line and the previous value
// stays in force; the notes of one that succeeds are sent, each on its own
// info line.
type Option struct {
	decl esession.Option
	// inForce marks an option whose default the session already put in
	// force: NewServer does not run its setter again.
	inForce bool
	// own marks the server's own options: NewServer binds the setter to
	// itself.
	own func(*Server) func(string) error
}

// emptyString is how UCI writes an empty string value.
const emptyString = "<empty>"

// uciType and hubType name a kind in each dialect.
var (
	uciType = map[esession.Kind]string{esession.Check: "check", esession.Spin: "spin", esession.Combo: "combo", esession.String: "string"}
	hubType = map[esession.Kind]string{esession.Check: "bool", esession.Spin: "int", esession.Combo: "enum", esession.String: "string"}
)

// setter adapts a setter without notes; nil stays nil (store only).
func setter[T any](set func(T) error, read func(string) (T, error)) func(string) ([]string, error) {
	if set == nil {
		return nil
	}
	return func(v string) ([]string, error) {
		x, err := read(v)
		if err != nil {
			return nil, err
		}
		return nil, set(x)
	}
}

// CheckOption declares a true/false option. set (nil: store only) puts a
// value in force.
func CheckOption(name string, def bool, set func(bool) error) Option {
	return Option{decl: esession.Option{Name: name, Kind: esession.Check, Default: strconv.FormatBool(def),
		Set: setter(set, func(v string) (bool, error) { return v == "true", nil })}}
}

// SpinOption declares a whole-number option in lo..hi. set (nil: store
// only) puts a value in force.
func SpinOption(name string, def, lo, hi int, set func(int) error) Option {
	return Option{decl: esession.Option{Name: name, Kind: esession.Spin, Default: strconv.Itoa(def), Min: lo, Max: hi,
		Set: setter(set, strconv.Atoi)}}
}

// ComboOption declares an option whose value is one of vars (matched
// without regard to case). set (nil: store only) puts a value in force.
func ComboOption(name, def string, vars []string, set func(string) error) Option {
	return Option{decl: esession.Option{Name: name, Kind: esession.Combo, Default: def, Values: vars,
		Set: setter(set, func(v string) (string, error) { return v, nil })}}
}

// StringOption declares a free-text option; the UCI value <empty> stands
// for "". set (nil: store only) puts a value in force.
func StringOption(name, def string, set func(string) error) Option {
	return Option{decl: esession.Option{Name: name, Kind: esession.String, Default: def,
		Set: setter(set, func(v string) (string, error) { return v, nil })}}
}

// Hide returns o as a hidden option: settable like any other, but not
// announced in the handshakes nor listed when an option name is unknown.
// Experiment switches for A/B matches are hidden.
func (o Option) Hide() Option { o.decl.Hidden = true; return o }

// Confirm returns o with its successful changes confirmed by a line
// "<Name> <value>" (info string, Hub: info message).
func (o Option) Confirm() Option { o.decl.Confirm = true; return o }

// Name returns the option's name.
func (o Option) Name() string { return o.decl.Name }

// Hidden reports whether the handshakes leave o out.
func (o Option) Hidden() bool { return o.decl.Hidden }

// String returns o's line in the UCI handshake, which describes it whole
// (name, kind, default, range or values); hidden options have one too.
func (o Option) String() string { return o.uciLine() }

// SessionOptions are the server's options on a session's table, in the
// order the handshakes announce them (PROTOCOL.md's table): the table's,
// with the server's own placed among them (Ponder after MultiPV, LogFile
// and LogLevel after Seed, the hidden HubPosLayout last). The session has
// put their defaults in force already.
func SessionOptions(table []esession.Option) []Option {
	var opts []Option
	for _, d := range table {
		opts = append(opts, Option{decl: d, inForce: true})
		switch d.Name {
		case "MultiPV":
			// The server answers go ponder whatever this says; GUIs expect it.
			opts = append(opts, CheckOption("Ponder", false, nil))
		case "Seed":
			opts = append(opts, LogFileOption(), LogLevelOption())
		}
	}
	return append(opts, HubPosLayoutOption())
}

// logLevels are the LogLevel values, quietest last.
var logLevels = []string{"debug", "info", "warn", "error", "off"}

// LogFileOption is the server's own LogFile option: a file the logs are
// appended to instead of Config.LogOutput. The binary places it in its list
// where it wants it announced.
func LogFileOption() Option {
	o := StringOption("LogFile", "", nil)
	o.own = func(s *Server) func(string) error { return s.setLogFile }
	return o
}

// LogLevelOption is the server's own LogLevel option: how much is logged
// (debug, info, warn, error or off; warn when the binary leaves it out).
func LogLevelOption() Option {
	o := ComboOption("LogLevel", defaultLogLevel, logLevels, nil)
	o.own = func(s *Server) func(string) error { return s.setLogLevel }
	return o
}

// HubPosLayoutOption is the server's own HubPosLayout option: how the Hub
// dialect reads the pos key, pydraughts (the default, pydraughts' layout
// for English draughts) or literal (character k is square k); see
// hubtext.Layout. It is hidden: it means nothing to UCI clients, and the
// one English Hub client needs the default. Without it in the binary's
// list the server reads pydraughts' layout.
func HubPosLayoutOption() Option {
	o := ComboOption("HubPosLayout", hubtext.Pydraughts.String(),
		[]string{hubtext.Pydraughts.String(), hubtext.Literal.String()}, nil).Hide()
	o.own = func(s *Server) func(string) error { return s.setHubLayout }
	return o
}

// check reads text as a value of o and returns it in canonical form; the
// UCI value <empty> is the empty string.
func (o *Option) check(text string) (string, error) {
	if o.decl.Kind == esession.String && text == emptyString {
		return "", nil
	}
	return o.decl.Check(text)
}

// optionSet is the server's options with the value of each in force and as
// last set (pending), by index.
type optionSet struct {
	opts         []Option
	cur, pending []string
}

// newOptionSet checks the declarations: names present and distinct, spin
// ranges not empty, combos with values, defaults valid.
func newOptionSet(opts []Option) (optionSet, error) {
	set := optionSet{opts: opts, cur: make([]string, len(opts))}
	for i := range opts {
		o := &opts[i].decl
		if err := o.Validate(); err != nil {
			return set, fmt.Errorf("option %d: %w", i+1, err)
		}
		for _, p := range opts[:i] {
			if strings.EqualFold(p.decl.Name, o.Name) {
				return set, fmt.Errorf("option %s is declared twice", o.Name)
			}
		}
		set.cur[i] = o.Default
	}
	set.pending = append([]string(nil), set.cur...)
	return set, nil
}

// find looks an option up by name, ignoring case; hidden options are found
// too, but only the announced ones are listed when name is unknown.
func (set *optionSet) find(name string) (int, error) {
	var names []string
	for i, o := range set.opts {
		if strings.EqualFold(o.decl.Name, name) {
			return i, nil
		}
		if !o.decl.Hidden {
			names = append(names, o.decl.Name)
		}
	}
	return 0, fmt.Errorf("unknown option %q (known: %s)", name, strings.Join(names, ", "))
}

// setPending checks value for the option called name and keeps it as that
// option's pending change.
func (set *optionSet) setPending(name, value string) error {
	i, err := set.find(name)
	if err != nil {
		return err
	}
	v, err := set.opts[i].check(strings.TrimSpace(value))
	if err != nil {
		return fmt.Errorf("option %s: %v", set.opts[i].decl.Name, err)
	}
	set.pending[i] = v
	return nil
}

// applyDefaults runs every setter with its default, so that what the
// handshake announces is what is in force.
func (set *optionSet) applyDefaults() error {
	for i, o := range set.opts {
		if o.decl.Set == nil || o.inForce {
			continue
		}
		if _, err := o.decl.Set(set.cur[i]); err != nil {
			return fmt.Errorf("option %s: default %q: %w", o.decl.Name, set.cur[i], err)
		}
	}
	return nil
}

// SetOption sets an option before serving and puts it in force now: the
// error names a value that is not valid or that the setter refused (the
// previous value stays). The notes and confirmation are sent when Serve
// starts.
func (s *Server) SetOption(name, value string) error {
	if err := s.opts.setPending(name, value); err != nil {
		return err
	}
	i, _ := s.opts.find(name)
	lines, err := s.apply(i)
	if err != nil {
		return fmt.Errorf("option %s: %w", s.opts.opts[i].decl.Name, err)
	}
	s.startNotes = append(s.startNotes, lines...)
	return nil
}

// ready puts the pending options in force and has the searcher do what its
// first search would otherwise do on its clock: the answer to isready (Hub:
// init), which clients send before they start the clock.
func (s *Server) ready() {
	s.applyPending()
	s.cfg.Searcher.Prepare()
}

// applyPending puts the pending changes in force, in declaration order. A
// change that fails is reported and the previous value kept; a confirmed
// option's change is announced.
func (s *Server) applyPending() {
	for i, o := range s.opts.opts {
		next, old := s.opts.pending[i], s.opts.cur[i]
		if next == old {
			continue
		}
		lines, err := s.apply(i)
		if err != nil {
			s.errorf("%s %q: %v; keeping %q", o.decl.Name, next, err, old)
			continue
		}
		for _, l := range lines {
			s.note(l)
		}
	}
}

// apply runs the setter of option i with its pending value. It returns the
// lines to show: the setter's notes, each prefixed with the option's name,
// and the confirmation of a confirmed option. On an error the pending value
// goes back to the one in force.
func (s *Server) apply(i int) ([]string, error) {
	set, o := &s.opts, &s.opts.opts[i].decl
	next := set.pending[i]
	var lines []string
	if o.Set != nil {
		notes, err := o.Set(next)
		if err != nil {
			set.pending[i] = set.cur[i]
			return nil, err
		}
		for _, n := range notes {
			lines = append(lines, o.Name+": "+n)
		}
	}
	set.cur[i] = next
	if o.Confirm {
		lines = append(lines, o.Name+" "+next)
	}
	return lines, nil
}

// uciLine writes the option's line of the UCI handshake.
func (o *Option) uciLine() string {
	d := &o.decl
	v := d.Default
	if v == "" {
		v = emptyString
	}
	line := fmt.Sprintf("option name %s type %s default %s", d.Name, uciType[d.Kind], v)
	switch d.Kind {
	case esession.Spin:
		line += fmt.Sprintf(" min %d max %d", d.Min, d.Max)
	case esession.Combo:
		for _, c := range d.Values {
			line += " var " + c
		}
	}
	return line
}

// hubLine writes the option's param line of the Hub handshake.
func (o *Option) hubLine() string {
	d := &o.decl
	line := fmt.Sprintf("param name=%s value=%s type=%s", d.Name, hubtext.Value(d.Default), hubType[d.Kind])
	switch d.Kind {
	case esession.Spin:
		line += fmt.Sprintf(" min=%d max=%d", d.Min, d.Max)
	case esession.Combo:
		line += " values=" + hubtext.Value(strings.Join(d.Values, " "))
	}
	return line
}
