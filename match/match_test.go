package match

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/protocol/client"
	"github.com/nechecb/nechecb/protocol/client/fakeengine"
)

func TestMain(m *testing.M) {
	fakeengine.Main()
	os.Exit(m.Run())
}

func fakeConfig(name, mode string, d client.Dialect) client.Config {
	return client.Config{Name: name, Command: []string{os.Args[0]}, Env: []string{fakeengine.EnvVar + "=" + mode}, Dialect: d}
}

func ballotOpenings(t *testing.T, n int) []Opening {
	t.Helper()
	ballots, err := books.Standard("3move")
	if err != nil {
		t.Fatal(err)
	}
	var out []Opening
	for _, b := range ballots[:n] {
		p, err := b.Position()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Opening{Name: b.Name, Position: p})
	}
	return out
}

// checkRecord reads the PDN back and checks it against the summary: every
// scheduled game once, results adding up to the table.
func checkRecord(t *testing.T, path string, sum *Summary) []*pdn.Game {
	t.Helper()
	games, err := pdn.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != sum.Played {
		t.Errorf("PDN holds %d games, summary says %d", len(games), sum.Played)
	}
	points := map[string]float64{}
	for _, p := range sum.Pairings {
		points[p.A] += 0
		points[p.B] += 0
	}
	rounds := map[string]bool{}
	for _, g := range games {
		if rounds[g.Tag("Round")] {
			t.Errorf("round %s recorded twice", g.Tag("Round"))
		}
		rounds[g.Tag("Round")] = true
		if g.Tag("GameType") != "" && g.Tag("GameType") != "21" {
			t.Errorf("GameType %q", g.Tag("GameType"))
		}
		switch g.Result() {
		case "1-0":
			points[g.Tag("Black")]++
		case "0-1":
			points[g.Tag("White")]++
		case "1/2-1/2":
			points[g.Tag("Black")] += 0.5
			points[g.Tag("White")] += 0.5
		default:
			t.Errorf("game %s has result %q", g.Tag("Round"), g.Result())
		}
		if g.Comment(g.Record.Ply()) == "" {
			t.Errorf("game %s has no closing comment", g.Tag("Round"))
		}
	}
	want := map[string]float64{}
	total := 0
	for _, p := range sum.Pairings {
		tl := p.Tally
		want[p.A] += float64(tl.W) + float64(tl.D)/2
		want[p.B] += float64(tl.L) + float64(tl.D)/2
		total += tl.Games()
		if tl.Pairs() != tl.Games()/2 {
			t.Errorf("%s-%s: %d pairs for %d games", p.A, p.B, tl.Pairs(), tl.Games())
		}
	}
	if diff := cmp.Diff(want, points); diff != "" || total != len(games) {
		t.Errorf("points from the table vs the PDN (-table +pdn), %d vs %d games:\n%s", total, len(games), diff)
	}
	return games
}

func TestMatchWithFaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.pdn")
	cfg := Config{
		Engines: []client.Config{
			fakeConfig("A", "ok", client.UCI),
			fakeConfig("B", "crash@3", client.Hub),
			fakeConfig("C", "illegal@2", client.UCI),
		},
		// The faults come on given searches, not with time: the timeout
		// is far beyond anything the fake engines need.
		Openings: ballotOpenings(t, 2), Limits: Limits{Depth: 1}, MaxMoves: 30,
		Concurrency: 2, Timeout: time.Minute, PDN: path,
	}
	var seen []Progress
	sum, err := Run(context.Background(), cfg, func(p Progress) { seen = append(seen, p) })
	if err != nil {
		t.Fatal(err)
	}
	// Round-robin of 3: 3 pairings x 2 openings x 2 colours.
	if sum.Total != 12 || sum.Played != 12 {
		t.Fatalf("played %d of %d", sum.Played, sum.Total)
	}
	// Progress comes after every game, with the counts so far.
	for i, p := range seen {
		if p.Played != i+1 || p.New != i+1 || p.Total != 12 || p.Engine != "A" {
			t.Errorf("progress %d: %+v", i+1, p)
		}
	}
	if len(seen) != 12 {
		t.Fatalf("%d progress reports for 12 games", len(seen))
	}
	if last := seen[11]; last.Tally.Games() != 8 || !strings.HasPrefix(last.String(), "games 12/12  A: +") {
		t.Errorf("the last progress report %+v: %q", last, last.String())
	}
	games := checkRecord(t, path, sum)
	// B crashes on its 3rd search and C plays an illegal move on its 2nd,
	// in each process; both are restarted and each process misbehaves again.
	var crashed, illegal int
	for _, g := range games {
		reason := g.Tag("Termination")
		var faulty string
		switch {
		case strings.Contains(reason, "crashed"):
			crashed++
			faulty = "B"
		case strings.Contains(reason, "illegal move"):
			illegal++
			faulty = "C"
		}
		if faulty != "" && (loser(g) != faulty || g.Tag("Fault") != faulty) {
			t.Errorf("game %s: %q charged to %s (Fault %q), want %s", g.Tag("Round"), reason, loser(g), g.Tag("Fault"), faulty)
		}
		if faulty == "" && g.Tag("Fault") != "" {
			t.Errorf("game %s: Fault %q for %q", g.Tag("Round"), g.Tag("Fault"), reason)
		}
	}
	if crashed == 0 || illegal == 0 || len(sum.Faults) != crashed+illegal {
		t.Errorf("%d crashes, %d illegal moves, faults %q", crashed, illegal, sum.Faults)
	}
	checkTags(t, path)
	// Resuming the finished match plays nothing and finds the same faults.
	cfg.Resume = true
	again, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sum, again); diff != "" {
		t.Errorf("summary after resuming a finished match (-first +resumed):\n%s", diff)
	}
}

