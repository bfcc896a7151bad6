package protocol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
)

// TestRealSearcherClaim runs the engine's own searcher on a won ending: two
// kings against a man. The win is proven and claimed before bestmove.
func TestRealSearcherClaim(t *testing.T) {
	s := newSession(t, Config{Searcher: player.New(player.Options{HashMB: 4}, nil, "")})
	s.send("position fen B:W30:BK18,K19", "go depth 20")
	lines := s.until("bestmove ")
	claim := lines[len(lines)-2]
	if !strings.HasPrefix(claim, "info string claim win forced win in ") {
		t.Errorf("no win claim before bestmove: %q", lines)
	}
	p, _ := engine.ParseFEN("B:W30:BK18,K19")
	best, _, _ := strings.Cut(strings.TrimPrefix(lines[len(lines)-1], "bestmove "), " ")
	if _, err := p.ParseMove(best); err != nil {
		t.Error(err)
	}
	s.finish()
}

func TestLogFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "engine.log")
	s := newSession(t, Config{})
	s.send("setoption name LogFile value "+path, "setoption name LogLevel value debug", "isready")
	s.expect("readyok")
	s.send("moves")
	s.until("info string moves")
	s.send("setoption name LogFile value "+filepath.Join(dir, "no", "such", "dir", "x.log"), "isready")
	line := s.next()
	if !strings.HasPrefix(line, `info string error: LogFile "`) || !strings.HasSuffix(line, `; keeping "`+path+`"`) {
		t.Errorf("got %q", line)
	}
	s.expect("readyok")
	s.send("quit")
	s.exited()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"in":"moves"`, `"out":"readyok"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("log lacks %s:\n%s", want, data)
		}
	}
}
