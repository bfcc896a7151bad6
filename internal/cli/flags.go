package cli

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Repeated is a flag that may be given many times, each value added to the
// list (evaluator specs, say).
type Repeated []string

// String lists the values.
func (l *Repeated) String() string { return strings.Join(*l, ", ") }

// Set adds a value.
func (l *Repeated) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// NameList is a comma-separated list flag; the empty string is the empty
// list.
type NameList []string

// String writes the list as Set reads it.
func (l *NameList) String() string { return strings.Join(*l, ",") }

// Set replaces the list.
func (l *NameList) Set(s string) error {
	*l = nil
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			*l = append(*l, name)
		}
	}
	return nil
}

// RateList is a comma-separated list of numbers; the empty string is the
// empty list.
type RateList []float64

// String writes the list as Set reads it.
func (l RateList) String() string {
	parts := make([]string, len(l))
	for i, r := range l {
		parts[i] = strconv.FormatFloat(r, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// Set replaces the list.
func (l *RateList) Set(s string) error {
	*l = nil
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		r, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", part)
		}
		*l = append(*l, r)
	}
	return nil
}

// Modes writes both modes' defaults of a flag, for its help text, when
// they differ: " (faithful F, improved I)"; otherwise "".
func Modes[T comparable](faithful, improved T) string {
	if faithful == improved {
		return ""
	}
	return fmt.Sprintf(" (faithful %v, improved %v)", faithful, improved)
}

// FlagValue finds the value of the flag called name in args before they
// are parsed (so that the other flags can take defaults that depend on
// it), as -name V, --name V or --name=V; def when it is not given.
func FlagValue(args []string, name, def string) string {
	for i, a := range args {
		n, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || n != name {
			continue
		}
		if hasValue {
			return value
		}
		if i+1 < len(args) {
			return args[i+1]
		}
	}
	return def
}

// Assignments is a repeatable Name=Value flag (--option Hash=64): the name
// is trimmed of spaces and may not be empty, the value is kept as given.
type Assignments [][2]string

// String lists the pairs.
func (a *Assignments) String() string { return fmt.Sprint(*a) }

// Set adds a pair.
func (a *Assignments) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("%q is not Name=Value", v)
	}
	*a = append(*a, [2]string{strings.TrimSpace(name), value})
	return nil
}

// SetExcept lists, as --name, the flags of fs set on the command line other
// than those named in allowed: a mode that takes only some of a command's
// flags refuses the rest with them.
func SetExcept(fs *flag.FlagSet, allowed ...string) []string {
	var others []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(allowed, f.Name) {
			others = append(others, "--"+f.Name)
		}
	})
	return others
}
