package term

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFilesAndPipesAreNotTerminals(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "plain"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, f := range map[string]*os.File{"file": f, "pipe": r} {
		if IsTerminal(f) {
			t.Errorf("a %s counts as a terminal", name)
		}
	}
	if null, err := os.Open(os.DevNull); err == nil {
		defer null.Close()
		// /dev/null is a character device: the check says what the mode
		// says, as the console and the protocol expect.
		if !IsTerminal(null) {
			t.Errorf("%s, a character device, is not counted as one", os.DevNull)
		}
	}
}
