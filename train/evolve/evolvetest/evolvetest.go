// Package evolvetest holds the checks the evolutionary learners' tests
// share: comparing run folders file by file, and stopping a generation
// part way through, as a kill would.
package evolvetest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/nechecb/nechecb/train/evolve"
)

// Folder returns every file under dir by its path relative to dir.
func Folder(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		out[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// SameFolders fails t unless folders a and b hold the same files with the
// same bytes.
func SameFolders(t testing.TB, what, a, b string) {
	t.Helper()
	fa, fb := Folder(t, a), Folder(t, b)
	var names []string
	for name := range fa {
		names = append(names, name)
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		da, oka := fa[name]
		db, okb := fb[name]
		switch {
		case !oka || !okb:
			t.Errorf("%s: %s is in only one folder", what, name)
		case !bytes.Equal(da, db):
			t.Errorf("%s: %s differs", what, name)
		}
	}
	if len(names) == 0 {
		t.Errorf("%s: both folders are empty", what)
	}
}

// Run runs learner l in dir up to generations generations on workers
// workers, with no curve.
func Run(t testing.TB, dir string, l evolve.Learner, seed uint64, generations, workers int) {
	t.Helper()
	if err := evolve.Run(context.Background(), l, evolve.Config{Dir: dir, Generations: generations, Seed: seed, Workers: workers}); err != nil {
		t.Fatal(err)
	}
}

// StepStopped runs generation gen of l and cancels it once the pool has
// played after games, as a kill during the generation would; it fails t
// unless the step reports the cancellation.
func StepStopped(t testing.TB, l evolve.Learner, gen, after int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := evolve.NewPool(2, l.Rules())
	go func() {
		for pool.Played() < after && ctx.Err() == nil {
			time.Sleep(100 * time.Microsecond)
		}
		cancel()
	}()
	if _, err := l.Step(ctx, gen, pool); err != context.Canceled {
		t.Fatalf("a step stopped after %d games returned %v", after, err)
	}
}
