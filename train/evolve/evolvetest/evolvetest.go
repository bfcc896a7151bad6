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
	"sync/atomic"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
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

// StepStopped runs generation gen of l and stops it once after games are
// played, as a kill would, and checks that the step reports the stop. The
// stop comes from the game that makes the count, so a fast generation
// cannot finish first.
func StepStopped(t testing.TB, l evolve.Learner, gen, after int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := evolve.NewPool(2, l.Rules())
	pool.SetRemote(&stopAfter{inner: evolve.NewPool(2, l.Rules()), after: int64(after), cancel: cancel})
	if _, err := l.Step(ctx, gen, pool); err != context.Canceled {
		t.Fatalf("a step stopped after %d games returned %v", after, err)
	}
}

// stopAfter plays a pool's games on an inner pool and cancels the step
// when the after-th game ends.
type stopAfter struct {
	inner  *evolve.Pool
	after  int64
	played atomic.Int64
	cancel context.CancelFunc
}

// Play plays the games until the stop.
func (s *stopAfter) Play(ctx context.Context, _ evolve.Rules, cast []eval.Factory, games []evolve.Game, out []evolve.Result) (bool, error) {
	return true, s.inner.PlayRecorded(ctx, cast, games, out, func(int, *engine.Game) {
		if s.played.Add(1) == s.after {
			s.cancel()
		}
	})
}

// Sample returns the settings a test loops over: all of them, or under
// -short only the one at index pick (modulo their number), so that each
// test of a learner checks one of its modes under -short, a different one
// per test, and every mode without -short.
func Sample[T any](all []T, pick int) []T {
	if !testing.Short() || len(all) == 0 {
		return all
	}
	return all[pick%len(all) : pick%len(all)+1]
}
