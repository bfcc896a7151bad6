package neche

import (
	"strings"
	"testing"

	"github.com/nechecb/nechecb/internal/badinput"
)

// TestWriteSpecDOT draws G1 from its spec, and refuses a spec of another
// kind as bad input.
func TestWriteSpecDOT(t *testing.T) {
	var out strings.Builder
	if err := WriteSpecDOT(&out, "neche:#g1"); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(out.String(), "\n"); first != "digraph neche {" {
		t.Errorf("first line %q, want %q", first, "digraph neche {")
	}
	if n := strings.Count(out.String(), " -> n63 "); n != 32 {
		t.Errorf("G1 drawing has %d edges into the output, want 32", n)
	}
	if err := WriteSpecDOT(&out, "material"); !badinput.Is(err) || !strings.Contains(err.Error(), "neche networks only") {
		t.Errorf("drawing material: %v, want bad input", err)
	}
}
