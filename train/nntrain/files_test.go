package nntrain

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nechecb/nechecb/eval/nn"
	"github.com/nechecb/nechecb/train/fit"
	"github.com/nechecb/nechecb/train/positions"
)

func TestNote(t *testing.T) {
	if got := Note("", "p"); got != "p" {
		t.Errorf("no lineage: %q", got)
	}
	if got := Note("a\n\nb", "c"); got != "a\n\nb\n\nc" {
		t.Errorf("lineage: %q", got)
	}
	// A lineage too long for the file loses its oldest paragraphs.
	var paras []string
	for i := range 200 {
		paras = append(paras, strings.Repeat(string(rune('a'+i%26)), 500)+"é")
	}
	note := Note(strings.Join(paras, "\n\n"), "newest")
	if len(note) > nn.MaxNote || !utf8.ValidString(note) || !strings.HasPrefix(note, "(earlier lineage cut)\n\n") ||
		!strings.HasSuffix(note, paras[199]+"\n\nnewest") {
		t.Errorf("cut lineage: %d bytes, starts %q, ends %q", len(note), note[:40], note[len(note)-20:])
	}
	if again := Note(note, "next"); len(again) > nn.MaxNote || strings.Count(again, "(earlier lineage cut)") != 1 {
		t.Errorf("cut twice: %d bytes, %d marks", len(again), strings.Count(again, "(earlier lineage cut)"))
	}
}

func TestParseLayout(t *testing.T) {
	base := Default.Layout
	for text, want := range map[string]nn.Layout{
		"":                             base,
		"hidden=256":                   {Stages: 4, Hidden: 256, L2: 32, L3: 32},
		"stages=1, l2=64,l3=64,shared": {Stages: 1, SharedFirst: true, Hidden: 128, L2: 64, L3: 64},
		"shared=false":                 base,
		"split":                        {Stages: 4, SplitHeads: true, Hidden: 128, L2: 32, L3: 32},
		"split=true,split=false":       base,
	} {
		if got, err := ParseLayout(text, base); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", text, got, err, want)
		}
	}
	for _, text := range []string{"hidden", "hidden=x", "stages=2", "l2=33", "depth=3", "shared=maybe", "split=2"} {
		if _, err := ParseLayout(text, base); err == nil {
			t.Errorf("%q accepted", text)
		}
	}
}

// TestFreshTrained checks that a file the lineage already lists adds
// nothing to the cumulative count, and that held-out records and those
// past --max-positions are not counted.
func TestFreshTrained(t *testing.T) {
	recs := make([]positions.Record, 10)
	for i := range recs {
		recs[i].Fold = uint8(i * 25) // folds 0 and 25 are held out at 0.1 (cut 26)
	}
	data := &fit.Data{
		Records: recs,
		Sizes:   []int{4, 6},
		Files:   []string{"old.pos (4 positions, 1 games, 56 bytes)", "new.pos (6 positions, 2 games, 84 bytes)"},
	}
	lineage := "data copy-of-old.pos (4 positions, 1 games, 56 bytes)\nlearned from 2 positions, cumulative 2 positions"
	if got := freshTrained(data, 0, 0.1, lineage); got != 6 {
		t.Errorf("one file listed: %d new training positions, want 6", got)
	}
	if got := freshTrained(data, 0, 0.1, ""); got != 8 {
		t.Errorf("no lineage: %d new training positions, want 8", got)
	}
	if got := freshTrained(data, 7, 0.1, ""); got != 5 {
		t.Errorf("first 7 positions: %d new training positions, want 5", got)
	}
	// The same file twice in one fit counts once.
	twice := &fit.Data{Records: append(recs[:4:4], recs[:4]...), Sizes: []int{4, 4}, Files: []string{data.Files[0], data.Files[0]}}
	if got := freshTrained(twice, 0, 0.1, ""); got != 2 {
		t.Errorf("one file twice: %d new training positions, want 2", got)
	}
}
