package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/testbin"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// pydraughtsGame is the traffic between pydraughts' HubEngine and nechecb
// in one whole game (testdata/SOURCES.md says how it was made): "> " lines
// were sent by pydraughts, "< " lines by nechecb.
const pydraughtsGame = "../../testdata/pydraughts_hub_game.txt"

// trafficLine is one recorded line.
type trafficLine struct {
	sent bool // sent by the client
	text string
}

// readTraffic reads a recorded session.
func readTraffic(t *testing.T, path string) []trafficLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []trafficLine
	for i, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "> "):
			lines = append(lines, trafficLine{true, l[2:]})
		case strings.HasPrefix(l, "< "):
			lines = append(lines, trafficLine{false, l[2:]})
		default:
			t.Fatalf("%s:%d: %q is neither sent (> ) nor received (< )", path, i+1, l)
		}
	}
	return lines
}

// pydraughtsKey writes m as pydraughts (3277325, draughts/core/move.py) looks
// a Hub move up among the legal ones: from-to for a step; from, to and the
// captured squares in increasing order, joined by x, for a capture. It is
// written here apart from hubtext.Move, so that the test checks that form.
func pydraughtsKey(m engine.Move) string {
	if !m.IsCapture() {
		return fmt.Sprintf("%d-%d", m.FromSquare(), m.ToSquare())
	}
	parts := []string{strconv.Itoa(m.FromSquare()), strconv.Itoa(m.ToSquare())}
	for sq := 1; sq <= 32; sq++ {
		if m.Captured&engine.SquareBit(sq) != 0 {
			parts = append(parts, strconv.Itoa(sq))
		}
	}
	return strings.Join(parts, "x")
}

// pydraughtsMove finds the legal move of p that pydraughts reads text as.
// It asks for the key exactly, captured squares in increasing order, which
// is what PROTOCOL.md promises; pydraughts itself would sort them first.
func pydraughtsMove(p *engine.Position, text string) (engine.Move, error) {
	var keys []string
	for _, m := range p.LegalMoves() {
		if pydraughtsKey(m) == text {
			return m, nil
		}
		keys = append(keys, pydraughtsKey(m))
	}
	return engine.Move{}, fmt.Errorf("%q is not one of the moves pydraughts knows in %s: %s", text, p.FEN(), strings.Join(keys, " "))
}

// hubPosition reads a pos command as pydraughts writes it: pos= in its
// layout, the moves in real numbering. It returns the game so far.
func hubPosition(line string) (*engine.Game, error) {
	_, args, err := hubtext.ParseLine(line)
	if err != nil {
		return nil, err
	}
	start, _, err := hubtext.ParsePosition(args.Values["pos"], hubtext.Pydraughts)
	if err != nil {
		return nil, err
	}
	g := engine.NewGame(start)
	for i, text := range strings.Fields(args.Values["moves"]) {
		cur := g.Current()
		m, err := pydraughtsMove(&cur, text)
		if err != nil {
			return nil, fmt.Errorf("move %d: %v", i+1, err)
		}
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("move %d: %v", i+1, err)
		}
	}
	return g, nil
}

// pydraughtsFields splits the arguments of an info line the way pydraughts'
// HubEngine does (on blanks outside double quotes) and checks that it can
// read every field: key=value with a single "=", integers for depth and
// nodes, reals for mean-depth, time, nps and score.
func pydraughtsFields(args string) error {
	for _, item := range regexp.MustCompile(` +`).Split(quotedBlanks(args), -1) {
		item = strings.ReplaceAll(item, "\x00", " ")
		kv := strings.Split(item, "=")
		if len(kv) != 2 {
			return fmt.Errorf("field %q does not split into key=value", item)
		}
		var err error
		switch kv[0] {
		case "depth", "nodes":
			_, err = strconv.Atoi(kv[1])
		case "mean-depth", "time", "nps", "score":
			_, err = strconv.ParseFloat(kv[1], 64)
		}
		if err != nil {
			return fmt.Errorf("field %q: %v", item, err)
		}
	}
	return nil
}

// quotedBlanks turns the blanks inside double quotes into NULs.
func quotedBlanks(s string) string {
	b := []byte(s)
	in := false
	for i, c := range b {
		switch {
		case c == '"':
			in = !in
		case c == ' ' && in:
			b[i] = 0
		}
	}
	return string(b)
}

