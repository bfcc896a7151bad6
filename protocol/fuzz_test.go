package protocol

import (
	"strings"
	"testing"
)

// replyWords are the first words of every line the engine may write.
var replyWords = map[string]bool{
	"id": true, "option": true, "uciok": true, "readyok": true, "info": true, "bestmove": true,
	"param": true, "wait": true, "ready": true, "pong": true, "done": true, "error": true,
}

// FuzzCommands feeds arbitrary lines to the server and checks that it does
// not panic, writes only protocol lines and still answers isready (or, in
// the Hub dialect, ping) afterwards.
func FuzzCommands(f *testing.F) {
	for _, seed := range []string{
		"uci", "isready", "ucinewgame", "position startpos moves 11-15 23-19", "position fen W:WK10,18:B12,K22 moves 18-15",
		"go depth 3", "go infinite", "go ponder", "go wtime 100 btime 100 winc 10 binc 10 movestogo 5", "go searchmoves 9-13",
		"stop", "ponderhit", "setoption name Hash value 16", "setoption name Eval value neche:x#3", "d", "moves", "eval", "result",
		"hub", "hub\nset-param name=Threads value=2\ninit", "hub\npos pos=" + hubStart + ` moves="11-15"` + "\nlevel depth=2\ngo think",
		"hub\nlevel infinite\ngo analyze\nping", `pos pos="W`, "level moves=3 time=1.5 inc=0.1", "go\nstop", "position startpos moves",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		lines := strings.Split(input, "\n")
		if len(lines) > 20 {
			lines = lines[:20]
		}
		for _, l := range lines {
			low := strings.ToLower(l)
			// perft and bench may run for minutes; LogFile would write files;
			// quit ends the session the check needs.
			if strings.Contains(low, "perft") || strings.Contains(low, "bench") || strings.Contains(low, "logfile") {
				t.Skip()
			}
			if f := strings.Fields(low); len(f) > 0 && f[0] == "quit" {
				t.Skip()
			}
		}
		s := newSession(t, Config{})
		s.send(lines...)
		s.send("isready", "ping")
		checkLine := func(line string) {
			if w := strings.Fields(line); len(w) == 0 || !replyWords[w[0]] {
				t.Fatalf("not a protocol line: %q", line)
			}
		}
		for answered := false; !answered; {
			line := s.next()
			checkLine(line)
			answered = line == "readyok" || line == "pong"
		}
		s.send("quit")
		for _, line := range s.rest() {
			checkLine(line)
		}
		if err := <-s.done; err != nil {
			t.Fatal(err)
		}
	})
}
