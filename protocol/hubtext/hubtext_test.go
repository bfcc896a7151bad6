package hubtext

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nechecb/nechecb/engine"
)

// The start position in each layout.
const (
	pydraughtsStart = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
	literalStart    = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
)

func legal(p *engine.Position, m engine.Move) bool {
	for _, l := range p.LegalMoves() {
		if l == m {
			return true
		}
	}
	return false
}

// TestHubPositionLayouts reads and writes positions in both layouts. The
// pydraughts cases are what pydraughts 3277325 wrote as initial_hub_fen for
// draughts.Board(variant='english', fen=FEN).
func TestHubPositionLayouts(t *testing.T) {
	cases := []struct {
		layout Layout
		text   string
		fen    string
	}{
		{Pydraughts, pydraughtsStart, engine.StartFEN},
		{Pydraughts, "WeeeeeBeeeeeeeebeeeeeWeeeeeeweeee", "B:W18,K27:B5,K12"},
		{Pydraughts, "BeeeeeBeeeeeeeebeeeeeWeeeeeeweeee", "W:W18,K27:B5,K12"},
		{Pydraughts, "BBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew", "W:WK32:B1"},
		{Literal, literalStart, engine.StartFEN},
		{Literal, "WBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew", "W:W32:BK1"},
		{Literal, "BeeeebeeeeeeBeeeeeweeeeeeeeWeeeee", "B:W18,K27:B5,K12"},
	}
	for _, c := range cases {
		want, err := engine.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		p, _, err := ParsePosition(c.text, c.layout)
		if err != nil {
			t.Errorf("%s %s: %v", c.layout, c.text, err)
			continue
		}
		if !p.SameBoard(&want) {
			t.Errorf("%s %s read as %s, want %s", c.layout, c.text, p.FEN(), c.fen)
		}
		if got := Position(&want, c.layout); got != c.text {
			t.Errorf("%s written in the %s layout as %s, want %s", c.fen, c.layout, got, c.text)
		}
	}
}

func TestLayoutNames(t *testing.T) {
	for _, l := range []Layout{Pydraughts, Literal} {
		back, err := ParseLayout(strings.ToUpper(l.String()))
		if err != nil || back != l {
			t.Errorf("%s read back as %v, %v", l, back, err)
		}
	}
	if _, err := ParseLayout("mirrored"); err == nil {
		t.Error("ParseLayout accepted mirrored")
	}
}

func TestHubPositionErrors(t *testing.T) {
	cases := []struct {
		layout     Layout
		text, want string
	}{
		{Pydraughts, "Wbb", `"Wbb" has 3 characters, want 33`},
		{Pydraughts, "X" + pydraughtsStart[1:], `side to move is 'X', not W or B`},
		{Pydraughts, pydraughtsStart[:32] + "z", `character 33 (square 1 in the pydraughts layout) is 'z'`},
		{Literal, literalStart[:32] + "z", `character 33 (square 32 in the literal layout) is 'z'`},
		{Pydraughts, "Wwwwwwwwwwwwwwbbbbbbbbbbbbbbbbbbb", `pydraughts layout: `},
	}
	for _, c := range cases {
		_, _, err := ParsePosition(c.text, c.layout)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want one containing %q", c.layout, c.text, err, c.want)
		}
	}
}

// TestHubPositionCrownsStrandedMen checks that a man standing on its own
// crowning row, which a client's board editor can send, is read as a king
// and named, in both layouts.
func TestHubPositionCrownsStrandedMen(t *testing.T) {
	want, err := engine.ParseFEN("B:WK1,22:BK32,9")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []Layout{Pydraughts, Literal} {
		// The same board with the two kings written as men.
		kings := Position(&want, l)
		text := kings[:1] + strings.ToLower(kings[1:])
		p, crowned, err := ParsePosition(text, l)
		if err != nil {
			t.Errorf("%s %q: %v", l, text, err)
			continue
		}
		if p != want || !slices.Equal(crowned, []int{1, 32}) {
			t.Errorf("%s %q: %s crowned %v, want %s crowned [1 32]", l, text, p.FEN(), crowned, want.FEN())
		}
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
// the same text and reads again to the same position, in both layouts, and
// that the pydraughts layout of a position is the literal layout of the
// position turned round with the colours swapped (engine's Rotated).
func FuzzHubPosition(f *testing.F) {
	f.Add(pydraughtsStart)
	f.Add(literalStart)
	f.Add("WBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew")
	f.Fuzz(func(t *testing.T, text string) {
		for _, l := range []Layout{Pydraughts, Literal} {
			p, _, err := ParsePosition(text, l)
			if err != nil {
				continue
			}
			out := Position(&p, l)
			if out != text {
				t.Fatalf("%s: %q written back as %q", l, text, out)
			}
			q, _, err := ParsePosition(out, l)
			if err != nil || q != p {
				t.Fatalf("%s: %q read again as %v, %v", l, out, q.FEN(), err)
			}
			r := p.Rotated()
			if l == Pydraughts && Position(&r, Literal) != text {
				t.Fatalf("%q: the pydraughts layout of %s is not the literal layout %s of the rotated %s", text, p.FEN(), Position(&r, Literal), r.FEN())
			}
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
