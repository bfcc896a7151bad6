package search

import "fmt"

// Profile names the search settings of one kind of work: the learners'
// fixed-depth games and timed play want different searches, and each
// workload names the one it plays with, so that a feature added for one
// does not reach the other unasked.
type Profile string

const (
	// Plain is the full-width, depth-limited alpha-beta that the learners'
	// seeds (neche, Blondie24, the CheckersAI CNN) describe: every move is
	// searched to the nominal depth and captures are searched on past it
	// as the rules force, with no reductions, pruning, truncation,
	// extensions or threat search. Its tree is pinned by PlainSignature.
	Plain Profile = "plain"
	// Play is the default of timed play: every selective feature as
	// Tuning's zero value sets it.
	Play Profile = "play"
)

// Profiles lists every profile, for messages and help.
var Profiles = []Profile{Plain, Play}

// PlainTuning returns the switches of the Plain profile. Every feature
// whose zero value is on is switched off here by name; those whose zero
// value is off (SingleReply, Crown, HistLMR, KingLMR, LMRLog, LMP,
// Futility) stay at zero. A feature added later with its zero value on is
// therefore on in Plain until it is named here, and TestPlainSignature
// fails until it is.
func PlainTuning() Tuning {
	return Tuning{NoLMR: true, NoThreat: true, NoTrunc: true, NoPVExt: true}
}

// Tuning returns the profile's switches: PlainTuning for Plain, the zero
// Tuning for Play and for the empty profile.
func (p Profile) Tuning() Tuning {
	if p == Plain {
		return PlainTuning()
	}
	return Tuning{}
}

// Check reports a profile that is not one of Profiles.
func (p Profile) Check() error {
	for _, q := range Profiles {
		if p == q {
			return nil
		}
	}
	return fmt.Errorf("search profile %q: want one of %v", string(p), Profiles)
}

// String returns the profile's name.
func (p Profile) String() string { return string(p) }

// Set sets the profile from its name, so that a Profile is a flag.Value.
func (p *Profile) Set(name string) error {
	if err := Profile(name).Check(); err != nil {
		return err
	}
	*p = Profile(name)
	return nil
}

// BenchDepth returns the depth at which Bench gives the profile's
// signature: PlainBenchDepth for Plain, BenchDepth otherwise.
func (p Profile) BenchDepth() int {
	if p == Plain {
		return PlainBenchDepth
	}
	return BenchDepth
}
