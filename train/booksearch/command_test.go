package booksearch

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/player"
)

// TestBookBuildRefusals: what book build refuses before any work, as bad
// input.
func TestBookBuildRefusals(t *testing.T) {
	for _, tc := range []struct {
		b    BookBuild
		want string
	}{
		{BookBuild{PDN: "g.pdn"}, "-o FILE is required"},
		{BookBuild{FileBuild: FileBuild{Out: "x.book"}}, "give either --pdn"},
		{BookBuild{FileBuild: FileBuild{Out: "x.book", Ballots: "2move", Limits: player.Limits{Depth: 1}}, PDN: "g.pdn"}, "give either --pdn"},
		{BookBuild{FileBuild: FileBuild{Out: "x.book", Ballots: "2move"}}, "exactly one of"},
		{BookBuild{FileBuild: FileBuild{Out: "x.book", Ballots: "2move", Limits: player.Limits{Depth: 1, MoveTime: 1}}}, "exactly one of"},
	} {
		err := tc.b.Run(context.Background(), io.Discard, "")
		if err == nil || !badinput.Is(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want bad input with %q", tc.b, err, tc.want)
		}
	}
}
