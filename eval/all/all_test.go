package all

import (
	"testing"

	"github.com/nechecb/nechecb/eval"
)

// TestRootView checks which kinds ask the search to judge leaves from the
// root player's side (engine/search.RootViewer): the evolved networks,
// whose values for the two sides do not cancel, and none of the
// antisymmetric evaluators.
func TestRootView(t *testing.T) {
	for spec, want := range map[string]bool{"neche:#g1": true, "neche-both:#g1": false,
		"blondie:../blondie/testdata/random1999.txt": true, "cnn:../cnn/testdata/Gen15WeightsBest.csv#Gen15_0111": true,
		"material": false, "heuristic": false, "pattern": false} {
		f, err := eval.Load(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		rv, ok := f().(interface{ RootView() bool })
		if got := ok && rv.RootView(); got != want {
			t.Errorf("%s: root view %v, want %v", spec, got, want)
		}
	}
}

// TestDefaultSpec checks the default's choice: the net where its kernels
// are fast, pattern elsewhere, and that both load.
func TestDefaultSpec(t *testing.T) {
	if got := defaultSpec(true); got != "nn" {
		t.Errorf("with the assembly kernels: %q, want nn", got)
	}
	if got := defaultSpec(false); got != "pattern" {
		t.Errorf("without them: %q, want pattern", got)
	}
	for _, spec := range []string{defaultSpec(true), defaultSpec(false), DefaultSpec} {
		if _, err := eval.Load(spec); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
}
