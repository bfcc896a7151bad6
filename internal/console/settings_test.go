package console

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/internal/session"
)

// TestSetCommand drives set on a real session: the list, one option
// explained, a change that reaches the engine, and bad values refused with
// the old value kept.
func TestSetCommand(t *testing.T) {
	sess, err := session.New(session.Config{Defaults: map[string]string{"Hash": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	in := &scriptReader{out: out, lines: []string{"set", "set threads", "set Threads 2", "set book 9", "set nothing 1", "set randomties TRUE", "quit"}}
	s := NewSession(Config{In: in, Out: out, Engine: sess.Engine(), Settings: sess, Style: Style{ASCII: true},
		Now: func() time.Time { return time.Date(2026, 11, 26, 7, 0, 0, 0, time.UTC) }})
	turns := runScript(t, s, in)
	list := output(t, turns, "set")
	for _, o := range sess.Options() {
		if o.Hidden == strings.Contains(list, "  "+o.Name+" ") {
			t.Errorf("set lists %s: %v, hidden: %v", o.Name, !o.Hidden, o.Hidden)
		}
	}
	checkOutput(t, turns, "set threads", "Threads: search threads; 1 (default 1, 1..256)\n")
	checkOutput(t, turns, "set Threads 2", "Threads 2\n")
	checkOutput(t, turns, "set book 9", "option Book: 9 is outside 0..3; keeping 0\n")
	if got := output(t, turns, "set nothing 1"); !strings.HasPrefix(got, `unknown option "nothing" (known: Hash,`) {
		t.Errorf("set nothing 1: %q", got)
	}
	checkOutput(t, turns, "set randomties TRUE", "RandomTies true\n")
	if o := sess.Engine().Options(); o.Threads != 2 || !o.RandomTies {
		t.Errorf("engine options %+v, want Threads 2 and RandomTies", o)
	}
}

// TestEveryOptionHasAFlag: the console has a flag for each option of the
// table, and the flags given reach Settings in command-line order.
func TestEveryOptionHasAFlag(t *testing.T) {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	var set [][2]string
	table := session.Table(map[string]string{"Eval": "heuristic"})
	SettingFlags(fs, table, &set)
	for _, o := range table {
		f := fs.Lookup(FlagName(o.Name))
		if f == nil {
			t.Errorf("no flag for option %s", o.Name)
			continue
		}
		if f.Usage == "" || o.Kind != session.Check && f.DefValue != o.Default {
			t.Errorf("flag %s: usage %q, default %q; want the option's help and default %q", f.Name, f.Usage, f.DefValue, o.Default)
		}
	}
	if err := fs.Parse([]string{"--hash", "8", "--randomties", "--db", "/x", "--eval=material", "--expnolmr=false"}); err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"Hash", "8"}, {"RandomTies", "true"}, {"DBPath", "/x"}, {"Eval", "material"}, {"ExpNoLMR", "false"}}
	if !cmp.Equal(set, want) {
		t.Errorf("settings %v, want %v", set, want)
	}
}
