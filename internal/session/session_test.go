package session

import (
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb/embedded"
	_ "github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/player"
)

func newTest(t *testing.T, defaults map[string]string) *Session {
	t.Helper()
	s, err := New(Config{Defaults: defaults})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDefaultsInForce: New puts every default in force, a front end's own
// defaults replacing the table's.
func TestDefaultsInForce(t *testing.T) {
	s := newTest(t, map[string]string{"Hash": "2", "MoveOverhead": "0"})
	o := s.Engine().Options()
	if o.HashMB != 2 || o.Threads != 1 || o.MultiPV != 1 || o.MoveOverhead != 0 {
		t.Errorf("engine options %+v, want Hash 2, Threads 1, MultiPV 1, MoveOverhead 0", o)
	}
	if got := s.Engine().Evaluator(); got != "material" {
		t.Errorf("evaluator %q, want material", got)
	}
	for _, c := range []struct{ name, want string }{{"hash", "2"}, {"Threads", "1"}, {"Eval", "material"}, {"DBCache", "64"}} {
		if got, err := s.Get(c.name); err != nil || got != c.want {
			t.Errorf("Get(%s) = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	for _, bad := range []map[string]string{{"Hash": "0"}, {"Nothing": "1"}, {"Eval": "nosuchkind"}} {
		if _, err := New(Config{Defaults: bad}); err == nil {
			t.Errorf("defaults %v were accepted", bad)
		}
	}
}

// TestSetKeepsOldValueOnError: a value out of range, of the wrong kind or
// refused by its setter changes nothing, and the error names the option.
func TestSetKeepsOldValueOnError(t *testing.T) {
	s := newTest(t, map[string]string{"Hash": "1"})
	for _, c := range []struct{ name, value, want string }{
		{"Hash", "0", "option Hash: 0 is outside 1..4096"},
		{"Book", "9", "option Book: 9 is outside 0..3"},
		{"RandomTies", "1", `option RandomTies: "1" is not true or false`},
		{"Eval", "nosuchkind", `option Eval "nosuchkind": unknown evaluator`},
		{"BookFile", "/no/such/file", "option BookFile"},
		{"DBPath", "/no/such/dir", "option DBPath"},
		{"Nothing", "1", `unknown option "Nothing" (known: Hash, Threads,`},
	} {
		if MaxHashMB != 4096 && c.name == "Hash" {
			continue
		}
		if _, err := s.Set(c.name, c.value); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Set(%s, %s): %v, want an error with %q", c.name, c.value, err, c.want)
		}
	}
	for _, c := range []struct{ name, want string }{{"Hash", "1"}, {"Book", "0"}, {"RandomTies", "false"}, {"Eval", "material"}, {"BookFile", ""}, {"DBPath", ""}} {
		if got, _ := s.Get(c.name); got != c.want {
			t.Errorf("%s is %q after refused changes, want %q", c.name, got, c.want)
		}
	}
	if s.Engine().Evaluator() != "material" || s.Engine().DBDir() != embedded.Name {
		t.Errorf("engine changed: evaluator %q, database %q", s.Engine().Evaluator(), s.Engine().DBDir())
	}
}

// TestOptionsAreBound: the table's setters reach the engine and what they
// set is what Get returns; the hidden options switch the search's features.
func TestOptionsAreBound(t *testing.T) {
	s := newTest(t, map[string]string{"Hash": "1"})
	opts := s.Options()
	set := func(name, v string) {
		t.Helper()
		i := Find(opts, name)
		if i < 0 {
			t.Fatalf("no option %s", name)
		}
		if _, err := opts[i].Set(v); err != nil {
			t.Fatal(err)
		}
	}
	set("MoveOverhead", "45")
	set("ExpNoLMR", "true")
	set("Threads", "2")
	o := s.Engine().Options()
	if o.MoveOverhead != 45*time.Millisecond || !o.Tuning.NoLMR || o.Threads != 2 {
		t.Errorf("engine options %+v after the setters", o)
	}
	if got, _ := s.Get("threads"); got != "2" {
		t.Errorf("Get(threads) = %q, want 2", got)
	}
	if _, err := s.Set("Eval", " heuristic "); err != nil || s.Engine().Evaluator() != "heuristic" {
		t.Errorf("Set(Eval, heuristic): %v, evaluator %q", err, s.Engine().Evaluator())
	}
}

// TestBookFollowsSeed: the built-in book answers the start position once
// Book is above 0, and the same Seed plays the same book moves.
func TestBookFollowsSeed(t *testing.T) {
	s := newTest(t, map[string]string{"Hash": "1"})
	start := engine.StartPosition()
	if _, ok := s.Probe(start, nil); ok {
		t.Error("a book move with Book 0")
	}
	play := func(seed string) []string {
		if _, err := s.Set("Seed", seed); err != nil {
			t.Fatal(err)
		}
		var moves []string
		for range 8 {
			m, ok := s.Probe(start, nil)
			if !ok {
				t.Fatal("no book move from the start with Book 1")
			}
			moves = append(moves, m.String())
		}
		return moves
	}
	if _, err := s.Set("Book", "1"); err != nil {
		t.Fatal(err)
	}
	a, b := play("5"), play("5")
	if strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("Seed 5 played %v, then %v", a, b)
	}
}

// TestDBPathValues: by default the session searches with the database
// built into the binary; DBPath none (in any case) switches every database
// off, and the empty value brings the built-in one back, which a change of
// DBCache keeps.
func TestDBPathValues(t *testing.T) {
	s := newTest(t, map[string]string{"Hash": "1"})
	win, _ := engine.ParseFEN("B:WK1,K5:BK18,K23,K27") // three kings beat two
	want := func(when, dir string, pieces int, v player.Outcome) {
		t.Helper()
		e := s.Engine()
		if e.DBDir() != dir || e.DBPieces() != pieces || e.ProbeDB(&win) != v {
			t.Errorf("%s: database %q of %d pieces says %v; want %q, %d, %v", when, e.DBDir(), e.DBPieces(), e.ProbeDB(&win), dir, pieces, v)
		}
	}
	want("by default", embedded.Name, embedded.Pieces, player.DBWin)
	for _, none := range []string{"none", "NONE"} {
		s.Set("DBPath", "")
		if notes, err := s.Set("DBPath", none); err != nil || len(notes) > 0 {
			t.Errorf("DBPath %s: notes %q, error %v; want neither", none, notes, err)
		}
		want("DBPath "+none, "", 0, player.DBUnknown)
	}
	notes, err := s.Set("DBPath", "")
	if err != nil || len(notes) != 1 || notes[0] != embedded.Name+": 5 pieces" {
		t.Errorf("DBPath empty: notes %q, error %v; want the built-in database's", notes, err)
	}
	if _, err := s.Set("DBCache", "2"); err != nil {
		t.Fatal(err)
	}
	want("after DBCache 2", embedded.Name, embedded.Pieces, player.DBWin)
}
