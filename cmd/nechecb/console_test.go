package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConsoleFEN checks that --fen starts the console from a position (it
// reads no line here and leaves with status 0) and that a bad one is refused
// with status 2 before the console starts.
func TestConsoleFEN(t *testing.T) {
	in, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	oldIn, oldOut := os.Stdin, os.Stdout
	os.Stdin, os.Stdout = in, out
	defer func() { os.Stdin, os.Stdout = oldIn, oldOut }()

	if got := runConsole([]string{"--fen", "W:W18,24,27:B12,16,20", "--history", "-", "--eval", "material"}); got != 0 {
		t.Errorf("runConsole with a good --fen returned %d, want 0", got)
	}
	if got := runConsole([]string{"--fen", "B:W40:B1", "--history", "-", "--eval", "material"}); got != 2 {
		t.Errorf("runConsole with a bad --fen returned %d, want 2", got)
	}
	data, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	if want := "The engine plays black"; !strings.Contains(string(data), want) {
		t.Errorf("the console's output lacks %q:\n%s", want, data)
	}
}
