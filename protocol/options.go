package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/protocol/hubtext"
)

// Option is one engine option: its name, kind, default and range, as the
// handshakes announce it, and the setter that puts a value in force. The
// binary declares its options with CheckOption, SpinOption, ComboOption and
// StringOption and hands them to the server in Config.Options; the server
// owns the rest. A value is checked (kind and range) when setoption
// (Hub: set-param) arrives and kept as a pending change; the setter runs at
// the next isready (Hub: init) or go. A setter that fails is reported on one
// error line and the previous value stays in force; one that returns Notes
// succeeds, and the notes are sent.
type Option struct {
	name     string
	kind     optionKind
	def      string   // the default, in canonical form
	min, max int      // spin
	vars     []string // combo
	hidden   bool
	confirm  bool
	// apply puts a checked value (canonical form) in force; nil means the
	// value is only stored.
	apply func(value string) error
	// own marks the server's own options: NewServer binds apply to itself.
	own func(*Server) func(string) error
}

// Notes is what a setter returns to accept its value with remarks the
// client should see (a database file left out, say): each is sent on its
// own info line, prefixed with the option's name, and the value is in
// force.
type Notes []string

// Error joins the notes.
func (n Notes) Error() string { return strings.Join(n, "; ") }

// optionKind is the UCI type of an option.
type optionKind int

const (
	kindCheck optionKind = iota
	kindSpin
	kindCombo
	kindString
)

// uciType and hubType name a kind in each dialect.
var (
	uciType = [...]string{"check", "spin", "combo", "string"}
	hubType = [...]string{"bool", "int", "enum", "string"}
)

// emptyString is how UCI writes an empty string value.
const emptyString = "<empty>"

// CheckOption declares a true/false option. set (nil: store only) puts a
// value in force.
func CheckOption(name string, def bool, set func(bool) error) Option {
	o := Option{name: name, kind: kindCheck, def: strconv.FormatBool(def)}
	if set != nil {
		o.apply = func(v string) error { return set(v == "true") }
	}
	return o
}

// SpinOption declares a whole-number option in lo..hi. set (nil: store
// only) puts a value in force.
func SpinOption(name string, def, lo, hi int, set func(int) error) Option {
	o := Option{name: name, kind: kindSpin, def: strconv.Itoa(def), min: lo, max: hi}
	if set != nil {
		o.apply = func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil {
				return err
			}
			return set(n)
		}
	}
	return o
}

// ComboOption declares an option whose value is one of vars (matched
// without regard to case). set (nil: store only) puts a value in force.
func ComboOption(name, def string, vars []string, set func(string) error) Option {
	o := Option{name: name, kind: kindCombo, def: def, vars: vars}
	if set != nil {
		o.apply = set
	}
	return o
}

// StringOption declares a free-text option; the UCI value <empty> stands
// for "". set (nil: store only) puts a value in force.
func StringOption(name, def string, set func(string) error) Option {
	o := Option{name: name, kind: kindString, def: def}
	if set != nil {
		o.apply = set
	}
	return o
}

// Hide returns o as a hidden option: settable like any other, but not
// announced in the handshakes nor listed when an option name is unknown.
// Experiment switches for A/B matches are hidden.
func (o Option) Hide() Option { o.hidden = true; return o }

// Confirm returns o with its successful changes confirmed by a line
// "<Name> <value>" (info string, Hub: info message).
func (o Option) Confirm() Option { o.confirm = true; return o }

// Name returns the option's name.
func (o Option) Name() string { return o.name }

// Hidden reports whether the handshakes leave o out.
func (o Option) Hidden() bool { return o.hidden }

// String returns o's line in the UCI handshake, which describes it whole
// (name, kind, default, range or values); hidden options have one too.
func (o Option) String() string { return o.uciLine() }

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

