package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	esession "github.com/nechecb/nechecb/internal/session"
)

// TestHiddenOption: ExpNoLMR is not announced in either handshake nor
// listed as known, but both dialects set it, and it reaches the searcher.
func TestHiddenOption(t *testing.T) {
	s := newSession(t, Config{})
	s.send("uci")
	for _, line := range s.until("uciok") {
		if strings.Contains(line, "ExpNoLMR") {
			t.Errorf("uci handshake announces the hidden option: %q", line)
		}
	}
	s.send("setoption name expnolmr value TRUE")
	if s.fake.snapshot().opts.Tuning.NoLMR {
		t.Error("the change was put in force before isready")
	}
	s.send("isready")
	s.expect("readyok")
	if !s.fake.snapshot().opts.Tuning.NoLMR {
		t.Error("ExpNoLMR=true did not reach the searcher")
	}
	s.send("setoption name ExpNoLMR value 1", "setoption name Nothing value 1", "isready")
	s.expect(`info string error: setoption: option ExpNoLMR: "1" is not true or false`)
	if line := s.next(); !strings.HasPrefix(line, `info string error: setoption: unknown option "Nothing" (known: Hash,`) || strings.Contains(line, "ExpNoLMR") {
		t.Errorf("unknown option error %q: want the announced options only", line)
	}
	s.expect("readyok")
	s.send("hub")
	for _, line := range s.until("wait") {
		if strings.Contains(line, "ExpNoLMR") {
			t.Errorf("hub handshake announces the hidden option: %q", line)
		}
	}
	s.send("set-param name=ExpNoLMR value=false", "init")
	s.expect("ready")
	if s.fake.snapshot().opts.Tuning.NoLMR {
		t.Error("set-param ExpNoLMR=false did not reach the searcher")
	}
	s.finish()
}

// recorder is an option setter that records its calls and refuses 7.
type recorder struct{ calls []int }

func (r *recorder) set(n int) error {
	r.calls = append(r.calls, n)
	if n == 7 {
		return errors.New("seven is refused")
	}
	return nil
}

// TestSetterCalls: the default is put in force by NewServer; a change runs
// the setter once, at isready, and not again while the value stays; a
// refused change is reported once and the previous value stays, pending too.
func TestSetterCalls(t *testing.T) {
	r := &recorder{}
	s := newSession(t, Config{Options: []Option{SpinOption("Level", 1, 0, 9, r.set), StringOption("Note", "", nil).Confirm()}})
	s.send("uci")
	s.expect("id name nechecb 9.9", "id author the nechecb authors",
		"option name Level type spin default 1 min 0 max 9", "option name Note type string default <empty>", "uciok")
	s.send("setoption name Level value 3", "setoption name Level value 4", "isready", "isready")
	s.expect("readyok", "readyok")
	s.send("setoption name Level value 7", "setoption name Note value hello  world", "isready", "isready")
	s.expect(`info string error: Level "7": seven is refused; keeping "4"`, "info string Note hello  world", "readyok", "readyok")
	s.send("setoption name Level value 4", "isready")
	s.expect("readyok")
	s.finish()
	if want := []int{1, 4, 7}; !cmp.Equal(r.calls, want) {
		t.Errorf("setter calls %v, want %v", r.calls, want)
	}
}

func TestBadDeclarations(t *testing.T) {
	failing := func(int) error { return errors.New("cannot") }
	cases := []struct {
		name string
		opts []Option
		want string
	}{
		{"twice", []Option{CheckOption("A", false, nil), SpinOption("a", 0, 0, 1, nil)}, "option a is declared twice"},
		{"no name", []Option{CheckOption(" ", false, nil)}, `option 1: name " " is empty`},
		{"blank in name", []Option{CheckOption("Move Overhead", false, nil)}, `name "Move Overhead" is empty or holds a blank`},
		{"empty range", []Option{SpinOption("S", 0, 1, 0, nil)}, "option S: range 1..0 is empty"},
		{"default outside", []Option{SpinOption("S", 5, 0, 3, nil)}, `option S: default "5" is not a valid value`},
		{"combo default", []Option{ComboOption("C", "Warn", []string{"warn"}, nil)}, `option C: default "Warn" is not a valid value`},
		{"combo empty", []Option{ComboOption("C", "", nil, nil)}, "option C: a combo needs values"},
		{"default refused", []Option{SpinOption("S", 1, 0, 3, failing)}, `option S: default "1": cannot`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewServer(Config{Searcher: &fakeSearcher{}, Options: c.opts})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error with %q", err, c.want)
			}
		})
	}
	if _, err := NewServer(Config{}); err == nil {
		t.Error("a server without a searcher was made")
	}
}

// TestNoOptions: a server may have no options at all; the log options are
// then at their defaults and nothing is settable.
func TestNoOptions(t *testing.T) {
	s := newSession(t, Config{Options: []Option{}})
	s.send("uci")
	s.expect("id name nechecb 9.9", "id author the nechecb authors", "uciok")
	s.send("setoption name Hash value 1", "isready")
	s.expect(`info string error: setoption: unknown option "Hash" (known: )`, "readyok")
	s.finish()
}

// TestEveryOptionOfTheTable: the server built on a session's table
// announces each of its options but the hidden ones, and every one is
// settable and reaches the session.
func TestEveryOptionOfTheTable(t *testing.T) {
	sess, err := esession.New(esession.Config{Defaults: map[string]string{"Hash": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t, Config{Searcher: sess.Engine(), Options: SessionOptions(sess.Options())})
	s.send("uci")
	handshake := strings.Join(s.until("uciok"), "\n") + "\n"
	var script []string
	for _, o := range sess.Options() {
		if announced := strings.Contains(handshake, "option name "+o.Name+" "); announced == o.Hidden {
			t.Errorf("option %s announced: %v, hidden: %v", o.Name, announced, o.Hidden)
		}
		if o.Kind == esession.Spin && o.Name != "Hash" && o.Name != "DBCache" {
			script = append(script, fmt.Sprintf("setoption name %s value %d", o.Name, o.Max))
		}
	}
	s.send(append(script, "isready")...)
	s.expect("readyok")
	for _, o := range sess.Options() {
		if got, _ := sess.Get(o.Name); o.Kind == esession.Spin && o.Name != "Hash" && o.Name != "DBCache" && got != strconv.Itoa(o.Max) {
			t.Errorf("after setoption %s %d the session has %s", o.Name, o.Max, got)
		}
	}
	s.finish()
}
