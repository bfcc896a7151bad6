package console

import (
	"flag"
	"fmt"
	"strings"

	"github.com/nechecb/nechecb/internal/session"
)

// cmdSet answers "set" (every option with its value), "set NAME" (what it
// does, its default and range) and "set NAME VALUE" (put a value in force;
// a bad one changes nothing).
func (s *Session) cmdSet(args []string) {
	opts := s.cfg.Settings.Options()
	if len(args) == 0 {
		for _, o := range opts {
			if !o.Hidden {
				v, _ := s.cfg.Settings.Get(o.Name)
				s.printf("  %-14s %-10s %s\n", o.Name, showValue(v), o.Help)
			}
		}
		s.printf("set NAME VALUE changes one; set NAME explains it.\n")
		return
	}
	i := session.Find(opts, args[0])
	if i < 0 {
		_, err := s.cfg.Settings.Get(args[0])
		s.printf("%v\n", err)
		return
	}
	o := opts[i]
	if len(args) == 1 {
		v, _ := s.cfg.Settings.Get(o.Name)
		s.printf("%s: %s; %s (default %s%s)\n", o.Name, o.Help, showValue(v), showValue(o.Default), valueRange(&o))
		return
	}
	notes, err := s.cfg.Settings.Set(o.Name, strings.Join(args[1:], " "))
	if err != nil {
		v, _ := s.cfg.Settings.Get(o.Name)
		s.printf("%v; keeping %s\n", err, showValue(v))
		return
	}
	for _, n := range notes {
		s.printf("%s: %s\n", o.Name, n)
	}
	v, _ := s.cfg.Settings.Get(o.Name)
	s.printf("%s %s\n", o.Name, showValue(v))
}

// showValue writes an empty value as "".
func showValue(v string) string {
	if v == "" {
		return `""`
	}
	return v
}

// valueRange writes the values an option takes, after its default.
func valueRange(o *session.Option) string {
	switch o.Kind {
	case session.Spin:
		return fmt.Sprintf(", %d..%d", o.Min, o.Max)
	case session.Check:
		return ", true or false"
	case session.Combo:
		return ", one of " + strings.Join(o.Values, ", ")
	}
	return ""
}

// flagNames are the console's flags for options whose flag is not the
// option's name in lower case.
var flagNames = map[string]string{"DBPath": "db"}

// FlagName returns the console's flag for the option called name.
func FlagName(name string) string {
	if f, ok := flagNames[name]; ok {
		return f
	}
	return strings.ToLower(name)
}

// SettingFlags declares on fs a flag for every option of table (true/false
// options are boolean flags), with the option's help and default. Each
// flag given is appended to *set as a name and a value, in the order of the
// command line, for Run to put in force.
func SettingFlags(fs *flag.FlagSet, table []session.Option, set *[][2]string) {
	for _, o := range table {
		help := o.Help
		if o.Hidden {
			help = "(experiment) " + help
		}
		fs.Var(&settingFlag{name: o.Name, check: o.Kind == session.Check, def: o.Default, set: set}, FlagName(o.Name), help)
	}
}

// settingFlag is one option's flag.
type settingFlag struct {
	name  string
	check bool
	def   string
	set   *[][2]string
}

func (f *settingFlag) String() string {
	if f == nil || f.def == "false" {
		return ""
	}
	return f.def
}

func (f *settingFlag) Set(v string) error {
	*f.set = append(*f.set, [2]string{f.name, v})
	return nil
}

// IsBoolFlag lets a true/false option be given as a bare -name.
func (f *settingFlag) IsBoolFlag() bool { return f.check }
