package pdn

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadCollectionGoesOnPastBadGames reads a hand-made file in the style of
// old collections (testdata/old_collection.pdn says how it was made): the
// good games are read, each bad one is skipped and named, and the game
// played on past a repetition is read with the draw noted.
func TestReadCollectionGoesOnPastBadGames(t *testing.T) {
	path := filepath.Join("testdata", "old_collection.pdn")
	c, err := ReadCollectionFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	var read []int
	for _, g := range c.Games {
		read = append(read, g.Number)
	}
	if diff := cmp.Diff([]int{1, 5}, read); diff != "" {
		t.Errorf("games read (-want +got):\n%s", diff)
	}
	// The first game's "15x18" is a plain move written with x.
	if got := c.Games[0].Record.Moves()[6].String(); got != "15-18" {
		t.Errorf("game 1's seventh move reads as %s, want the plain move 15-18", got)
	}
	type skip struct {
		Game, Line int
		Reason     string
	}
	want := []skip{
		{2, 18, "illegal move"},
		{3, 24, "malformed move"},
		{4, 30, "malformed move"},
		{6, 40, "the game is over: white wins (no legal move)"},
		{7, 42, "no moves and no result"},
	}
	var got []skip
	for _, e := range c.Skipped {
		if e.File != path {
			t.Errorf("skipped game %d names the file %q, want %q", e.Game, e.File, path)
		}
		reason := ""
		for _, w := range want {
			if w.Game == e.Game && strings.Contains(e.Error(), w.Reason) {
				reason = w.Reason
			}
		}
		got = append(got, skip{e.Game, e.Line, reason})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("games skipped (-want +got):\n%s", diff)
	}
	notes := c.UnclaimedDraws()
	if len(notes) != 1 || !strings.Contains(notes[0], "game 5: a threefold repetition could be claimed before move 5 (black)") {
		t.Errorf("unclaimed draws %q, want one note for game 5 at move 5", notes)
	}
	if want := "2 games read, 5 skipped, 1 played on past a draw nobody claimed"; c.Summary() != want {
		t.Errorf("summary %q, want %q", c.Summary(), want)
	}
}

// TestReadCollectionStrict stops at the first bad game, keeping the games
// before it, as Read does.
func TestReadCollectionStrict(t *testing.T) {
	path := filepath.Join("testdata", "old_collection.pdn")
	c, err := ReadCollectionFile(path, true)
	var pe *Error
	if !errors.As(err, &pe) || pe.Game != 2 {
		t.Fatalf("strict reading: error %v, want game 2's", err)
	}
	if len(c.Games) != 1 {
		t.Errorf("strict reading kept %d games before the bad one, want 1", len(c.Games))
	}
	games, err := ReadFile(path)
	if len(games) != 1 || !errors.As(err, &pe) || pe.Game != 2 {
		t.Errorf("ReadFile: %d games and error %v, want 1 game and game 2's error", len(games), err)
	}
}

// TestReadCollectionResumes checks where reading starts again after a bad
// game: games without tags, separated only by their result tokens; a bad
// tag; an unclosed comment that must not swallow the games after it; a
// result inside a comment or variation, which does not end the game.
func TestReadCollectionResumes(t *testing.T) {
	cases := []struct {
		name, text string
		read       []int
		skipped    []int
	}{
		{"no tags", "1. 11-15 zz 23-19 *\n1. 9-14 22-18 *\n1. 10-14 23-19 1-0", []int{2, 3}, []int{1}},
		{"bad tag", "[Event \"a\"]\n[FEN \"junk\"]\n[Result \"*\"]\n1. 11-15 *\n[Event \"b\"]\n1. 9-14 *", []int{2}, []int{1}},
		{"duplicate tag", "[Event \"a\"]\n[Event \"b\"]\n[Result \"*\"]\n1. 11-15 *\n\n[Event \"c\"]\n1. 9-14 *", []int{2}, []int{1}},
		{"open comment", "[Event \"a\"]\n1. 11-15 {oops\n\n[Event \"b\"]\n1. 9-14 *", []int{2}, []int{1}},
		{"result in comment", "1. 11-15 {1-0 was agreed?} 23-19 (1... 22-18 1-0) 9-14 *\n[Event \"b\"]\n1. 9-14 *", []int{1, 2}, nil},
		{"heading only", "{a file with no game}\n", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ReadCollection(strings.NewReader(tc.text), "t.pdn", false)
			if err != nil {
				t.Fatal(err)
			}
			var read, skipped []int
			for _, g := range c.Games {
				read = append(read, g.Number)
			}
			for _, e := range c.Skipped {
				skipped = append(skipped, e.Game)
			}
			if !cmp.Equal(tc.read, read) || !cmp.Equal(tc.skipped, skipped) {
				t.Errorf("read %v skipped %v, want read %v skipped %v", read, skipped, tc.read, tc.skipped)
			}
		})
	}
}
