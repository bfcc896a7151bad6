package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/testbin"
	"github.com/nechecb/nechecb/train/evolve"
	blondievo "github.com/nechecb/nechecb/train/evolve/blondie"
	cnnevo "github.com/nechecb/nechecb/train/evolve/cnn"
	"github.com/nechecb/nechecb/train/evolve/evolvetest"
	nechevo "github.com/nechecb/nechecb/train/evolve/neche"
)

// tinyNeche is a neche run small enough for a test.
var tinyNeche = []string{"--population", "8", "--genes", "12", "--depth", "1", "--rounds", "1", "--max-plies", "100"}

func evolveArgs(dir string, extra ...string) []string {
	return append(append([]string{"--dir", dir, "--workers", "2"}, tinyNeche...), extra...)
}

func TestEvolveCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var out, errs strings.Builder
	args := evolveArgs(dir, "--generations", "2", "--curve-every", "1", "--curve-openings", "1", "--plot", filepath.Join(dir, "curve.svg"),
		"--curve-vs", "material")
	if status := evolveCommand(necheKind(), args, &out, &errs); status != 0 {
		t.Fatalf("status %d: %s", status, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "gen 1: ") || !strings.Contains(lines[1], "games/s") ||
		!strings.Contains(lines[1], "curve at gen 1: g1 ") || !strings.Contains(lines[1], " material ") || !strings.Contains(lines[1], " gen0 ") {
		t.Errorf("progress:\n%s", out.String())
	}
	for _, name := range []string{"best_networks.txt", "nechedbg/2_nets.txt", "curve.tsv", "curve.svg", "evolve.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the run left no %s", name)
		}
	}
	rows, err := evolve.ReadCurveFile(filepath.Join(dir, "curve.tsv"))
	if err != nil || len(rows) != 3+4 { // generation 0: g1, heuristic, material; 1: and gen0
		t.Errorf("curve: %d rows, %v", len(rows), err)
	}
	// Resume to 3 generations; the run's settings are taken from the folder.
	out.Reset()
	if status := evolveCommand(necheKind(), []string{"--dir", dir, "--resume", "--generations", "3", "--curve-every", "0"}, &out, &errs); status != 0 {
		t.Fatalf("resume: status %d: %s", status, errs.String())
	}
	if !strings.HasPrefix(out.String(), "gen 2: ") {
		t.Errorf("resume printed %q", out.String())
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{evolveArgs(dir), "is not empty"},
		{[]string{"--dir", dir, "--resume", "--depth", "3"}, "depth: run 1, given 3"},
		{[]string{"--dir", t.TempDir(), "--resume"}, "no run to resume"},
		{[]string{"--generations", "1"}, "--dir is required"},
		{[]string{"--dir", dir, "--mode", "best"}, `--mode "best"`},
		{[]string{"--dir", t.TempDir(), "--population", "1"}, "population (1) must be at least 2"},
		{[]string{"--dir", t.TempDir(), "--curve-vs", "nosuch"}, "--curve-vs"},
		{[]string{"--dir", t.TempDir(), "stray"}, "unexpected argument"},
	} {
		errs.Reset()
		if status := evolveCommand(necheKind(), tc.args, &out, &errs); status != 2 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%q: status %d, %q; want 2 and %q", tc.args, status, errs.String(), tc.want)
		}
	}
	// A corrupt population stops the resumed run with the file, line and
	// column.
	pop := nechevo.PopulationPath(dir, 3)
	data, _ := os.ReadFile(pop)
	os.WriteFile(pop, []byte(strings.Replace(string(data), "\n", "\nZ", 1)), 0o644)
	errs.Reset()
	if status := evolveCommand(necheKind(), []string{"--dir", dir, "--resume", "--generations", "4"}, &out, &errs); status != 2 ||
		!strings.Contains(errs.String(), "3_nets.txt:2:1: bad letter 'Z'") {
		t.Errorf("corrupt population: status %d, %q", status, errs.String())
	}
}

