package evolverun

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/nechecb/nechecb/internal/badinput"
)

// CheckMode refuses a --mode other than faithful and improved.
func CheckMode(mode string) error {
	if mode != "faithful" && mode != "improved" {
		return badinput.Mark(fmt.Errorf("--mode %q: want faithful or improved", mode))
	}
	return nil
}

// runFlags are the shared flags of nechecb evolve that do not shape the
// population, so that a resumed run may change them; the fleet's flags
// (nats, nats-*) are among them too.
var runFlags = map[string]bool{"dir": true, "generations": true, "workers": true, "resume": true, "bench": true,
	"curve-every": true, "curve-openings": true, "curve-vs": true, "plot": true}

// RunFlag reports whether the flag called name leaves the population
// alone (the run folder, the number of generations and workers, the
// curve, the fleet), so that a resumed run may change it.
func RunFlag(name string) bool {
	return runFlags[name] || name == "nats" || strings.HasPrefix(name, "nats-")
}

// Start does what the parsed command line of nechecb evolve asks: with
// bench, Bench over one generation, or over --generations when fs holds it
// as given; with Resume and a Dir, Run on the run folder's settings with
// the flags given applied on top (MergeResume, flagsFor, RunFlag);
// otherwise Run. seed returns the settings' random seed, which becomes
// j.Seed.
func Start[C any](ctx context.Context, j Job[C], fs *flag.FlagSet, bench bool, flagsFor func(*C) *flag.FlagSet, seed func(*C) uint64) error {
	j.Seed = seed(&j.Settings)
	switch {
	case bench:
		gens := 1 // one generation is enough to time, unless --generations says
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "generations" {
				gens = max(j.Generations, 1)
			}
		})
		return Bench(ctx, j, gens)
	case j.Resume && j.Dir != "":
		settings, err := MergeResume(j.Dir, fs, flagsFor, RunFlag)
		if err != nil {
			return err
		}
		j.Settings, j.Seed = settings, seed(&settings)
	}
	return Run(ctx, j)
}
