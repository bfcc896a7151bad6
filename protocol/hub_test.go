package protocol

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/internal/player"
)

// The start position in the Hub dialect's two layouts of pos: pydraughts'
// (the default) and the literal one.
const (
	hubStart        = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
	hubLiteralStart = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
)

func TestHubSession(t *testing.T) {
	s := newSession(t, Config{})
	s.send("hub")
	lines := s.until("wait")
	if lines[0] != `id name=nechecb version=9.9 author="the nechecb authors"` || lines[1] != "param name=variant value=english type=enum values=english" {
		t.Errorf("handshake starts %q", lines[:2])
	}
	// id, variant, one param per announced option (ExpNoLMR and
	// HubPosLayout are hidden), wait.
	if got, want := len(lines), 2+len(testOptions(&fakeSearcher{}, &fakeBook{}))-2+1; got != want {
		t.Errorf("handshake has %d lines, want %d", got, want)
	}
	for _, want := range []string{
		"param name=Hash value=64 type=int min=1 max=4096",
		"param name=Ponder value=false type=bool",
		`param name=BookFile value="" type=string`,
		`param name=LogLevel value=warn type=enum values="debug info warn error off"`,
	} {
		if !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("handshake lacks %q", want)
		}
	}
	s.send("set-param name=variant value=english", "set-param name=Hash value=32", "set-param name=Eval value="+testDefaultEval, "init")
	s.expect("ready")
	if snap := s.fake.snapshot(); snap.opts.HashMB != 32 || snap.prepared != 32 {
		t.Errorf("Hash %d after init, prepared with %d, want 32 for both", snap.opts.HashMB, snap.prepared)
	}
	s.send("new-game", "pos pos="+hubStart+` moves="11-15 23-19"`, "level depth=2", "go think")
	s.expect(
		`info depth=1 mean-depth=1 score=0.00 nodes=10 time=0.000 nps=0 pv="8-11 19-16"`,
		`info depth=2 mean-depth=2 score=0.00 nodes=20 time=0.000 nps=0 pv="8-11 19-16"`,
		"done move=8-11 ponder=19-16",
	)
	if got := s.fake.snapshot(); got.clears != 1 || got.history != 2 {
		t.Errorf("clears %d history %d, want 1 and 2", got.clears, got.history)
	}
	// A capture in Hub's form: from, to, then the captured squares.
	s.send(`pos moves="11-15 22-18 15x22x18"`, "go think")
	s.until("done move=25x18x22 ponder=")
	s.send("level infinite", "go analyze")
	s.until("info depth=1 ")
	s.send("ping")
	s.until("pong")
	s.send("pos")
	s.until(`error message="busy: a search is running (send stop first)"`)
	s.send("stop")
	s.until("done move=25x18x22 ponder=8-11")
	s.send("quit")
	s.exited()
}

func TestHubLevels(t *testing.T) {
	cases := []struct {
		level string
		black bool // the side to move is Black
		want  player.Limits
	}{
		{"level depth=7", true, player.Limits{Depth: 7}},
		{"level nodes=5000", true, player.Limits{Nodes: 5000}},
		{"level move-time=0.25", true, player.Limits{MoveTime: 250 * time.Millisecond}},
		{"level moves=20 time=60 inc=0.5", true, player.Limits{BTime: 60500 * time.Millisecond, BInc: 500 * time.Millisecond, MovesToGo: 20}},
		{"level time=30", false, player.Limits{WTime: 30 * time.Second}},
		{"level time=0", false, player.Limits{WTime: time.Millisecond}},
		// pydraughts sends time = clock - inc, negative on a short clock.
		{"level time=-0.02 inc=0.1", false, player.Limits{WTime: 80 * time.Millisecond, WInc: 100 * time.Millisecond}},
		{"level time=-0.05 inc=0.05", true, player.Limits{BTime: time.Millisecond, BInc: 50 * time.Millisecond}},
		{"level time=-3 inc=1", true, player.Limits{BTime: time.Millisecond, BInc: time.Second}},
		{"level infinite", true, player.Limits{Infinite: true}},
	}
	for _, c := range cases {
		t.Run(c.level, func(t *testing.T) {
			s := newSession(t, Config{})
			s.send("hub", c.level)
			if !c.black {
				s.send(`pos moves="11-15"`)
			}
			s.send("go think")
			s.until("info depth=1 ")
			s.send("stop")
			s.until("done ")
			if got := s.fake.snapshot().limits; !cmp.Equal(got, c.want) {
				t.Errorf("limits (-got +want):\n%s", cmp.Diff(got, c.want))
			}
			s.finish()
		})
	}
}

