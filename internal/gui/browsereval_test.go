package gui

import "testing"

// TestBrowserEval checks the browser's default evaluator: the net only
// with fast kernels and a gate won in the browser, pattern otherwise.
func TestBrowserEval(t *testing.T) {
	for _, c := range []struct {
		fast, won bool
		want      string
	}{{true, true, "nn"}, {true, false, "pattern"}, {false, true, "pattern"}, {false, false, "pattern"}} {
		if got := browserEval(c.fast, c.won); got != c.want {
			t.Errorf("fast kernels %v, gate won %v: %s, want %s", c.fast, c.won, got, c.want)
		}
	}
	if got := BrowserEval(); got != "pattern" && got != "nn" {
		t.Errorf("BrowserEval() = %q", got)
	}
}
