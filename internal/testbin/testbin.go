// Package testbin builds the nechecb binary for the tests that run it as a
// separate process (the protocol, match and terminal tests). It builds once
// per test process, however many tests ask, and clears away the binaries
// that earlier test processes left behind.
package testbin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// importPath is the package the binary is built from.
const importPath = "github.com/nechecb/nechecb/cmd/nechecb"

// dirPrefix starts the name of every folder Build makes in the temporary
// folder; the owning process id follows it.
const dirPrefix = "nechecb-testbin-"

var (
	once  sync.Once
	built string
	err   error
)

// Build returns the path of a nechecb binary built from this module's
// cmd/nechecb, building it on the first call in the test process. It fails t
// if the build fails. The binary lives in a temporary folder named for the
// process; a later Build, in any test process, removes the folders of
// processes that have ended.
func Build(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		sweep(os.TempDir())
		built, err = build()
	})
	if err != nil {
		t.Fatalf("building nechecb for the test: %v", err)
	}
	return built
}

// build runs go build into a new temporary folder and returns the binary's
// path.
func build() (string, error) {
	dir, err := os.MkdirTemp("", dirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "nechecb")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", bin, importPath)
	cmd.Dir = moduleDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("go build %s: %v\n%s", importPath, err, out)
	}
	return bin, nil
}

// moduleDir is a folder inside the module, so that go build finds go.mod
// whatever the test's working folder: this file's own folder, or the
// working folder when the source path is not known (a -trimpath build).
func moduleDir() string {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if _, err := os.Stat(file); err == nil {
			return filepath.Dir(file)
		}
	}
	return ""
}

// sweep removes the folders Build made under tmp for processes that are no
// longer running.
func sweep(tmp string) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), dirPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() || running(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(tmp, e.Name()))
	}
}

// running reports whether a process with id pid exists. Where that cannot
// be told, it says yes, so that nothing in use is removed.
func running(pid int) bool {
	if runtime.GOOS == "windows" {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, os.ErrPermission)
}

// freshEnv marks a test process that InFreshProcess started.
const freshEnv = "NECHECB_FRESH_PROCESS"

// InFreshProcess reports whether the top-level test t runs in a test
// process of its own, for checks of memory that other tests would have
// mapped already. When it does not, InFreshProcess runs t alone in a new
// process of the same test binary, fails t if that fails, and returns
// false: the caller returns at once.
func InFreshProcess(t *testing.T) bool {
	t.Helper()
	if os.Getenv(freshEnv) != "" {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), freshEnv+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("in a fresh process: %v\n%s", err, out)
	}
	return false
}