func TestEvolveKindsRun(t *testing.T) {
	var out, errs strings.Builder
	blondie := []string{"--dir", filepath.Join(t.TempDir(), "b"), "--parents", "2", "--games", "1", "--depth", "1", "--max-plies", "40", "--generations", "1", "--curve-every", "0"}
	if status := evolveCommand(blondieKind(), blondie, &out, &errs); status != 0 {
		t.Errorf("blondie: status %d: %s", status, errs.String())
	}
	cnn := []string{"--dir", filepath.Join(t.TempDir(), "c"), "--mode", "improved", "--population", "12", "--survivors", "3", "--mutants", "1",
		"--pairs", "1", "--depth", "0", "--generations", "1", "--curve-every", "0"}
	if status := evolveCommand(cnnKind(), cnn, &out, &errs); status != 0 {
		t.Errorf("cnn: status %d: %s", status, errs.String())
	}
	errs.Reset()
	if status := evolveCommand(cnnKind(), []string{"-h"}, &out, &errs); status != 0 || !strings.Contains(out.String(), "-survivors") {
		t.Errorf("cnn -h: status %d", status)
	}
}

// A run killed with SIGKILL in the middle and resumed ends with the files
// of a run that was never stopped.
func TestEvolveResumeAfterKill(t *testing.T) {
	bin := testbin.Build(t)
	whole, killed := t.TempDir(), filepath.Join(t.TempDir(), "run")
	run := func(dir string, extra ...string) *exec.Cmd {
		cmd := exec.Command(bin, append([]string{"evolve", "neche"}, evolveArgs(dir, append([]string{"--generations", "6", "--curve-every", "2", "--curve-openings", "1"}, extra...)...)...)...)
		cmd.Stderr = os.Stderr
		return cmd
	}
	if err := run(whole).Run(); err != nil {
		t.Fatal(err)
	}
	cmd := run(killed)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once generation 1's population is on disk: the kill lands in
	// generation 1, 2 or later, whichever is running.
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(nechevo.PopulationPath(killed, 2)); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if err := run(killed, "--resume").Run(); err != nil {
		t.Fatal(err)
	}
	evolvetest.SameFolders(t, "killed and resumed, and whole", whole, killed)
}

// The improved mode's ladder, shaping, initialisation and per-letter
// flags reach the run's settings, and bad values are refused with a
// message naming them.
func TestEvolveNecheImprovedFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var out, errs strings.Builder
	rates := "0.01,0.01,0.01,0.01,0.01,0.01,0,0.001,0.02,0.02,0.02,0.01,0.005,0.005,0.005,0.005"
	args := evolveArgs(dir, "--mode", "improved", "--opponents", "2", "--elite", "1", "--hall", "0", "--generations", "1", "--curve-every", "0",
		"--ladder", "g1,heuristic", "--ladder-ballots", "1", "--shaping", "0.25", "--layer-mix", "1,2,3", "--init-weight", "3", "--letter-rates", rates)
	if status := evolveCommand(necheKind(), args, &out, &errs); status != 0 {
		t.Fatalf("status %d: %s", status, errs.String())
	}
	var cfg nechevo.Config
	if err := evolve.ReadSettings(dir, &cfg); err != nil {
		t.Fatal(err)
	}
	if strings.Join(cfg.Ladder, ",") != "g1,heuristic" || cfg.LadderBallots != 1 || cfg.Shaping != 0.25 || !cfg.LayerInit ||
		len(cfg.LayerMix) != 3 || cfg.LayerMix[1] != 2 || cfg.InitWeight != 3 || len(cfg.LetterRates) != 16 || cfg.LetterRates[8] != 0.02 {
		t.Errorf("settings %+v", cfg)
	}
	// The defaults of improved mode: a G1 ladder, half shaping, layer-first
	// genes; faithful mode has none of them.
	if d := nechevo.Default("improved"); strings.Join(d.Ladder, ",") != "g1" || d.Shaping != 0.5 || !d.LayerInit {
		t.Errorf("improved defaults %+v", d)
	}
	if d := nechevo.Default("faithful"); d.Ladder != nil || d.Shaping != 0 || d.LayerInit || d.LetterRates != nil {
		t.Errorf("faithful defaults %+v", d)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--ladder", "nobody"}, `ladder opponent "nobody"`},
		{[]string{"--shaping", "2"}, "shaping (2)"},
		{[]string{"--letter-rates", "0.1,0.2"}, "letter rates: 2 given"},
		{[]string{"--letter-rates", "0.1,x"}, `"x" is not a number`},
		{[]string{"--layer-mix", "1,0,1"}, "layer mix"},
		{[]string{"--init-weight", "-1"}, "init weight"},
	} {
		errs.Reset()
		a := append([]string{"--dir", t.TempDir(), "--mode", "improved"}, tc.args...)
		if status := evolveCommand(necheKind(), a, &out, &errs); status != 2 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%q: status %d, %q; want 2 and %q", tc.args, status, errs.String(), tc.want)
		}
	}
}

