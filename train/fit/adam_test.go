package fit

import (
	"math"
	"testing"
)

// TestAdamStep: Adam's first step moves each parameter by the step size
// against the sign of its mean gradient; a frozen parameter stays, a
// decayed one then shrinks, a bounded one stops at its bound, and the
// gradients are cleared.
func TestAdamStep(t *testing.T) {
	a := NewAdam([]float32{0, 0, 10, 10, 0.5, 1}, 3, 2)
	a.Frozen = []bool{false, false, true, false, false, false}
	a.Decayed, a.Decay = []bool{false, false, false, true, false, false}, 0.5
	a.Bound = []float32{9, 9, 99, 99, 0.8, 99}
	// Shard s adds s+1 to the first four gradients and -1 to the others.
	loss := a.Batch(4, 0.5, func(s int) float64 {
		for j := range a.Grads[s] {
			a.Grads[s][j] += float32(s + 1)
			if j >= 4 {
				a.Grads[s][j] = -1
			}
		}
		return float64(s)
	})
	if loss != 3 || a.Steps != 1 {
		t.Errorf("loss %v after %d steps, want 3 after 1", loss, a.Steps)
	}
	want := []float64{-0.5, -0.5, 10, (10 - 0.5) * (1 - 0.25), 0.8, 1.5}
	for j, w := range want {
		if math.Abs(float64(a.Theta[j])-w) > 1e-5 {
			t.Errorf("parameter %d: %v, want %v", j, a.Theta[j], w)
		}
	}
	if a.M[2] != 0 || a.V[2] != 0 {
		t.Errorf("the frozen parameter's moments moved: %v %v", a.M[2], a.V[2])
	}
	for s, g := range a.Grads {
		for j, x := range g {
			if x != 0 {
				t.Errorf("shard %d's gradient %d not cleared: %v", s, j, x)
			}
		}
	}
}
