package match

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
)

// recorder appends finished games to the match's PDN file, each with one
// write followed by an fsync, so that a game once reported is on disk even
// if the runner is killed.
type recorder struct {
	f *os.File
}

// gamePDN turns a finished game into PDN: the standard tags, FEN (through
// the start position), GameType 21, Round (the schedule index, which resume
// relies on), Opening, Termination, Fault (the engine at fault, only when
// one was), BlackLowClock and WhiteLowClock (the least each clock held
// after a move, in seconds, in a game with a clock), the match's settings
// (which resume compares), and the ending as a comment after the last move.
// Every tag value goes through tagValue.
func gamePDN(r GameResult, event string, settings []setting, date time.Time) ([]byte, error) {
	rec := engine.NewGame(r.Start)
	for _, m := range r.Moves {
		if err := rec.Play(m); err != nil {
			return nil, fmt.Errorf("game %d: %w", r.Game.Index, err)
		}
	}
	g := pdn.New(r.Start)
	g.Record = rec
	set := func(name, value string) { g.SetTag(name, tagValue(value)) }
	set("Event", event)
	set("Date", date.UTC().Format("2006.01.02"))
	set("Black", r.Black)
	set("White", r.White)
	set("Result", r.Result.PDN())
	set("Round", strconv.Itoa(r.Game.Index))
	set("Opening", r.Opening)
	set("Termination", r.Result.Reason)
	switch r.Faulty {
	case r.Game.Black:
		set("Fault", r.Black)
	case r.Game.White:
		set("Fault", r.White)
	}
	if r.Clocked {
		set("BlackLowClock", formatClock(r.LowClock[engine.Black]))
		set("WhiteLowClock", formatClock(r.LowClock[engine.White]))
	}
	for _, s := range settings {
		set(s.tag, s.value)
	}
	g.SetComment(len(r.Moves), r.Result.String())
	var b bytes.Buffer
	if err := pdn.Write(&b, g); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// close closes the file, if there is one.
func (rc *recorder) close() {
	if rc.f != nil {
		rc.f.Close()
	}
}

func (rc *recorder) append(data []byte) error {
	if rc.f == nil {
		return nil // no PDN file asked for
	}
	if _, err := rc.f.Write(data); err != nil {
		return err
	}
	return rc.f.Sync()
}

// openRecord opens the PDN file for appending. Without resume the file must
// not exist or be empty, so that two matches never mix. With resume it
// returns the games already recorded; a partial game at the end (a runner
// killed while writing) is cut off, anything else that does not read back as
// this runner's games is refused.
func openRecord(path string, resume bool) (*recorder, []*pdn.Game, error) {
	if path == "" {
		return &recorder{}, nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	if len(data) > 0 && !resume {
		return nil, nil, fmt.Errorf("%s already holds games: use --resume to continue that match, or another file", path)
	}
	var games []*pdn.Game
	if len(data) > 0 {
		var keep int
		games, keep, err = readRecorded(data)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if keep < len(data) {
			if err := os.Truncate(path, int64(keep)); err != nil {
				return nil, nil, err
			}
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return &recorder{f: f}, games, nil
}

// readRecorded reads the games of a match file and returns how many bytes
// of it they fill. Each game must read back to exactly the bytes the runner
// wrote; the text after the last such game may only be one partial game.
func readRecorded(data []byte) ([]*pdn.Game, int, error) {
	parsed, _ := pdn.Read(bytes.NewReader(data), "") // the error, if any, is at the partial game
	var games []*pdn.Game
	off := 0
	for _, g := range parsed {
		text := []byte(g.String())
		if !bytes.HasPrefix(data[off:], text) {
			break
		}
		games = append(games, g)
		off += len(text)
	}
	tail := data[off:]
	if bytes.Contains(bytes.TrimSpace(tail), []byte("\n\n[")) || len(tail) > 0 && bytes.HasSuffix(tail, []byte("\n\n")) {
		return nil, 0, fmt.Errorf("game %d (at byte %d) is not as this runner writes it; refusing to resume", len(games)+1, off)
	}
	for _, g := range games {
		if _, err := strconv.Atoi(g.Tag("Round")); err != nil {
			return nil, 0, fmt.Errorf("game %s-%s has no numeric Round tag; not a match file", g.Tag("Black"), g.Tag("White"))
		}
	}
	return games, off, nil
}

// resultFromPDN turns a recorded game back into a GameResult for the tally.
func resultFromPDN(g *pdn.Game, s Scheduled) GameResult {
	r := GameResult{Game: s, Black: g.Tag("Black"), White: g.Tag("White"), Opening: g.Tag("Opening"),
		Start: g.Record.Start(), Moves: g.Record.Moves(), Faulty: -1}
	r.Result.Reason = g.Tag("Termination")
	switch g.Tag("Fault") {
	case "":
	case r.Black:
		r.Faulty = s.Black
	case r.White:
		r.Faulty = s.White
	}
	r.Result.Outcome = engine.OutcomeOfPDN(g.Result())
	black, errB := parseClock(g.Tag("BlackLowClock"))
	white, errW := parseClock(g.Tag("WhiteLowClock"))
	if errB == nil && errW == nil {
		r.LowClock, r.Clocked = [2]time.Duration{engine.Black: black, engine.White: white}, true
	}
	return r
}

// formatClock writes a clock reading as seconds with millisecond precision.
func formatClock(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

// parseClock reads formatClock's text back.
func parseClock(text string) (time.Duration, error) {
	sec, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, err
	}
	return time.Duration(math.Round(sec*1000)) * time.Millisecond, nil
}