// TestPydraughtsGameFixture checks the recorded game itself: it starts from
// the start position that pydraughts writes for English draughts, each
// position the client sends continues the last one by nechecb's recorded
// move and one reply, and the game ends by the rules after nechecb's last
// move.
func TestPydraughtsGameFixture(t *testing.T) {
	var pos *engine.Game
	var recorded []string // nechecb's recorded moves
	for _, l := range readTraffic(t, pydraughtsGame) {
		switch {
		case l.sent && strings.HasPrefix(l.text, "pos "):
			g, err := hubPosition(l.text)
			if err != nil {
				t.Fatalf("%s: %v", l.text, err)
			}
			if start, first := engine.StartPosition(), g.Start(); pos == nil && !first.SameBoard(&start) {
				t.Errorf("the first pos is %s, want the start position", first.FEN())
			}
			if pos != nil {
				if len(recorded) == 0 {
					t.Fatalf("%s: a second pos before any done", l.text)
				}
				// The new game is the last one, nechecb's move, one reply.
				want := append(append([]string(nil), moveKeys(pos)...), recorded[len(recorded)-1])
				if got := moveKeys(g); len(got) != len(want)+1 || strings.Join(got[:len(want)], " ") != strings.Join(want, " ") {
					t.Errorf("%s does not continue %q", l.text, want)
				}
			}
			pos = g
		case !l.sent && strings.HasPrefix(l.text, "done"):
			_, args, _ := hubtext.ParseLine(l.text)
			recorded = append(recorded, args.Values["move"])
		}
	}
	if pos == nil || len(recorded) == 0 {
		t.Fatal("the recording has no pos or no done")
	}
	cur := pos.Current()
	last, err := pydraughtsMove(&cur, recorded[len(recorded)-1])
	if err != nil {
		t.Fatal(err)
	}
	if err := pos.Play(last); err != nil {
		t.Fatal(err)
	}
	if r := pos.Result(); r.Outcome == engine.Ongoing {
		t.Errorf("the recorded game is not over after %d plies", pos.Ply())
	} else {
		t.Logf("recorded game: %d plies, %s", pos.Ply(), r)
	}
}

// moveKeys lists the moves of g as pydraughts writes them.
func moveKeys(g *engine.Game) []string {
	var out []string
	for _, m := range g.Moves() {
		out = append(out, pydraughtsKey(m))
	}
	return out
}

// TestPydraughtsReplay sends the client's side of the recorded game to the
// nechecb binary, pacing it as pydraughts does (after hub it waits for
// wait, after init for ready, after go for done), and checks every reply
// as pydraughts reads it: each done has a move that is legal in real
// numbering in the position the last pos set, written the way pydraughts
// looks it up, and a ponder move, if any, legal after it; every info line
// has fields pydraughts can read. Then nechecb's last move must end the
// game by the rules.
func TestPydraughtsReplay(t *testing.T) {
	bin := testbin.Build(t)
	// pydraughts starts the engine as given ("nechecb hub" here).
	cmd := exec.Command(bin, "hub")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	replies := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			replies <- sc.Text()
		}
		close(replies)
	}()
	// until reads replies up to one that starts with end; the limit only
	// guards against a hang (the searches are depth-limited).
	until := func(end string) []string {
		t.Helper()
		var got []string
		for {
			select {
			case l, ok := <-replies:
				if !ok {
					t.Fatalf("nechecb's output ended while waiting for %q; got %q", end, got)
				}
				got = append(got, l)
				if strings.HasPrefix(l, end) {
					return got
				}
			case <-time.After(2 * time.Minute):
				t.Fatalf("no %q from nechecb after 2 minutes; got %q", end, got)
			}
		}
	}
	var game *engine.Game
	var last engine.Move
	dones, same := 0, 0
	recorded := recordedMoves(t)
	for _, l := range readTraffic(t, pydraughtsGame) {
		if !l.sent {
			continue
		}
		if _, err := io.WriteString(stdin, l.text+"\n"); err != nil {
			t.Fatalf("sending %q: %v", l.text, err)
		}
		word, _, _ := strings.Cut(l.text, " ")
		switch word {
		case "hub":
			until("wait")
		case "init":
			until("ready")
		case "pos":
			if game, err = hubPosition(l.text); err != nil {
				t.Fatalf("%s: %v", l.text, err)
			}
		case "go":
			if game == nil {
				t.Fatal("go before any pos")
			}
			got := until("done")
			for _, r := range got {
				if rest, ok := strings.CutPrefix(r, "info "); ok {
					if err := pydraughtsFields(rest); err != nil {
						t.Errorf("pydraughts cannot read %q: %v", r, err)
					}
				}
			}
			done := got[len(got)-1]
			_, args, err := hubtext.ParseLine(done)
			if err != nil || args.Values["move"] == "" {
				t.Fatalf("%q: no move for pydraughts (%v)", done, err)
			}
			cur := game.Current()
			m, err := pydraughtsMove(&cur, args.Values["move"])
			if err != nil {
				t.Fatalf("%q: %v", done, err)
			}
			if p, ok := args.Values["ponder"]; ok {
				after := cur.Play(m)
				if _, err := pydraughtsMove(&after, p); err != nil {
					t.Errorf("%q: ponder: %v", done, err)
				}
			}
			if dones < len(recorded) && args.Values["move"] == recorded[dones] {
				same++
			}
			dones++
			last = m
		}
	}
	if dones != len(recorded) || dones == 0 {
		t.Fatalf("%d searches replayed, the recording has %d", dones, len(recorded))
	}
	if err := game.Play(last); err != nil {
		t.Fatal(err)
	}
	r := game.Result()
	if r.Outcome == engine.Ongoing {
		t.Errorf("nechecb's last move %s leaves the game going on after %d plies", pydraughtsKey(last), game.Ply())
	}
	t.Logf("%d moves replayed, %d the same as recorded; the game ends %s", dones, same, r)
}

// recordedMoves lists nechecb's recorded done moves.
func recordedMoves(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, l := range readTraffic(t, pydraughtsGame) {
		if !l.sent && strings.HasPrefix(l.text, "done") {
			_, args, _ := hubtext.ParseLine(l.text)
			out = append(out, args.Values["move"])
		}
	}
	return out
}
