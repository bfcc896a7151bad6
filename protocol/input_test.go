package protocol

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestShortenMessage(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	words := strings.TrimSpace(strings.Repeat(x(70)+" ", 40))
	cases := []struct{ in, want string }{
		{`unknown command "gp" (try "help")`, `unknown command "gp" (try "help")`},
		{`unknown command "` + x(80) + `"`, `unknown command "` + x(80) + `"`},
		{`unknown command "` + x(200) + `" (try "help")`, `unknown command "` + x(80) + `"... (try "help")`},
		{fmt.Sprintf("word %q here", strings.Repeat(`a"b`, 50)), fmt.Sprintf("word %q... here", strings.Repeat(`a"b`, 27)[:80])},
		{fmt.Sprintf("%q", strings.Repeat("é", 100)), fmt.Sprintf("%q...", strings.Repeat("é", 80))},
		{"open /" + x(200) + ": no such file", "open /" + x(79) + "... no such file"},
		{`bad "` + x(200), `bad "` + x(79) + "..."},
		// The second quote closes the first string; the last one is unclosed.
		{`bad "` + x(10) + ` "` + x(100) + `"`, `bad "` + x(10) + ` "` + x(80) + `..."`},
		{"legal moves: 8-11 9-13 10-14 12-16", "legal moves: 8-11 9-13 10-14 12-16"},
		{words, words[:maxMessage-3] + "..."},
	}
	for _, c := range cases {
		if got := shortenMessage(c.in); got != c.want {
			t.Errorf("shortenMessage(%.60q...):\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestReadLines: lines up to maxLineBytes come whole, whatever their end of
// line; a longer one comes as its start and its length, and reading goes on.
func TestReadLines(t *testing.T) {
	full := strings.Repeat("y", maxLineBytes)
	huge := strings.Repeat("z", 16<<20)
	input := "a\r\n" + full + "\r\n" + full + "y\n\n" + huge + "\r\nlast"
	lines := make(chan inputLine)
	readErr := make(chan error, 1)
	go readLines(strings.NewReader(input), lines, readErr)
	var got []inputLine
	for l := range lines {
		got = append(got, l)
	}
	want := []inputLine{{text: "a"}, {text: full}, {text: full[:maxLogged], size: maxLineBytes + 1}, {text: ""}, {text: huge[:maxLogged], size: len(huge)}, {text: "last"}}
	if !cmp.Equal(got, want, cmp.AllowUnexported(inputLine{})) {
		for i := range got {
			t.Logf("line %d: %d bytes, size %d", i, len(got[i].text), got[i].size)
		}
		t.Fatalf("got %d lines, want %d as above", len(got), len(want))
	}
	if err := <-readErr; err != io.EOF {
		t.Errorf("reading ended with %v, want EOF", err)
	}
}

// TestLongLine: a 16 MB line gets one short error in each dialect and the
// server goes on serving.
func TestLongLine(t *testing.T) {
	huge := strings.Repeat("x", 16<<20)
	s := newSession(t, Config{})
	s.send(huge, "isready")
	want := fmt.Sprintf(`info string error: line too long: %d bytes, more than %d; it starts "%s"...`, len(huge), maxLineBytes, huge[:maxQuoted])
	s.expect(want, "readyok")
	s.send(strings.Repeat("x", maxLineBytes), "isready")
	s.expect(`info string error: unknown command "`+huge[:maxQuoted]+`"... (try "help")`, "readyok")
	s.send("hub", huge, "ping")
	s.until("wait")
	s.expect(fmt.Sprintf(`error message="line too long: %d bytes, more than %d; it starts '%s'..."`, len(huge), maxLineBytes, huge[:maxQuoted]), "pong")
	s.finish()
}

// TestErrorsQuoteLittleInput sends a long token wherever input is echoed in
// an error: each answer is one line of at most maxMessage bytes, holding no
// more than maxQuoted characters of the token in a row.
func TestErrorsQuoteLittleInput(t *testing.T) {
	long := strings.Repeat("q", 5000)
	uci := []string{
		long, "go " + long, "go depth " + long, "go searchmoves " + long, "position " + long,
		"position fen " + long, "position fen B:W21-32:B" + long, "position startpos " + long, "position startpos moves " + long,
		"setoption name " + long + " value 1", "setoption name Hash value " + long, "setoption name LogLevel value " + long,
		"setoption name Eval value " + long, "setoption name Eval value neche:" + long, "setoption name LogFile value /no-such-dir/" + long,
		"perft " + long, "bench " + long,
	}
	hub := []string{
		long, "set-param name=" + long + " value=1", "set-param name=Hash value=" + long, "set-param name=variant value=" + long,
		"pos pos=" + long, `pos moves="` + long + `"`, "level depth=" + long, "level time=" + long, "go " + long, `pos pos="` + long,
	}
	check := func(cmd string, lines []string) {
		t.Helper()
		if len(lines) != 2 {
			t.Errorf("%.40s...: got %d lines before the answer, want one error: %.300q", cmd, len(lines)-1, lines)
			return
		}
		if e := lines[0]; len(e) > maxMessage || strings.Contains(e, long[:maxQuoted+1]) {
			t.Errorf("%.40s...: error line of %d bytes: %.400s", cmd, len(e), e)
		}
	}
	s := newSession(t, Config{})
	for _, cmd := range uci {
		s.send(cmd, "isready")
		check(cmd, s.until("readyok"))
	}
	s.send("hub")
	s.until("wait")
	for _, cmd := range hub {
		s.send(cmd, "init")
		check(cmd, s.until("ready"))
	}
	s.finish()
}
