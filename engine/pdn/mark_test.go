package pdn

import (
	"strings"
	"testing"
)

// TestMarksRoundTrip writes marks glued to their moves and reads them
// back; a mark the writer does not write (not made of '!' and '?') is left
// out, and a side line's marks are passed over by the reader.
func TestMarksRoundTrip(t *testing.T) {
	games, err := Read(strings.NewReader("1. 11-15 23-19? 2. 8-11?? (2. 9-14!? 22-17) 22-17 3. 4-8!  *"), "marks")
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	want := []string{"", "", "?", "??", "", "!"}
	for ply, w := range want {
		if got := g.Mark(ply); got != w {
			t.Errorf("read: move %d mark %q, want %q", ply, got, w)
		}
	}
	g.SetMark(4, "$2")
	g.SetMark(1, "?!")
	text := g.String()
	if !strings.Contains(text, "1. 11-15?! 23-19? 2. 8-11?? (2. 9-14 22-17) 2... 22-17 3. 4-8! *") {
		t.Errorf("written:\n%s", text)
	}
	back, err := Read(strings.NewReader(text), "written")
	if err != nil {
		t.Fatal(err)
	}
	for ply, w := range []string{"", "?!", "?", "??", "", "!"} {
		if got := back[0].Mark(ply); got != w {
			t.Errorf("read back: move %d mark %q, want %q", ply, got, w)
		}
	}
}
