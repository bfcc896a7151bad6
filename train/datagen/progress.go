package datagen

import (
	"fmt"
	"time"
)

// Progress reports a run after each chunk.
type Progress struct {
	// Games and Positions count what the file holds.
	Games, Positions int
	// NewPositions counts the positions this run added, in Elapsed.
	NewPositions int
	Elapsed      time.Duration
	// Seen counts the quiet positions the games of this run gave before
	// deduplication.
	Seen int
	// Ends counts how this run's games ended.
	Ends Endings
	// DB says the run has an endgame database.
	DB bool
}

// Endings counts games by how they ended: by the rules (a side without a
// move, a repetition, the 40-move rule), by the endgame database, or drawn
// at the ply limit.
type Endings struct {
	Rules, DB, Limit int
}

// ending is how one game ended.
type ending uint8

const (
	byRules ending = iota
	byDB
	byLimit
)

// add counts a game that ended by e.
func (n *Endings) add(e ending) {
	switch e {
	case byRules:
		n.Rules++
	case byDB:
		n.DB++
	default:
		n.Limit++
	}
}

// Rate returns the positions added per hour.
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.NewPositions) / p.Elapsed.Hours()
}

// String is the run's progress line: what the file holds, what this run
// added and at what rate, and the share of the quiet positions seen that
// were new.
func (p Progress) String() string {
	kept := 0.0
	if p.Seen > 0 {
		kept = 100 * float64(p.NewPositions) / float64(p.Seen)
	}
	line := fmt.Sprintf("games %d, positions %d (+%d in %s, %.0f/hour, %.0f%% of quiet positions new)",
		p.Games, p.Positions, p.NewPositions, p.Elapsed.Round(time.Second), p.Rate(), kept)
	if p.DB {
		line += fmt.Sprintf("; games ended by the endgame database %d, by the rules %d, at the ply limit %d", p.Ends.DB, p.Ends.Rules, p.Ends.Limit)
	}
	return line
}
