package hubtext

import (
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nechecb/nechecb/engine"
)

// hubStart is the start position in Hub's format.
const hubStart = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"

func legal(p *engine.Position, m engine.Move) bool {
	for _, l := range p.LegalMoves() {
		if l == m {
			return true
		}
	}
	return false
}

// TestHubPositionMapping checks that character k+1 of pos is square k, and
// that the board pydraughts sends (first mover called White, squares
// numbered from the other side) is the start position turned round.
func TestHubPositionMapping(t *testing.T) {
	p, err := ParsePosition(hubStart)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.FEN(); got != engine.StartFEN {
		t.Errorf("start: got %s, want %s", got, engine.StartFEN)
	}
	q, err := ParsePosition("W" + hubStart[1:])
	if err != nil {
		t.Fatal(err)
	}
	start := engine.StartPosition()
	if rot := start.Rotated(); !q.SameBoard(&rot) {
		t.Errorf("pydraughts' start %s is not the start turned round %s", q.FEN(), rot.FEN())
	}
	k, err := ParsePosition("WBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := k.FEN(), "W:W32:BK1"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := Position(&k); got != "WBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew" {
		t.Errorf("written back as %s", got)
	}
}

func TestHubMoves(t *testing.T) {
	// A black king on 1 with white men on 6, 14 and 15: it can jump 1x10x19
	// (over 6 and 15) or 1x10x17 (over 6 and 14).
	p, err := engine.ParseFEN("B:W6,14,15:BK1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range p.LegalMoves() {
		text := Move(m)
		got = append(got, text)
		back, err := ParseMove(&p, text)
		if err != nil || back != m {
			t.Errorf("%s read back as %v, %v", text, back, err)
		}
		full, err := ParseMove(&p, m.String())
		if err != nil || full != m {
			t.Errorf("full path %s read as %v, %v", m, full, err)
		}
	}
	if want := []string{"1x17x6x14", "1x19x6x15"}; !cmp.Equal(got, want, cmpopts.SortSlices(func(a, b string) bool { return a < b })) {
		t.Errorf("moves %q, want %q", got, want)
	}
}

// FuzzHubPosition checks that every Hub position that reads writes back to
// the same text and reads again to the same position.
func FuzzHubPosition(f *testing.F) {
	f.Add(hubStart)
	f.Add("WBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePosition(text)
		if err != nil {
			return
		}
		out := Position(&p)
		if out != text {
			t.Fatalf("%q written back as %q", text, out)
		}
		q, err := ParsePosition(out)
		if err != nil || q != p {
			t.Fatalf("%q read again as %v, %v", out, q.FEN(), err)
		}
	})
}

// FuzzHubMove checks that ParseMove never panics and that whatever it
// reads is a legal move that writes back to a text it reads the same way.
func FuzzHubMove(f *testing.F) {
	for _, seed := range []string{"11-15", "1x17x6x14", "1x10x17", "9x18x27", "c3d4", "x", "1x1x1x1"} {
		f.Add("B:W6,14,15:BK1", seed)
	}
	f.Fuzz(func(t *testing.T, fen, text string) {
		p, err := engine.ParseFEN(fen)
		if err != nil {
			return
		}
		m, err := ParseMove(&p, text)
		if err != nil {
			return
		}
		if !legal(&p, m) {
			t.Fatalf("%q read as illegal %v", text, m)
		}
		back, err := ParseMove(&p, Move(m))
		if err != nil || back.FromSquare() != m.FromSquare() || back.ToSquare() != m.ToSquare() || back.Captured != m.Captured {
			t.Fatalf("%q → %s → %v, %v", text, Move(m), back, err)
		}
	})
}

// FuzzParseLine checks that ParseLine never panics and that a line written
// back from what it read (values through Value) reads the same.
func FuzzParseLine(f *testing.F) {
	for _, seed := range []string{`info depth=3 pv="11-15 23-19" claim="win forced" flag`, `done move=9x27x14x23 ponder=`, `x a="unterminated`, `=1`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cmd, args, err := ParseLine(line)
		if err != nil || strings.ContainsFunc(cmd, unicode.IsSpace) {
			return
		}
		out := cmd
		for _, w := range args.Words {
			if strings.ContainsFunc(w, unicode.IsSpace) {
				return // a word is cut at blanks only; other space is kept in it
			}
			out += " " + w
		}
		for k, v := range args.Values {
			if strings.Contains(v, `"`) || strings.ContainsFunc(k, unicode.IsSpace) {
				return // Quote turns '"' into '\'', by design
			}
			out += " " + k + "=" + Value(v)
		}
		cmd2, args2, err := ParseLine(out)
		if err != nil || cmd2 != cmd || !cmp.Equal(args, args2, cmpopts.EquateEmpty()) {
			t.Fatalf("%q read as %q %+v, written %q, read back %q %+v (%v)", line, cmd, args, out, cmd2, args2, err)
		}
	})
}