func TestHubErrors(t *testing.T) {
	cases := []struct{ cmd, want string }{
		{"fly", `error message="unknown command \"fly\""`},
		{"go fast", `error message="go: \"fast\" is not think, ponder or analyze"`},
		{`pos pos="Bbb`, `error message="pos: unterminated quoted value"`},
		{"pos pos=Bbbb", `error message="pos: \"Bbbb\" has 4 characters, want 33 (W or B, then one of w b W B e per square)"`},
		{"pos pos=X" + hubStart[1:], `error message="pos: side to move is 'X', not W or B"`},
		{"pos pos=" + hubStart[:32] + "z", `error message="pos: character 33 (square 1 in the pydraughts layout) is 'z', not one of w b W B e"`},
		{"pos pos=" + hubStart[:13] + "b" + hubStart[14:], `error message="pos: pydraughts layout: fen \"B:W20,21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\": white has 13 pieces, more than 12"`},
		{`pos moves="11-15 15-19"`, `error message="pos: move 2: illegal move '15-19'; legal moves: 21-17 22-18 23-19 24-20 22-17 23-18 24-19"`},
		{"level", `error message="level: no limit given (depth=, nodes=, move-time=, time= or infinite)"`},
		{"level time=soon", `error message="level: time=\"soon\" is not a number of seconds"`},
		{"level time=1 inc=-1", `error message="level: inc=\"-1\" is not a number of seconds"`},
		{"set-param name=variant value=international", `error message="set-param: variant \"international\" is not supported (only english)"`},
		{"set-param name=Threads value=0", `error message="set-param: option Threads: 0 is outside 1..256"`},
		{"set-param value=3", `error message="set-param: no name"`},
		{"=3", `error message="\"=\" without a key"`},
	}
	s := newSession(t, Config{})
	s.send("hub")
	s.until("wait")
	for _, c := range cases {
		s.send(c.cmd, "ping")
		want := strings.ReplaceAll(c.want, `\"`, "'")
		s.expect(want, "pong")
	}
	s.finish()
}

func TestHubPonder(t *testing.T) {
	s := newSession(t, Config{})
	s.send("hub", "level depth=1", "go ponder")
	s.until("info depth=1 ")
	s.quiet(50 * time.Millisecond)
	s.send("ponder-hit")
	s.until("done move=9-13 ponder=21-17")
	s.finish()
}

func TestHubNoMove(t *testing.T) {
	s := newSession(t, Config{})
	s.send("hub", "pos pos=WeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeB", "go think")
	s.until("wait")
	s.expect(`info claim="loss no legal move"`, "done")
	s.finish()
}

// TestHubPosCrownsStrandedMen plays pydraughts' case: a position its board
// editor allows, a man on its own crowning row. The man is crowned with a
// note and go answers with a move instead of leaving the client waiting.
func TestHubPosCrownsStrandedMen(t *testing.T) {
	s := newSession(t, Config{})
	s.send("hub")
	s.until("wait")
	s.send("init")
	s.expect("ready")
	// pydraughts' layout of B:W1:B20 (square k is character 33-k, colours
	// and side swapped): White's man on 1 stands on its crowning row.
	pos := "W" + strings.Repeat("e", 12) + "w" + strings.Repeat("e", 18) + "b"
	s.send("pos pos="+pos, "level depth=1", "go think")
	s.expect(`info message="pos: the man on square 1 stood on its crowning row and is crowned"`)
	s.until("done move=")
}
