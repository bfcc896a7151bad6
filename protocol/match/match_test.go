package match

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/books"
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
		Openings: ballotOpenings(t, 2), Limits: Limits{Depth: 1}, MaxMoves: 30,
		Concurrency: 2, Timeout: 2 * time.Second, PDN: path,
	}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Round-robin of 3: 3 pairings x 2 openings x 2 colours.
	if sum.Total != 12 || sum.Played != 12 {
		t.Fatalf("played %d of %d", sum.Played, sum.Total)
	}
	games := checkRecord(t, path, sum)
	// B crashes on its 3rd search and C plays an illegal move on its 2nd,
	// in each process; both are restarted and each process misbehaves again.
	var crashed, illegal int
	for _, g := range games {
		reason := g.Tag("Termination")
		switch {
		case strings.Contains(reason, "crashed"):
			crashed++
			loser := g.Tag("White")
			if g.Result() == "0-1" {
				loser = g.Tag("Black")
			}
			if loser != "B" {
				t.Errorf("game %s: crash charged to %s: %s", g.Tag("Round"), loser, reason)
			}
		case strings.Contains(reason, "illegal move"):
			illegal++
		}
	}
	if crashed == 0 || illegal == 0 || len(sum.Faults) != crashed+illegal {
		t.Errorf("%d crashes, %d illegal moves, faults %q", crashed, illegal, sum.Faults)
	}
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

func TestHangGarbageAndTime(t *testing.T) {
	for _, c := range []struct {
		mode, want string
		limits     Limits
	}{
		{"hang@1", "engine hung", Limits{Depth: 1}},
		{"garbage@1", "garbage", Limits{Depth: 1}},
		{"slow@1", "lost on time", Limits{Base: 100 * time.Millisecond}},
	} {
		path := filepath.Join(t.TempDir(), "m.pdn")
		cfg := Config{
			Engines:  []client.Config{fakeConfig("A", "ok", client.UCI), fakeConfig("B", c.mode, client.UCI)},
			Openings: ballotOpenings(t, 1), Limits: c.limits, MaxMoves: 10, Timeout: 300 * time.Millisecond, PDN: path,
		}
		sum, err := Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		games := checkRecord(t, path, sum)
		if len(games) != 2 || !strings.Contains(games[0].Tag("Termination"), c.want) {
			t.Errorf("%s: first game ended %q, want %q", c.mode, games[0].Tag("Termination"), c.want)
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
	// A resume with other engines is refused.
	cfg.Engines[1].Name = "Z"
	if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "same engines") {
		t.Errorf("resume with another engine: error %v", err)
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
