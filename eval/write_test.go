package eval

import (
	"strings"
	"testing"

	"github.com/nechecb/nechecb/internal/badinput"
)

func TestWriteEval(t *testing.T) {
	var out strings.Builder
	if err := WriteEval(&out, "material", "B:W21,22:B1"); err != nil || out.String() != "raw -1\nscore -100\n" {
		t.Errorf("material, a man down: %v, %q", err, out.String())
	}
	for _, c := range [][2]string{{"material", "X:W1:B2"}, {"nosuchkind", "B:W21,22:B1"}} {
		if err := WriteEval(&out, c[0], c[1]); err == nil || !badinput.Is(err) {
			t.Errorf("WriteEval(%q, %q): %v, want bad input", c[0], c[1], err)
		}
	}
}
