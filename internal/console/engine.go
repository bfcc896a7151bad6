package console

import (
	"context"
	"fmt"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

// Engine is what the console needs from a search; *player.Engine is the
// real one.
type Engine interface {
	// Search searches pos, reached after the positions history (oldest
	// first, pos excluded), until lim is reached or ctx is cancelled,
	// calling progress after each depth.
	Search(ctx context.Context, pos engine.Position, history []engine.Position, lim player.Limits, progress func(player.Info)) player.Result
	// Clear forgets what earlier searches learnt (a new game).
	Clear()
}

// Settings are the engine's options (the session's table);
// *session.Session is the real one. The set command and the flags reach
// every option, and eval and db path set Eval and DBPath.
type Settings interface {
	// Options returns the option table.
	Options() []session.Option
	// Set puts a value in force and returns the setter's remarks; on an
	// error, which names the option, the value in force stays.
	Set(name, value string) ([]string, error)
	// Get returns an option's value in force.
	Get(name string) (string, error)
}

// formatScore writes a search score for people: "+0.35 men", "win in
// 7" / "loss in 6" in plies, or "db win" / "db loss" for a result the
// endgame database settled.
func formatScore(s player.Score) string {
	switch {
	case s.IsWin():
		return fmt.Sprintf("win in %d", s.Plies())
	case s.IsLoss():
		return fmt.Sprintf("loss in %d", s.Plies())
	case s.IsKnownWin():
		return "db win"
	case s.IsKnownLoss():
		return "db loss"
	}
	v, sign := int(s), "+"
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d men", sign, v/100, v%100)
}