// loser returns the name of the side that lost g, "" for a draw.
func loser(g *pdn.Game) string {
	switch g.Result() {
	case "1-0":
		return g.Tag("White")
	case "0-1":
		return g.Tag("Black")
	}
	return ""
}

// checkTags checks that every tag line of the match file is one that
// CheckerBoard reads: no quote, backslash or bracket inside the value.
func checkTags(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	clean := regexp.MustCompile(`^\[[A-Za-z0-9_]+ "[^"\\\[\]]*"\]$`)
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "[") && !clean.MatchString(line) {
			t.Errorf("tag line %q", line)
		}
	}
}

func TestHangGarbageAndTime(t *testing.T) {
	// The healthy engine A has a minute for everything; B misbehaves on
	// its first search in each process. Only B's hang is timed: with its
	// own one-second timeout, or with a one-second clock (A moves at most
	// once on its own clock, instantly).
	for _, c := range []struct {
		mode, want string
		limits     Limits
		timeout    time.Duration
	}{
		{"hang@1", "engine hung: no move within 1s", Limits{Depth: 1}, time.Second},
		{"garbage@1", "sent garbage", Limits{Depth: 1}, 0},
		{"hang@1", "lost on time (no move within 1s)", Limits{Base: time.Second}, 0},
	} {
		path := filepath.Join(t.TempDir(), "m.pdn")
		b := fakeConfig("B", c.mode, client.UCI)
		b.Timeout = c.timeout
		cfg := Config{
			Engines:  []client.Config{fakeConfig("A", "ok", client.UCI), b},
			Openings: ballotOpenings(t, 1), Limits: c.limits, MaxMoves: 10, Timeout: time.Minute, PDN: path,
		}
		sum, err := Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		games := checkRecord(t, path, sum)
		if len(games) != 2 {
			t.Fatalf("%s: %d games", c.mode, len(games))
		}
		for _, g := range games {
			if reason := g.Tag("Termination"); loser(g) != "B" || g.Tag("Fault") != "B" || !strings.Contains(reason, c.want) {
				t.Errorf("%s: game %s lost by %q (Fault %q): %q; want B to lose: %q", c.mode, g.Tag("Round"), loser(g), g.Tag("Fault"), reason, c.want)
			}
		}
		if len(sum.Faults) != 2 || sum.Pairings[0].Tally.L != 0 || sum.Pairings[0].Tally.W != 2 {
			t.Errorf("%s: faults %q, tally %+v", c.mode, sum.Faults, sum.Pairings[0].Tally)
		}
	}
}

func TestResumeAfterPartialWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.pdn")
	cfg := Config{
		Engines:  []client.Config{fakeConfig("A", "ok", client.UCI), fakeConfig("B", "ok", client.UCI)},
		Openings: ballotOpenings(t, 3), Limits: Limits{Depth: 1}, MaxMoves: 20, PDN: path, Random: true, Seed: 7,
	}
	full := cfg
	full.PDN = filepath.Join(t.TempDir(), "full.pdn")
	want, err := Run(context.Background(), full, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Play 3 games, then add half a game as a kill -9 during a write would.
	first := cfg
	first.Games = 3
	if _, err := Run(context.Background(), first, nil); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[Event \"nechecb match\"]\n[Date \"2026.11.21\"]\n[Black \"A\"]\n\n1. 11-15 ")
	f.Close()
	if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("rerun without --resume: error %v", err)
	}
	cfg.Resume = true
	got, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecord(t, path, got)
	if diff := cmp.Diff(want.Pairings, got.Pairings); diff != "" {
		t.Errorf("resumed match differs from an uninterrupted one (-want +got):\n%s", diff)
	}
	// A resume with other settings is refused, naming the difference; more
	// games or another timeout are not other settings.
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Engines[1].Name = "Z" }, `engine 2 "name=B `},
		{func(c *Config) { c.Engines[0].Options = []client.Option{{Name: "Hash", Value: "2"}} }, `engine 1 "name=A cmd=`},
		{func(c *Config) { c.Limits = Limits{Depth: 2} }, `time control "depth 1", this run has "depth 2"`},
		{func(c *Config) { c.Limits = Limits{Base: time.Second} }, `time control "depth 1", this run has "clock 1s+0s"`},
		{func(c *Config) { c.Openings = ballotOpenings(t, 4) }, `openings "3 positions`},
		{func(c *Config) { c.Seed = 8 }, `schedule "round-robin of 2 engines, openings shuffled with seed 7"`},
		{func(c *Config) { c.MaxMoves = 30 }, `rules "maxmoves 20"`},
	} {
		other := cfg
		other.Engines = append([]client.Config(nil), cfg.Engines...)
		c.change(&other)
		if _, err := Run(context.Background(), other, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("resume with other settings: error %v, want one naming %s", err, c.want)
		}
	}
	more := cfg
	more.Rounds, more.Timeout = 2, time.Minute
	again, err := Run(context.Background(), more, nil)
	if err != nil || again.Played != 2*got.Played {
		t.Errorf("resume with a second round: %v, %d games played", err, again.Played)
	}
}

