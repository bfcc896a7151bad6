package console

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/testbin"
)

// tmuxSession drives the real nechecb binary in a detached tmux session on a
// private server.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func (s *tmuxSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// typeText types text literally, then presses the named keys (tmux key
// names such as Enter, Tab or C-c).
func (s *tmuxSession) typeText(text string, keys ...string) {
	s.t.Helper()
	if text != "" {
		s.tmux("send-keys", "-t", "console", "-l", text)
	}
	if len(keys) > 0 {
		s.tmux(append([]string{"send-keys", "-t", "console"}, keys...)...)
	}
}

// screen returns the visible screen.
func (s *tmuxSession) screen() string {
	s.t.Helper()
	return s.tmux("capture-pane", "-p", "-t", "console")
}

// waitFor waits until the screen shows text n times, and returns the screen.
// The deadline only guards against a hang: it is far beyond what a step takes
// even on a heavily loaded machine, where 20 s once proved too short.
func (s *tmuxSession) waitFor(text string, n int) string {
	s.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		scr := s.screen()
		if strings.Count(scr, text) >= n {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q %d times:\n%s", text, n, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitGone waits until the screen no longer shows text.
func (s *tmuxSession) waitGone(text string) {
	s.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for strings.Contains(s.screen(), text) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen still shows %q:\n%s", text, s.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRealTerminal runs the nechecb binary under tmux: it types a move with
// tab completion, sees the engine answer, has a search play its move at once
// with Ctrl-C and leaves with a second one, then checks the history file. Run it with -v to
// see the screen captured after the engine's move. It runs under -short as
// well: once the binary is built it takes a fraction of a second.
func TestRealTerminal(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	bin := testbin.Build(t)
	history := filepath.Join(dir, "history")
	s := &tmuxSession{t: t, socket: filepath.Join(dir, "tmux.sock")}
	shell := fmt.Sprintf("env LANG=C.UTF-8 TERM=xterm NO_COLOR=1 %s console --history %s --eval material; echo EXITED $?; sleep 600", bin, history)
	s.tmux("-u", "new-session", "-d", "-s", "console", "-x", "100", "-y", "45", shell)
	defer exec.Command("tmux", "-S", s.socket, "kill-server").Run()

	s.waitFor("1. black>", 1)
	// Tab twice lists the moves that fit; typing on and Tab completes.
	s.typeText("f6", "Tab", "Tab")
	s.waitFor("f6e5 f6g5", 1)
	s.typeText("e", "Tab", "Enter")
	// The engine answers the user's move by default.
	scr := s.waitFor("2. black>", 1)
	if !strings.Contains(scr, "nechecb plays") || !strings.Contains(scr, "⛂") {
		t.Errorf("no engine move or no Unicode pieces on the screen:\n%s", scr)
	}
	t.Logf("the screen after 11-15 and the engine's answer:\n%s", scr)

	s.typeText("", "C-l") // liner clears the screen
	// Wait for the clear: until then the first search's lines would satisfy
	// the wait for this one's, and Ctrl-C would come before it started.
	s.waitGone("nechecb plays")
	s.typeText("play none", "Enter")
	s.typeText("level movetime 60000", "Enter")
	s.typeText("go", "Enter")
	s.waitFor(" nodes ", 1)
	// Ctrl-C while the engine thinks plays the best move found so far.
	s.typeText("", "C-c")
	s.waitFor("move now", 1)
	s.waitFor("2. white>", 1)
	s.typeText("", "C-c")
	s.waitFor("EXITED 0", 1)

	data, err := os.ReadFile(history)
	if err != nil {
		t.Fatalf("history file: %v", err)
	}
	if !strings.Contains(string(data), "f6e5\nplay none\nlevel movetime 60000\ngo\n") {
		t.Errorf("history file holds:\n%s", data)
	}
}
