package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/testbin"
)

// gateScript stands between the match runner and engine A ("$@"), passing
// the runner's commands on. At the gated game's ucinewgame, the first time
// only (the marker file records it), it creates the marker and from then on
// swallows the runner's input: the engine never answers, so the runner waits
// inside that game until it is killed. The end of the runner's input ends
// the script and, through the closed pipe, the engine.
const gateScript = `marker=$1 game=$2
shift 2
n=0
while IFS= read -r line; do
	if [ "$line" = ucinewgame ]; then
		n=$((n + 1))
		if [ "$n" -eq "$game" ] && [ ! -e "$marker" ]; then
			: >"$marker"
			cat >/dev/null
			exit 0
		fi
	fi
	printf '%s\n' "$line"
done | "$@"
`

// TestMatchSurvivesKill9 runs "nechecb match" as its own process with two
// nechecb engines, kills it with SIGKILL while it waits inside game 4, and
// resumes: the three games recorded before the kill stay as they were, and
// the resumed file holds every game of the schedule exactly once. Engine A
// runs behind gateScript, which holds the runner in game 4 until the kill,
// so the kill always lands in the middle of the match.
func TestMatchSurvivesKill9(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to run the gate script")
	}
	bin := testbin.Build(t)
	dir := t.TempDir()
	gate, marker := filepath.Join(dir, "gate.sh"), filepath.Join(dir, "gated")
	if err := os.WriteFile(gate, []byte(gateScript), 0o644); err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(dir, "m.pdn")
	const games, gated = 10, 4
	engineA := "name=A cmd=\"" + sh + " " + gate + " " + marker + " " + strconv.Itoa(gated) + " " + bin + "\" opts=Hash=1"
	args := []string{"match", "--engine", engineA, "--engine", "name=B cmd=" + bin + " opts=Hash=1;Eval=heuristic",
		"--openings", "2move", "--depth", "2", "--games", strconv.Itoa(games), "--timeout", "10m", "--pdn", record, "--quiet"}
	runner := exec.Command(bin, args...)
	var runnerOut bytes.Buffer
	runner.Stdout, runner.Stderr = &runnerOut, &runnerOut
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	exited := make(chan struct{})
	go func() {
		waitErr = runner.Wait()
		close(exited)
	}()
	defer func() {
		runner.Process.Kill()
		<-exited
	}()

	// Wait, by events, until the runner sits in the gated game with the
	// games before it on disk. The deadline only stops a broken runner.
	deadline := time.After(2 * time.Minute)
	for {
		before, _ := os.ReadFile(record)
		_, gateErr := os.Stat(marker)
		if gateErr == nil && bytes.Count(before, []byte("[Round ")) >= gated-1 {
			break
		}
		select {
		case <-exited:
			t.Fatalf("the runner ended (%v) before game %d:\n%s", waitErr, gated, runnerOut.String())
		case <-deadline:
			t.Fatalf("after 2 minutes the runner had not reached game %d with %d games recorded", gated, gated-1)
		case <-time.After(10 * time.Millisecond):
		}
	}
	runner.Process.Kill()
	<-exited
	before, err := os.ReadFile(record) // what was on disk when the runner died
	if err != nil {
		t.Fatal(err)
	}
	kept, err := pdn.Read(bytes.NewReader(before), record)
	if err != nil || len(kept) != gated-1 {
		t.Fatalf("the runner killed in game %d left %d games (%v), want %d", gated, len(kept), err, gated-1)
	}

	out, err := exec.Command(bin, append(args, "--resume")...).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	after, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	all, err := pdn.Read(bytes.NewReader(after), record)
	if err != nil {
		t.Fatal(err)
	}
	rounds := map[string]int{}
	for _, g := range all {
		rounds[g.Tag("Round")]++
	}
	for i := 1; i <= games; i++ {
		if rounds[strconv.Itoa(i)] != 1 {
			t.Errorf("game %d recorded %d times", i, rounds[strconv.Itoa(i)])
		}
	}
	if len(all) != games {
		t.Errorf("the resumed file holds %d games, want %d", len(all), games)
	}
	// Every game on disk at the kill is still there, unchanged.
	for _, g := range kept {
		if !bytes.Contains(after, []byte(g.String())) {
			t.Errorf("game %s recorded before the kill was changed or lost", g.Tag("Round"))
		}
	}
	if !bytes.Contains(out, []byte(strconv.Itoa(games)+" of "+strconv.Itoa(games)+" games played")) {
		t.Errorf("resumed table:\n%s", out)
	}
}

// runIn runs the nechecb binary bin in folder dir and returns its exit
// status and its stderr.
func runIn(t *testing.T, bin, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var errs bytes.Buffer
	cmd.Stderr = &errs
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), errs.String()
	} else if err != nil {
		t.Fatalf("nechecb %q: %v", args, err)
	}
	return 0, errs.String()
}

// TestMatchFailsLoudly: an engine that cannot start (a wrong path, a
// misspelled option) stops the match before its first game with exit 1,
// naming the engine and the cause; a --plot path that cannot be written is
// refused before any game; and no PDN file is written unless --pdn asks.
func TestMatchFailsLoudly(t *testing.T) {
	bin := testbin.Build(t)
	dir := t.TempDir()
	good := "name=A cmd=" + bin + " opts=Hash=1"
	common := []string{"--openings", "2move", "--depth", "1", "--quiet"}
	for _, tc := range []struct{ name, engine, want string }{
		{"wrong path", "name=B cmd=" + filepath.Join(dir, "no-such-engine"), "engine B could not start"},
		{"misspelled option", "name=B cmd=" + bin + " opts=Evl=heuristic", "engine B could not start"},
	} {
		start := time.Now()
		status, stderr := runIn(t, bin, dir, append([]string{"match", "--engine", good, "--engine", tc.engine}, common...)...)
		if status != 1 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "the match stops") {
			t.Errorf("%s: status %d, stderr:\n%s\nwant 1 and %q", tc.name, status, stderr, tc.want)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("%s: the match took %v to stop", tc.name, d)
		}
	}
	status, stderr := runIn(t, bin, dir, append([]string{"match", "--engine", good, "--engine", "name=B cmd=" + bin,
		"--plot", filepath.Join(dir, "no", "such", "folder", "p.svg")}, common...)...)
	if status != 1 || !strings.Contains(stderr, "--plot") || strings.Contains(stderr, "games") {
		t.Errorf("--plot into a missing folder: status %d, stderr:\n%s\nwant 1 before any game", status, stderr)
	}
	status, stderr = runIn(t, bin, dir, append([]string{"match", "--engine", good, "--engine", "name=B cmd=" + bin + " opts=Hash=1", "--games", "2"}, common...)...)
	if status != 0 {
		t.Errorf("a two-game match: status %d, stderr:\n%s", status, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the match left %v in its working folder, want nothing without --pdn", entries)
	}
}
