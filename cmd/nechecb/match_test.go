package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine/pdn"
)

// TestMatchSurvivesKill9 runs `nechecb match` as its own process with two
// nechecb engines, kills it with SIGKILL once a few games are recorded, and
// resumes: the games recorded before the kill stay as they were, and the
// resumed file holds every game of the schedule exactly once.
func TestMatchSurvivesKill9(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "nechecb")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building nechecb: %v\n%s", err, out)
	}
	record := filepath.Join(dir, "m.pdn")
	const games = 10
	args := []string{"match", "--engine", "name=A cmd=" + bin + " opts=Hash=1", "--engine", "name=B cmd=" + bin + " opts=Hash=1;Eval=heuristic",
		"--openings", "2move", "--depth", "2", "--games", strconv.Itoa(games), "--pdn", record, "--quiet"}
	runner := exec.Command(bin, args...)
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	var before []byte
	for time.Now().Before(deadline) {
		before, _ = os.ReadFile(record)
		if bytes.Count(before, []byte("[Round ")) >= 3 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	runner.Process.Kill()
	runner.Wait()
	before, _ = os.ReadFile(record) // what was on disk when the runner died
	kept, _ := pdn.Read(bytes.NewReader(before), record)
	if len(kept) < 3 || len(kept) >= games {
		t.Fatalf("the killed runner left %d games (want some, not all %d)", len(kept), games)
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
	// Every complete game on disk at the kill is still there, unchanged.
	for _, g := range kept[:len(kept)-1] {
		if !bytes.Contains(after, []byte(g.String())) {
			t.Errorf("game %s recorded before the kill was changed or lost", g.Tag("Round"))
		}
	}
	if !bytes.Contains(out, []byte("10 of 10 games played")) {
		t.Errorf("resumed table:\n%s", out)
	}
}