// check reads text as a value of o and returns it in canonical form.
func (o *Option) check(text string) (string, error) {
	switch o.kind {
	case kindCheck:
		switch strings.ToLower(text) {
		case "true", "false":
			return strings.ToLower(text), nil
		}
		return "", fmt.Errorf("%q is not true or false", text)
	case kindSpin:
		n, err := strconv.Atoi(text)
		if err != nil {
			return "", fmt.Errorf("%q is not a whole number", text)
		}
		if n < o.min || n > o.max {
			return "", fmt.Errorf("%d is outside %d..%d", n, o.min, o.max)
		}
		return strconv.Itoa(n), nil
	case kindCombo:
		for _, c := range o.vars {
			if strings.EqualFold(c, text) {
				return c, nil
			}
		}
		return "", fmt.Errorf("%q is not one of %s", text, strings.Join(o.vars, ", "))
	}
	if text == emptyString {
		return "", nil
	}
	return text, nil
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
		o := &opts[i]
		if strings.TrimSpace(o.name) == "" || strings.ContainsAny(o.name, " \t=\"") {
			return set, fmt.Errorf("option %d: name %q is empty or holds a blank, = or \"", i+1, o.name)
		}
		for _, p := range opts[:i] {
			if strings.EqualFold(p.name, o.name) {
				return set, fmt.Errorf("option %s is declared twice", o.name)
			}
		}
		if o.kind == kindSpin && o.min > o.max {
			return set, fmt.Errorf("option %s: range %d..%d is empty", o.name, o.min, o.max)
		}
		if o.kind == kindCombo && len(o.vars) == 0 {
			return set, fmt.Errorf("option %s: a combo needs values", o.name)
		}
		def, err := o.check(o.def)
		if err != nil || def != o.def {
			return set, fmt.Errorf("option %s: default %q is not a valid value", o.name, o.def)
		}
		set.cur[i] = def
	}
	set.pending = append([]string(nil), set.cur...)
	return set, nil
}

// find looks an option up by name, ignoring case; hidden options are found
// too, but only the announced ones are listed when name is unknown.
func (set *optionSet) find(name string) (int, error) {
	var names []string
	for i, o := range set.opts {
		if strings.EqualFold(o.name, name) {
			return i, nil
		}
		if !o.hidden {
			names = append(names, o.name)
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
		return fmt.Errorf("option %s: %v", set.opts[i].name, err)
	}
	set.pending[i] = v
	return nil
}

// applyDefaults runs every setter with its default, so that what the
// handshake announces is what is in force.
func (set *optionSet) applyDefaults() error {
	for i, o := range set.opts {
		if o.apply == nil {
			continue
		}
		if err := o.apply(set.cur[i]); err != nil {
			return fmt.Errorf("option %s: default %q: %w", o.name, set.cur[i], err)
		}
	}
	return nil
}

// SetOption sets an option before serving, as setoption would; the change is
// applied when Serve starts.
func (s *Server) SetOption(name, value string) error {
	return s.opts.setPending(name, value)
}

// applyPending puts the pending changes in force, in declaration order. A
// change that fails is reported and the previous value kept; a confirmed
// option's change is announced.
func (s *Server) applyPending() {
	set := &s.opts
	for i, o := range set.opts {
		next, old := set.pending[i], set.cur[i]
		if next == old {
			continue
		}
		if o.apply != nil {
			var notes Notes
			if err := o.apply(next); errors.As(err, &notes) {
				for _, n := range notes {
					s.note(o.name + ": " + n)
				}
			} else if err != nil {
				s.errorf("%s %q: %v; keeping %q", o.name, next, err, old)
				set.pending[i] = old
				continue
			}
		}
		set.cur[i] = next
		if o.confirm {
			s.note(o.name + " " + next)
		}
	}
}

// uciLine writes the option's line of the UCI handshake.
func (o *Option) uciLine() string {
	v := o.def
	if v == "" {
		v = emptyString
	}
	line := fmt.Sprintf("option name %s type %s default %s", o.name, uciType[o.kind], v)
	switch o.kind {
	case kindSpin:
		line += fmt.Sprintf(" min %d max %d", o.min, o.max)
	case kindCombo:
		for _, c := range o.vars {
			line += " var " + c
		}
	}
	return line
}

// hubLine writes the option's param line of the Hub handshake.
func (o *Option) hubLine() string {
	line := fmt.Sprintf("param name=%s value=%s type=%s", o.name, hubtext.Value(o.def), hubType[o.kind])
	switch o.kind {
	case kindSpin:
		line += fmt.Sprintf(" min=%d max=%d", o.min, o.max)
	case kindCombo:
		line += " values=" + hubtext.Value(strings.Join(o.vars, " "))
	}
	return line
}
