package evolve

import "github.com/nechecb/nechecb/internal/badinput"

// Settings is a learner's settings: Check reports a setting that cannot
// work, and Rules gives the rules of the run's games.
type Settings interface {
	Check() error
	Rules() Rules
}

// Base is what every learner keeps and does the same way: its run folder,
// its settings (C, whose pointer P is Settings) and the rules of its games.
// Each learner embeds it.
type Base[C any, P interface {
	*C
	Settings
}] struct {
	// Dir is the run folder.
	Dir string
	// Cfg holds the run's settings, checked.
	Cfg C
}

// NewBase checks cfg, marking its error as bad input, and returns the
// base of a learner of run folder dir.
func NewBase[C any, P interface {
	*C
	Settings
}](dir string, cfg C) (Base[C, P], error) {
	if err := P(&cfg).Check(); err != nil {
		return Base[C, P]{}, badinput.Mark(err)
	}
	return Base[C, P]{Dir: dir, Cfg: cfg}, nil
}

// Rules returns the rules of the run's games.
func (b *Base[C, P]) Rules() Rules { return P(&b.Cfg).Rules() }
