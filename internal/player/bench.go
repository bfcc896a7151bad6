package player

import (
	"io"
	"time"

	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
)

// Bench runs the search benchmark (search.Bench) to depth (0: the
// profile's signature depth) on threads threads with the evaluator of
// spec and the search profile p, writing its report to w, and returns the
// nodes searched and the time taken: nechecb bench, and the protocol's
// bench command.
func Bench(w io.Writer, depth, threads int, spec string, p Profile) (uint64, time.Duration, error) {
	f, err := eval.Load(spec)
	if err != nil {
		return 0, 0, err
	}
	nodes, elapsed := search.Bench(w, depth, threads, func() search.Evaluator { return f() }, p)
	return nodes, elapsed, nil
}
