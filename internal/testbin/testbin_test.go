package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestBuildOnce builds the binary, runs it, and checks that a second Build
// in the same process returns the same binary without building again.
func TestBuildOnce(t *testing.T) {
	bin := Build(t)
	out, err := exec.Command(bin, "bench", "--depth", "1").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nnodes ") {
		t.Fatalf("%s bench --depth 1: %v\n%s", bin, err, out)
	}
	info, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	if again := Build(t); again != bin {
		t.Errorf("second Build gave %s, first %s", again, bin)
	}
	if after, err := os.Stat(bin); err != nil || !after.ModTime().Equal(info.ModTime()) {
		t.Errorf("second Build touched the binary: %v", err)
	}
}

// TestSweepRemovesOnlyEndedProcesses makes folders named for this process,
// for an ended process and for something else, and checks that sweep
// removes only the ended process's folder.
func TestSweepRemovesOnlyEndedProcesses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sweep keeps everything where it cannot tell whether a process runs")
	}
	ended := exec.Command("go", "version")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	dirs := map[string]bool{ // name: kept
		dirPrefix + strconv.Itoa(os.Getpid()) + "-1":       true,
		dirPrefix + strconv.Itoa(ended.Process.Pid) + "-2": false,
		dirPrefix + "notapid-3":                            true,
		"other-" + strconv.Itoa(ended.Process.Pid) + "-4":  true,
	}
	for name := range dirs {
		if err := os.Mkdir(filepath.Join(tmp, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sweep(tmp)
	for name, kept := range dirs {
		_, err := os.Stat(filepath.Join(tmp, name))
		if exists := err == nil; exists != kept {
			t.Errorf("%s: exists %v after sweep, want %v", name, exists, kept)
		}
	}
}
