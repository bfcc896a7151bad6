//go:build amd64 && !purego

package nn

import "testing"

// On an amd64 CPU without AVX2 the evaluator falls back on the plain-Go
// kernels: switched here by hand, it must still match the reference.
func TestEvaluatorWithoutAVX2(t *testing.T) {
	saved := hasAVX2
	hasAVX2 = false
	defer func() { hasAVX2 = saved }()
	n := randomNet(defaultLayout, 11)
	m, err := newModel(n)
	if err != nil {
		t.Fatal(err)
	}
	checkAlong(t, n, newEvaluator(m, DefaultSlots), randomGames(1, 11), "without AVX2")
}
