package session

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is what values an option takes.
type Kind int

// The kinds of option, as the UCI handshake names them.
const (
	// Check is true or false.
	Check Kind = iota
	// Spin is a whole number in Min..Max.
	Spin
	// Combo is one of Values, matched without regard to case.
	Combo
	// String is free text.
	String
)

// Option declares one setting: its name, kind, default and range, a line of
// help, and the setter that puts a checked value in force. The session's
// table (Table) declares the engine's options with setters bound to the
// session; a front end may declare its own in the same type.
type Option struct {
	// Name is how the protocol and the console's set command call it; front
	// ends match it without regard to case.
	Name string
	Kind Kind
	// Default is the value in force at the start, in canonical form.
	Default string
	// Min and Max bound a Spin option.
	Min, Max int
	// Values are a Combo option's values.
	Values []string
	// Help says what the option does, in one line.
	Help string
	// Hidden options are settable but not announced: the search's
	// experiment switches for A/B matches.
	Hidden bool
	// Confirm asks front ends to confirm a change by showing the new value.
	Confirm bool
	// Set puts a checked value (canonical form) in force; nil means the
	// value is only stored. It returns remarks for the user alongside
	// success (a database file left out, say), or an error, and then the
	// value in force stays.
	Set func(value string) (notes []string, err error)
}

// Check reads text as a value of o and returns it in canonical form: "true"
// or "false", a decimal number, the Combo value as declared, or the text.
// The error names what was wrong.
func (o *Option) Check(text string) (string, error) {
	switch o.Kind {
	case Check:
		switch strings.ToLower(text) {
		case "true", "false":
			return strings.ToLower(text), nil
		}
		return "", fmt.Errorf("%q is not true or false", text)
	case Spin:
		n, err := strconv.Atoi(text)
		if err != nil {
			return "", fmt.Errorf("%q is not a whole number", text)
		}
		if n < o.Min || n > o.Max {
			return "", fmt.Errorf("%d is outside %d..%d", n, o.Min, o.Max)
		}
		return strconv.Itoa(n), nil
	case Combo:
		for _, c := range o.Values {
			if strings.EqualFold(c, text) {
				return c, nil
			}
		}
		return "", fmt.Errorf("%q is not one of %s", text, strings.Join(o.Values, ", "))
	}
	return text, nil
}

// Validate checks a declaration: a name with no blank, =, or ", a Spin
// range that is not empty, a Combo with values and a valid default.
func (o *Option) Validate() error {
	if strings.TrimSpace(o.Name) == "" || strings.ContainsAny(o.Name, " \t=\"") {
		return fmt.Errorf("name %q is empty or holds a blank, = or \"", o.Name)
	}
	if o.Kind == Spin && o.Min > o.Max {
		return fmt.Errorf("option %s: range %d..%d is empty", o.Name, o.Min, o.Max)
	}
	if o.Kind == Combo && len(o.Values) == 0 {
		return fmt.Errorf("option %s: a combo needs values", o.Name)
	}
	if def, err := o.Check(o.Default); err != nil || def != o.Default {
		return fmt.Errorf("option %s: default %q is not a valid value", o.Name, o.Default)
	}
	return nil
}

// Find returns the index of the option called name in opts, ignoring case,
// or -1.
func Find(opts []Option, name string) int {
	for i := range opts {
		if strings.EqualFold(opts[i].Name, name) {
			return i
		}
	}
	return -1
}
