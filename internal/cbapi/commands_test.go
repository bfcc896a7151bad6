package cbapi

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/all"
)

func newPlugin(t *testing.T) *Plugin {
	t.Helper()
	p, err := New(Config{Name: "nechecb", Version: "9.9", Eval: all.DefaultSpec})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// expect sends command and checks the reply and whether it was handled.
func expect(t *testing.T, p *Plugin, command, reply string, handled bool) {
	t.Helper()
	got, ok := p.Command(command)
	if got != reply || ok != handled {
		t.Errorf("%q: %q, %v; want %q, %v", command, got, ok, reply, handled)
	}
}

func TestCommandsOfCheckerBoardsStartUp(t *testing.T) {
	p := newPlugin(t)
	expect(t, p, "name", "nechecb 9.9", true)
	expect(t, p, "get protocolversion", "2", true)
	expect(t, p, "get gametype", "21", true)
	expect(t, p, "get movelist B:W1:B", "movelist 0", true)
	expect(t, p, "get cpus", fmt.Sprint(runtime.NumCPU()), true)
	expect(t, p, "get book", "0", true)
	expect(t, p, "  GET   HashSize ", "64", true)
}

func TestSettingsAreStoredAndReadBack(t *testing.T) {
	p := newPlugin(t)
	for _, c := range []struct{ set, reply, get, value string }{
		{"set hashsize 16", "hashsize 16", "get hashsize", "16"},
		{"set searchthreads 2", "searchthreads 2", "get searchthreads", "2"},
		{"set book 3", "book 3", "get book", "3"},
		{"set allscores 1", "allscores 1", "get allscores", "1"},
		{"set enable_wld 0", "enable_wld 0", "get enable_wld", "0"},
		{"set max_dbpieces 6", "max_dbpieces 6", "get max_dbpieces", "6"},
		{"set dbmbytes 128", "", "get dbmbytes", "128"},
		{"set eval material", "eval material", "get eval", "material"},
	} {
		expect(t, p, c.set, c.reply, true)
		expect(t, p, c.get, c.value, true)
	}
	s := p.Settings()
	if s.HashMB != 16 || s.Threads != 2 || s.Book != 3 || !s.AllScores || s.EnableWLD || s.MaxDBPieces != 6 || s.DBMBytes != 128 {
		t.Errorf("settings %+v", s)
	}
}

func TestBadValuesAreRefusedAndTheOldOnesKept(t *testing.T) {
	p := newPlugin(t)
	expect(t, p, "set hashsize lots", `set hashsize lots: option Hash: "lots" is not a whole number; keeping 64`, false)
	expect(t, p, "set allscores 2", `set allscores "2": want 0 or 1`, false)
	expect(t, p, "get hashsize", "64", true)
	// Out of range: refused (0) and the old value kept, as the README says.
	expect(t, p, "set hashsize 999999", fmt.Sprintf("set hashsize 999999: option Hash: 999999 is outside 1..%d; keeping 64", MaxHashMB), false)
	expect(t, p, "set book 9", "set book 9: option Book: 9 is outside 0..3; keeping 0", false)
	expect(t, p, "set max_dbpieces 40", `set max_dbpieces "40": want a whole number from 0 to 32; keeping 8`, false)
	expect(t, p, "set randomties 2", `set randomties 2: option RandomTies: "2" is not true or false; keeping 0`, false)
	for _, c := range [][2]string{{"get hashsize", "64"}, {"get book", "0"}, {"get max_dbpieces", "8"}, {"get randomties", "0"}} {
		expect(t, p, c[0], c[1], true)
	}
	// eval.ParseSpec cuts the name at the first ':', so a Windows path
	// reaches the loader whole and the error names it.
	reply, ok := p.Command(`set eval neche:C:\nets\best_networks.txt#last`)
	if ok || !strings.Contains(reply, `C:\nets\best_networks.txt`) || !strings.HasSuffix(reply, `keeping "`+all.DefaultSpec+`"`) {
		t.Errorf("bad eval file: %q, %v", reply, ok)
	}
	reply, ok = p.Command("set eval nosuchkind")
	if ok || !strings.Contains(reply, `unknown evaluator "nosuchkind"`) {
		t.Errorf("unknown kind: %q, %v", reply, ok)
	}
	expect(t, p, "get eval", all.DefaultSpec, true)
	reply, ok = p.Command("set bookfile /no/such/book.bin")
	if ok || !strings.Contains(reply, "/no/such/book.bin") || !strings.HasSuffix(reply, `keeping ""`) {
		t.Errorf("bad book file: %q, %v", reply, ok)
	}
	reply, ok = p.Command("staticevaluation B:W1:B")
	if ok || !strings.Contains(reply, "crowning row") {
		t.Errorf("bad FEN: %q, %v", reply, ok)
	}
}

func TestUnknownAndUnsupportedCommandsGetAQuestionMark(t *testing.T) {
	p := newPlugin(t)
	for _, c := range []string{"", "frobnicate", "get solve", "set solve 1", "get enable_mtc", "get mtcpath", "set nothing 1", "get"} {
		expect(t, p, c, Unknown, false)
	}
}

func TestEvalFromAFileRelativeToTheEnginesFolder(t *testing.T) {
	// CheckerBoard runs with its own folder as the working directory and
	// keeps engine files in engines/.
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "engines"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../testdata/neche_g1.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "engines", "g1.txt"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	p := newPlugin(t)
	expect(t, p, "set eval neche:g1.txt#1", "eval neche:g1.txt#1", true)
	reply, ok := p.Command("staticevaluation W:W21,22:B1")
	f, err := eval.Load("neche:" + filepath.Join(dir, "engines", "g1.txt") + "#1")
	if err != nil {
		t.Fatal(err)
	}
	ev, pos := f(), mustFEN(t, "W:W21,22:B1")
	want := fmt.Sprintf("neche:g1.txt#1: %+d for white (to move)\nraw output %g", ev.Evaluate(&pos), ev.Raw(&pos))
	if !ok || reply != want {
		t.Errorf("staticevaluation: %q, %v; want %q", reply, ok, want)
	}
}

func TestRepliesFitTheHostsBuffers(t *testing.T) {
	p := newPlugin(t)
	if h, _ := p.Command("help"); len(h) >= 700 || !strings.Contains(h, "set eval SPEC") {
		t.Errorf("help is %d bytes (want < 700) or does not list set eval:\n%s", len(h), h)
	}
	if a, ok := p.Command("about"); !ok || !strings.Contains(a, "nechecb 9.9\n") || !strings.Contains(a, "Evaluator: "+all.DefaultSpec) {
		t.Errorf("about: %q", a)
	}
	long := "set eval nosuchkind:" + strings.Repeat("x", 3000)
	if r, ok := p.Command(long); ok || len(r) > MaxText {
		t.Errorf("reply to a long command is %d bytes (handled %v), want at most %d", len(r), ok, MaxText)
	}
	expect(t, p, "set dbpath "+strings.Repeat("d", 256), "set dbpath: a path of 256 bytes is longer than 255", false)
	reply, ok := p.Command("set check_wld_dir " + t.TempDir())
	if !ok || !strings.Contains(reply, "holds no endgame database files") {
		t.Errorf("check_wld_dir: %q, %v", reply, ok)
	}
}

// TestEveryOptionOfTheTable: each option of the session's table can be
// read, set and explained by its CheckerBoard name, and help lists every
// announced one.
func TestEveryOptionOfTheTable(t *testing.T) {
	p := newPlugin(t)
	help, _ := p.Command("help")
	for _, o := range p.sess.Options() {
		name := cbName(o.Name)
		v, _ := p.sess.Get(o.Name)
		want := cbValue(&o, v)
		expect(t, p, "get "+name, want, true)
		reply, ok := p.Command("set " + name + " " + want)
		if !ok {
			t.Errorf("set %s %s: %q", name, want, reply)
		}
		if reply, ok := p.Command("help " + name); !ok || !strings.Contains(reply, o.Help) {
			t.Errorf("help %s: %q, %v", name, reply, ok)
		}
		if !o.Hidden && !strings.Contains(help, " "+name+",") {
			t.Errorf("help does not list %s:\n%s", name, help)
		}
	}
	expect(t, p, "set multipv 3", "multipv 3", true)
	if got := p.sess.Engine().Options().MultiPV; got != 3 {
		t.Errorf("set multipv 3: the engine has MultiPV %d", got)
	}
	expect(t, p, "set ExpNoLMR 1", "expnolmr 1", true)
	if !p.sess.Engine().Options().Tuning.NoLMR {
		t.Error("set expnolmr 1 did not reach the search")
	}
}
