package protocol

import (
	"bufio"
	"io"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on what the server reads and echoes.
const (
	// maxLineBytes is the longest command line read, end of line excluded;
	// a longer line is refused with one error and skipped.
	maxLineBytes = 64 << 10
	// maxQuoted is how many characters of a quoted value an error message
	// keeps.
	maxQuoted = 80
	// maxMessage bounds the length of an error message in bytes.
	maxMessage = 1024
	// maxLogged bounds a command line in the logs.
	maxLogged = 4096
)

// inputLine is one line read, without its end of line. A line longer than
// maxLineBytes has size set to its length and text holding its start.
type inputLine struct {
	text string
	size int
}

// readLines sends every line of r, then closes lines and reports why
// reading ended. A line longer than maxLineBytes is not kept in memory: its
// start and its length are sent.
func readLines(r io.Reader, lines chan<- inputLine, readErr chan<- error) {
	br := bufio.NewReader(r)
	const keep = maxLineBytes + 2 // room for "\r\n"
	var buf []byte
	size := 0
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if room := keep - len(buf); room > 0 {
			buf = append(buf, chunk[:min(len(chunk), room)]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if size > 0 {
			lines <- lineOf(buf, size, chunk)
			// The send made the server's loop runnable on this
			// goroutine's P. Reading on a blocking stdin (a pipe from a
			// GUI) keeps that P in the read system call, and the loop
			// would wait there for the runtime's monitor to hand the P on:
			// up to 10-20 ms with the search busy on the other P, the
			// latency of every stop and ponderhit. Yield first, so the
			// command is handled before the next read blocks.
			runtime.Gosched()
		}
		buf, size = buf[:0], 0
		if err != nil {
			close(lines)
			readErr <- err
			return
		}
	}
}

// lineOf makes the inputLine of a line whose first bytes are buf, size bytes
// long in all (end of line included), last the last piece read.
func lineOf(buf []byte, size int, last []byte) inputLine {
	if size <= len(buf) {
		text := strings.TrimRight(string(buf), "\r\n")
		if len(text) <= maxLineBytes {
			return inputLine{text: text}
		}
		return inputLine{text: clip(text, maxLogged), size: len(text)}
	}
	eol := len(last) - len(strings.TrimRight(string(last), "\r\n"))
	return inputLine{text: clip(string(buf), maxLogged), size: size - eol}
}

// clip cuts s to at most n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// shortenMessage keeps bad input from coming back at length: it cuts every
// double-quoted Go string in msg to its first maxQuoted characters, and
// every other run of non-blank characters longer than that (a path inside a
// system error, say) likewise, marking each cut with "..."; then it cuts the
// whole message to maxMessage bytes.
func shortenMessage(msg string) string {
	var b strings.Builder
	quotes := true // false once a quote was found unclosed: none closes later
	for rest := msg; rest != ""; {
		if rest[0] == ' ' || rest[0] == '\t' {
			b.WriteByte(rest[0])
			rest = rest[1:]
			continue
		}
		if rest[0] == '"' && quotes {
			end := closingQuote(rest)
			quotes = end > 0
			if quotes {
				quoted := rest[:end+1]
				rest = rest[end+1:]
				value, err := strconv.Unquote(quoted)
				switch {
				case err != nil && utf8.RuneCountInString(quoted) > maxQuoted:
					quoted = firstRunes(quoted, maxQuoted) + "..."
				case err == nil && utf8.RuneCountInString(value) > maxQuoted:
					quoted = strconv.Quote(firstRunes(value, maxQuoted)) + "..."
				}
				b.WriteString(quoted)
				continue
			}
		}
		// A word: up to a blank, or a quote after its first character.
		n := 1 + strings.IndexFunc(rest[1:], func(r rune) bool { return r == ' ' || r == '\t' || r == '"' && quotes })
		if n == 0 {
			n = len(rest)
		}
		word := rest[:n]
		rest = rest[n:]
		if utf8.RuneCountInString(word) > maxQuoted {
			word = firstRunes(word, maxQuoted) + "..."
		}
		b.WriteString(word)
	}
	out := b.String()
	if len(out) > maxMessage {
		out = clip(out, maxMessage-3) + "..."
	}
	return out
}

// closingQuote returns the index of the quote that closes the Go string
// starting at s[0], or -1 when there is none.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// firstRunes returns the first n characters of s.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
