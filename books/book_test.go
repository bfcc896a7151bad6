package books

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nechecb/nechecb/engine"
)

// mustMove parses a move in p or fails the test.
func mustMove(t testing.TB, p engine.Position, s string) engine.Move {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sampleBook is a small book: the start with three moves, and one position
// with a capture.
func sampleBook(t testing.TB) *Book {
	t.Helper()
	b := New()
	start := engine.StartPosition()
	if err := b.Set(Entry{Position: start, Count: 7, Moves: []MoveEntry{
		{Move: mustMove(t, start, "9-13"), Weight: 1, Score: -40},
		{Move: mustMove(t, start, "11-15"), Weight: 5, Score: 20},
		{Move: mustMove(t, start, "10-14"), Weight: 3, Score: 5},
	}}); err != nil {
		t.Fatal(err)
	}
	cap, err := engine.ParseFEN("W:WK18,30:B14,K6")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Set(Entry{Position: cap, Count: 1, Moves: []MoveEntry{
		{Move: mustMove(t, cap, "18x9x2"), Weight: 9, Score: 300},
	}}); err != nil {
		t.Fatal(err)
	}
	return b
}

// bookSummary is a comparable view of a book.
func bookSummary(b *Book) []string {
	var out []string
	for _, e := range b.Entries() {
		line := e.Position.FEN()
		for _, m := range e.Moves {
			line += fmt.Sprintf(" %s:%d:%d", m.Move, m.Weight, m.Score)
		}
		out = append(out, fmt.Sprintf("%s #%d", line, e.Count))
	}
	return out
}

func TestBookRoundTripBinaryAndText(t *testing.T) {
	b := sampleBook(t)
	var bin, txt bytes.Buffer
	if err := b.WriteBinary(&bin); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	fromBin, err := Read(&bin, "bin")
	if err != nil {
		t.Fatal(err)
	}
	text := txt.String()
	fromTxt, err := Read(&txt, "txt")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	want := bookSummary(b)
	if diff := cmp.Diff(want, bookSummary(fromBin)); diff != "" {
		t.Errorf("binary round trip (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, bookSummary(fromTxt)); diff != "" {
		t.Errorf("text round trip (-want +got):\n%s", diff)
	}
	// Moves are kept best first.
	start := engine.StartPosition()
	if got := b.Probe(&start).Moves[0].Move.String(); got != "11-15" {
		t.Errorf("best move %s, want 11-15", got)
	}
}

func TestBinaryReaderRefusesBadFiles(t *testing.T) {
	var good bytes.Buffer
	if err := sampleBook(t).WriteBinary(&good); err != nil {
		t.Fatal(err)
	}
	data := good.Bytes()
	withCRC := func(body []byte) []byte {
		out := append([]byte(nil), body...)
		return appendCRC(out)
	}
	body := data[:len(data)-4]
	cases := map[string]struct {
		data []byte
		want string
	}{
		"empty":          {nil, "b: not a nechecb book"},
		"wrong magic":    {[]byte("hello world, not a book"), "b: not a nechecb book"},
		"future version": {withCRC(append(append([]byte(Magic), 2, 0), body[10:]...)), "version 2"},
		"bit flip":       {flip(data, 30), "checksum"},
		"truncated":      {withCRC(body[:len(body)-3]), "truncated"},
		"trailing bytes": {withCRC(append(append([]byte(nil), body...), 0)), "unexpected bytes"},
		// Put a black piece on square 21, where White already stands.
		"overlap": {withCRC(setBit(body, 16, 20)), "hold both colours"},
	}
	for name, c := range cases {
		_, err := Read(bytes.NewReader(c.data), "b")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "b: ") {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
}

func appendCRC(body []byte) []byte {
	var buf bytes.Buffer
	buf.Write(body)
	sum := crc32.ChecksumIEEE(body)
	buf.Write([]byte{byte(sum), byte(sum >> 8), byte(sum >> 16), byte(sum >> 24)})
	return buf.Bytes()
}

func flip(data []byte, at int) []byte {
	out := append([]byte(nil), data...)
	out[at] ^= 0x40
	return out
}

func setBit(data []byte, at, bit int) []byte {
	out := append([]byte(nil), data...)
	out[at+bit/8] |= 1 << (bit % 8)
	return out
}

func TestTextReaderRefusesBadFiles(t *testing.T) {
	start := engine.StartPosition()
	key := fmt.Sprintf("%016x", start.Hash)
	cases := map[string]struct {
		text, want string
	}{
		"no header":    {"hello\n", "t:1: want the header"},
		"empty":        {"", "t: empty book text"},
		"bad key":      {"nechecb book 1\nzz " + engine.StartFEN + " 1 11-15:1:0\n", "t:2: key \"zz\""},
		"key mismatch": {"nechecb book 1\n0000000000000001 " + engine.StartFEN + " 1 11-15:1:0\n", "does not match the FEN"},
		"illegal move": {"nechecb book 1\n" + key + " " + engine.StartFEN + " 1 11-18:1:0\n", "t:2:"},
		"bad weight":   {"nechecb book 1\n" + key + " " + engine.StartFEN + " 1 11-15:x:0\n", "weight \"x\""},
		"bad score":    {"nechecb book 1\n" + key + " " + engine.StartFEN + " 1 11-15:1:99999\n", "score \"99999\""},
		"twice":        {"nechecb book 1\n" + key + " " + engine.StartFEN + " 1 11-15:1:0\n" + key + " " + engine.StartFEN + " 1 9-13:1:0\n", "t:3: position"},
		"repeat move":  {"nechecb book 1\n" + key + " " + engine.StartFEN + " 1 11-15:1:0 11-15:2:0\n", "given twice"},
		"no moves":     {"nechecb book 1\n" + key + " " + engine.StartFEN + " 1\n", "found 3 fields"},
	}
	for name, c := range cases {
		_, err := readText(strings.NewReader(c.text), "t")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
	// Read hands a text dump to the text reader, which names file and line.
	_, err := Read(strings.NewReader("nechecb book 1\nzz "+engine.StartFEN+" 1 11-15:1:0\n"), "x.txt")
	if err == nil || !strings.HasPrefix(err.Error(), "x.txt:2: key") {
		t.Errorf("Read of a bad text dump: %v, want an error starting x.txt:2: key", err)
	}
}

func TestChooseModes(t *testing.T) {
	b := sampleBook(t)
	start := engine.StartPosition()
	rng := rand.New(rand.NewPCG(1, 2))
	if _, ok := b.Choose(&start, ModeNone, rng); ok {
		t.Error("ModeNone chose a move")
	}
	counts := map[Mode]map[string]int{ModeAll: {}, ModeGood: {}, ModeBest: {}}
	for mode := range counts {
		for i := 0; i < 900; i++ {
			m, ok := b.Choose(&start, mode, rng)
			if !ok {
				t.Fatalf("mode %d chose nothing", mode)
			}
			counts[mode][m.String()]++
		}
	}
	if diff := cmp.Diff(map[string]int{"11-15": 900}, counts[ModeBest]); diff != "" {
		t.Errorf("ModeBest (-want +got):\n%s", diff)
	}
	// Good: 11-15 (20) and 10-14 (5, within 25), weights 5:3; never 9-13.
	good := counts[ModeGood]
	if good["9-13"] != 0 || good["11-15"] < 450 || good["10-14"] < 230 {
		t.Errorf("ModeGood counts %v, want about 562/338 and no 9-13", good)
	}
	all := counts[ModeAll]
	if all["9-13"] < 50 || all["11-15"] < 400 || all["10-14"] < 220 {
		t.Errorf("ModeAll counts %v, want about 100/500/300", all)
	}
	other := start.Play(mustMove(t, start, "9-13"))
	if _, ok := b.Choose(&other, ModeAll, rng); ok {
		t.Error("chose a move for a position not in the book")
	}
}

func TestBuildFromGames(t *testing.T) {
	start := engine.StartPosition()
	game := func(outcome engine.Outcome, moves ...string) GameRecord {
		g := engine.NewGame(start)
		for _, m := range moves {
			if _, err := g.PlayText(m); err != nil {
				t.Fatal(err)
			}
		}
		return GameRecord{Start: start, Moves: g.Moves(), Outcome: outcome}
	}
	games := []GameRecord{
		game(engine.BlackWins, "11-15", "23-19"),
		game(engine.Draw, "11-15", "23-19"),
		game(engine.WhiteWins, "11-15", "22-18"),
		game(engine.BlackWins, "9-13", "22-18"),
		game(engine.Ongoing, "9-13", "22-18"),
	}
	b, err := BuildFromGames(games, GameOptions{MaxPly: 8, MinCount: 2, WinWeight: 2, DrawWeight: 1})
	if err != nil {
		t.Fatal(err)
	}
	after := start.Play(mustMove(t, start, "11-15"))
	want := []string{
		// 11-15: 3 games, 1 win 1 draw 1 loss -> weight 3, score 0; 9-13 played once.
		start.FEN() + " 11-15:3:0 #4",
		// After 11-15, White played 23-19 twice: a loss and a draw for White.
		after.FEN() + " 23-19:1:-50 #3",
	}
	got := bookSummary(b)
	if diff := cmp.Diff(want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("book (-want +got):\n%s", diff)
	}
	bad := []GameRecord{{Start: start, Moves: []engine.Move{mustMove(t, after, "23-19")}, Outcome: engine.Draw}}
	if _, err := BuildFromGames(bad, DefaultGameOptions); err == nil || !strings.Contains(err.Error(), "game 1, ply 1") {
		t.Errorf("illegal game: error %v", err)
	}
}

func TestBuildFromSearchResumes(t *testing.T) {
	two, err := Standard("2move")
	if err != nil {
		t.Fatal(err)
	}
	positions, err := BallotPositions(two)
	if err != nil {
		t.Fatal(err)
	}
	// 1 start + 7 first moves + the 2-move positions; nothing repeats.
	if len(positions) < 1+len(two) {
		t.Fatalf("%d positions for %d ballots", len(positions), len(two))
	}
	calls := 0
	scorer := func(p engine.Position) ([]MoveEntry, error) {
		calls++
		var out []MoveEntry
		for i, m := range p.LegalMoves() {
			out = append(out, MoveEntry{Move: m, Score: int16(-i)})
		}
		return out, nil
	}
	path := filepath.Join(t.TempDir(), "b.book")
	stop := len(positions) / 2
	partial := New()
	err = BuildFromSearch(partial, positions[:stop], scorer, SearchOptions{
		Checkpoint: func(b *Book) error { return b.Save(path, false) }, CheckpointEvery: 5,
	})
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	calls = 0
	var lastDone int
	err = BuildFromSearch(resumed, positions, scorer, SearchOptions{Progress: func(done, total int, _ engine.Position) { lastDone = done }})
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(positions)-stop || lastDone != len(positions) || resumed.Len() != len(positions) {
		t.Errorf("resume scored %d positions (want %d), progress %d, book %d (want %d)", calls, len(positions)-stop, lastDone, resumed.Len(), len(positions))
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}

func TestPlayerProbe(t *testing.T) {
	p := NewPlayer(sampleBook(t), 3)
	start := engine.StartPosition()
	m, ok := p.Probe(start, nil, int(ModeBest))
	if !ok || m.String() != "11-15" {
		t.Errorf("Probe best = %s %v, want 11-15", m, ok)
	}
	if _, ok := p.Probe(start, nil, 0); ok {
		t.Error("level 0 gave a move")
	}
}

// TestDefaultBook checks the built-in book: it reads, it covers every
// position on the way through the 3-move ballots, and every entry scores
// every legal move of its position.
func TestDefaultBook(t *testing.T) {
	b := Default()
	positions, err := BallotPositions(ThreeMove())
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != len(positions) {
		t.Errorf("built-in book has %d positions, the 3-move ballots pass through %d", b.Len(), len(positions))
	}
	for _, p := range positions {
		e := b.Probe(&p)
		if e == nil {
			t.Errorf("built-in book lacks %s", p.FEN())
			continue
		}
		if len(e.Moves) != len(p.LegalMoves()) {
			t.Errorf("%s: %d book moves, %d legal moves", p.FEN(), len(e.Moves), len(p.LegalMoves()))
		}
	}
	if got, err := Open(""); err != nil || got != b {
		t.Errorf("Open(\"\") = %p, %v; want the built-in book", got, err)
	}
}