// Blondie's ladder and shaping flags reach the run's settings, and bad
// values are refused with a message naming them.
func TestEvolveBlondieLadderFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var out, errs strings.Builder
	args := append([]string{"--dir", dir, "--workers", "2"}, "--mode", "improved", "--parents", "2", "--depth", "1", "--max-plies", "40", "--generations", "1", "--curve-every", "0",
		"--pairs", "0", "--ladder", "g1,heuristic", "--ladder-ballots", "1", "--shaping", "0.25")
	if status := evolveCommand(blondieKind(), args, &out, &errs); status != 0 {
		t.Fatalf("status %d: %s", status, errs.String())
	}
	var cfg blondievo.Config
	if err := evolve.ReadSettings(dir, &cfg); err != nil {
		t.Fatal(err)
	}
	if strings.Join(cfg.Ladder, ",") != "g1,heuristic" || cfg.LadderBallots != 1 || cfg.Shaping != 0.25 || cfg.Pairs != 0 {
		t.Errorf("settings %+v", cfg)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--mode", "improved", "--ladder", "nobody"}, `ladder opponent "nobody"`},
		{[]string{"--mode", "improved", "--shaping", "2"}, "shaping (2)"},
		{[]string{"--mode", "faithful", "--ladder", "g1"}, "improved mode"},
	} {
		errs.Reset()
		a := append([]string{"--dir", t.TempDir()}, tc.args...)
		if status := evolveCommand(blondieKind(), a, &out, &errs); status != 2 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%q: status %d, %q; want 2 and %q", tc.args, status, errs.String(), tc.want)
		}
	}
}

// TestEvolveSearchProfiles: every learner's faithful mode searches with the
// plain profile, the seeds' full-width alpha-beta, so that a search feature
// added for timed play does not reach it; --search chooses another and a
// name that is no profile is refused.
func TestEvolveSearchProfiles(t *testing.T) {
	n, b, c := nechevo.Default("faithful"), blondievo.Default("faithful"), cnnevo.Default("faithful")
	for name, r := range map[string]evolve.Rules{"neche": n.Rules(), "blondie": b.Rules(), "cnn": c.Rules()} {
		if r.Search != player.Plain {
			t.Errorf("%s's faithful mode searches with profile %q, want plain", name, r.Search)
		}
	}
	dir := filepath.Join(t.TempDir(), "run")
	var out, errs strings.Builder
	if status := evolveCommand(necheKind(), evolveArgs(dir, "--generations", "1", "--curve-every", "0", "--search", "play"), &out, &errs); status != 0 {
		t.Fatalf("status %d: %s", status, errs.String())
	}
	var cfg nechevo.Config
	if err := evolve.ReadSettings(dir, &cfg); err != nil || cfg.Search != player.Play {
		t.Errorf("--search play: settings search %q, %v", cfg.Search, err)
	}
	errs.Reset()
	if status := evolveCommand(blondieKind(), []string{"--dir", t.TempDir(), "--search", "fast"}, &out, &errs); status != 2 ||
		!strings.Contains(errs.String(), `search profile "fast"`) {
		t.Errorf("--search fast: status %d, %q", status, errs.String())
	}
}