func TestTagValues(t *testing.T) {
	for in, want := range map[string]string{
		`white engine crashed; its last stderr: panic: "x" [y] \ z` + "\n\tat main.go:1\n": `white engine crashed; its last stderr: panic: 'x' (y) / z at main.go:1`,
		"plain":                  "plain",
		strings.Repeat("é", 200): strings.Repeat("é", (maxTagValue-3)/2) + "...",
	} {
		if got := tagValue(in); got != want {
			t.Errorf("tagValue(%q) = %q, want %q", in, got, want)
		}
	}
	// A game whose reason holds raw stderr is written with clean tags and
	// reads back.
	start := ballotOpenings(t, 1)[0]
	r := GameResult{Game: Scheduled{Index: 1, Black: 0, White: 1}, Black: "A", White: "B", Opening: `op "1"`, Start: start.Position, Faulty: 1,
		Result: engine.Result{Outcome: engine.BlackWins, Reason: `white engine crashed; its last stderr: ] "quoted" \ [x]`}}
	data, err := gamePDN(r, `ev]ent`, nil, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "g.pdn")
	os.WriteFile(path, data, 0o644)
	checkTags(t, path)
	games, err := pdn.ReadFile(path)
	if err != nil || len(games) != 1 || games[0].Tag("Termination") != `white engine crashed; its last stderr: ) 'quoted' / (x)` || games[0].Tag("Fault") != "B" {
		t.Errorf("read back: %v %+v", err, games)
	}
}

func TestScheduleAndSPRTStop(t *testing.T) {
	cfg := Config{Engines: []client.Config{{Name: "A"}, {Name: "B"}, {Name: "C"}}, Gauntlet: true, Openings: ballotOpenings(t, 3), Rounds: 2}
	s := cfg.Schedule()
	if len(s) != 2*3*2*2 {
		t.Fatalf("%d games", len(s))
	}
	for _, g := range s {
		if g.Black != 0 && g.White != 0 {
			t.Errorf("gauntlet game %d without the first engine", g.Index)
		}
	}
	if s[0].Opening != s[1].Opening || s[0].Black != s[1].White || s[0].Pair != s[1].Pair {
		t.Errorf("the first two games are not a colour-reversed pair: %+v %+v", s[0], s[1])
	}
	cfg.Games = 5
	if len(cfg.Schedule()) != 5 {
		t.Errorf("--games 5 gave %d games", len(cfg.Schedule()))
	}

	// An engine that always crashes at once loses every game: the SPRT
	// accepts H0 (A is not better) well before the schedule ends.
	path := filepath.Join(t.TempDir(), "m.pdn")
	run := Config{
		Engines:  []client.Config{fakeConfig("A", "crash@1", client.UCI), fakeConfig("B", "ok", client.UCI)},
		Openings: ballotOpenings(t, 40), Limits: Limits{Depth: 1}, MaxMoves: 10, PDN: path,
		SPRT: &elo.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05},
	}
	sum, err := Run(context.Background(), run, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Decision != elo.AcceptH0 || sum.Played >= sum.Total {
		t.Errorf("SPRT: %v after %d of %d games (LLR %.2f)", sum.Decision, sum.Played, sum.Total, sum.LLR)
	}
	var b strings.Builder
	sum.WriteTable(&b)
	if !strings.Contains(b.String(), "H0 accepted") || !strings.Contains(b.String(), "A vs B") {
		t.Errorf("table:\n%s", b.String())
	}
	svg := string(PlotSVG(sum, "A vs B"))
	if !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, "<polygon") || strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
		t.Errorf("SVG:\n%s", svg)
	}
}

// TestProgressIntervalUnknown: the progress line and the table give no
// interval after a few games (it read "+inf [+inf, +inf]" after one game).
func TestProgressIntervalUnknown(t *testing.T) {
	one := elo.Tally{W: 1}
	if line := (Progress{Played: 1, Total: 10, New: 1, Engine: "a", Tally: one}).String(); !strings.Contains(line, "Elo +inf [unknown]") {
		t.Errorf("progress after one game won: %q, want the interval unknown", line)
	}
	var b strings.Builder
	(&Summary{Pairings: []PairingResult{{A: "a", B: "b", Tally: elo.Tally{W: 2, D: 2, Penta: [5]int{0, 0, 0, 2, 0}}}}}).WriteTable(&b)
	if !strings.Contains(b.String(), "+190.8 [unknown]") {
		t.Errorf("table after two pairs won and drawn:\n%s\nwant the interval unknown", b.String())
	}
}

// TestFaultLimitStopsMatch: an engine that starts but then fails every game
// stops the match after FaultLimit games in a row, with an error naming it;
// no PDN file is needed.
func TestFaultLimitStopsMatch(t *testing.T) {
	cfg := Config{
		Engines:  []client.Config{fakeConfig("A", "ok", client.UCI), fakeConfig("B", "crash@1", client.UCI)},
		Openings: ballotOpenings(t, 4), Limits: Limits{Depth: 1}, MaxMoves: 30, Concurrency: 1, Timeout: time.Minute,
		FaultLimit: 3,
	}
	sum, err := Run(context.Background(), cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "engine B failed 3 games in a row") {
		t.Fatalf("error %v, want engine B stopped after 3 failed games", err)
	}
	if sum == nil || sum.Played != 3 || sum.Total != 8 {
		t.Errorf("summary %+v, want 3 of 8 games played", sum)
	}
}

// TestEngineThatCannotStartStopsMatch: an engine that fails to start before
// its first game stops the match at once, naming it and the cause; the
// forfeit is not recorded as a game.
func TestEngineThatCannotStartStopsMatch(t *testing.T) {
	missing := client.Config{Name: "B", Command: []string{filepath.Join(t.TempDir(), "no-such-engine")}}
	cfg := Config{
		Engines:  []client.Config{fakeConfig("A", "ok", client.UCI), missing},
		Openings: ballotOpenings(t, 4), Limits: Limits{Depth: 1}, MaxMoves: 30, Concurrency: 2, Timeout: time.Minute,
	}
	sum, err := Run(context.Background(), cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "engine B could not start") || !strings.Contains(err.Error(), "no-such-engine") {
		t.Fatalf("error %v, want engine B could not start, with the cause", err)
	}
	if sum == nil || sum.Played != 0 {
		t.Errorf("summary %+v, want no game played", sum)
	}
}

// TestLowestClock plays a clocked match: every game records how low each
// side's clock went, the summary keeps each engine's lowest, and a resumed
// match reads the same back from the file.
func TestLowestClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.pdn")
	cfg := Config{
		Engines:  []client.Config{fakeConfig("A", "ok", client.UCI), fakeConfig("B", "ok", client.UCI)},
		Openings: ballotOpenings(t, 2), Limits: Limits{Base: 2 * time.Second, Inc: 100 * time.Millisecond},
		MaxMoves: 10, Timeout: time.Minute, PDN: path,
	}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	low := map[string]time.Duration{}
	for _, g := range checkRecord(t, path, sum) {
		for _, side := range []string{"Black", "White"} {
			left, err := parseClock(g.Tag(side + "LowClock"))
			if err != nil || left <= 0 || left > cfg.Limits.Base {
				t.Errorf("game %s: %sLowClock %q (%v), want a time in (0, 2 s]", g.Tag("Round"), side, g.Tag(side+"LowClock"), err)
			}
			if l, ok := low[g.Tag(side)]; !ok || left < l {
				low[g.Tag(side)] = left
			}
		}
	}
	if len(sum.LowClocks) != 2 {
		t.Fatalf("summary's lowest clocks %+v, want one per engine", sum.LowClocks)
	}
	for _, l := range sum.LowClocks {
		if l.Left != low[l.Engine] || l.Game < 1 || l.Game > sum.Played {
			t.Errorf("summary: %s lowest %v in game %d, want %v, the least in the file", l.Engine, l.Left, l.Game, low[l.Engine])
		}
	}
	var table strings.Builder
	sum.WriteTable(&table)
	if !strings.Contains(table.String(), "lowest clock left: A ") {
		t.Errorf("the table does not give the lowest clock:\n%s", table.String())
	}
	cfg.Resume = true
	again, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sum.LowClocks, again.LowClocks); diff != "" {
		t.Errorf("the resumed match's lowest clocks differ (-first +resumed):\n%s", diff)
	}
}
