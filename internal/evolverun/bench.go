package evolverun

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nechecb/nechecb/internal/cputime"
	"github.com/nechecb/nechecb/internal/fleetrun"
	"github.com/nechecb/nechecb/train/evolve"
)

// Bench times gens generations in temporary folders and prints the rates:
// in process with 1 worker and with Workers, or, when the job names a
// fleet, in process and through the fleet alternately.
func Bench[C any](ctx context.Context, j Job[C], gens int) error {
	if err := j.check(); err != nil {
		return err
	}
	if j.Fleet.URL != "" {
		return fleetBench(ctx, j, gens)
	}
	workers := []int{1}
	if j.Workers > 1 {
		workers = append(workers, j.Workers)
	}
	rows, err := evolve.Bench(ctx, func(dir string) (evolve.Learner, error) {
		if err := evolve.Prepare(dir, false, j.Settings); err != nil {
			return nil, err
		}
		return j.Learner(dir, j.Settings)
	}, gens, workers)
	if err != nil {
		return err
	}
	for _, r := range rows {
		fmt.Fprintf(j.Stdout, "%s: %d worker(s), %d generation(s), %d games, %.2f s a generation, %.1f games/s",
			j.Name, r.Workers, r.Generations, r.Games, r.PerGeneration().Seconds(), r.GamesPerSec())
		if r.CPU > 0 {
			fmt.Fprintf(j.Stdout, ", CPU %.2f s a generation", r.CPU.Seconds()/float64(max(r.Generations, 1)))
		}
		fmt.Fprintln(j.Stdout)
	}
	if len(rows) == 2 {
		fmt.Fprintf(j.Stdout, "%s: %d workers play %.2fx the games per second of 1\n", j.Name, rows[1].Workers, rows[1].GamesPerSec()/rows[0].GamesPerSec())
	}
	return nil
}

// fleetBenchRounds is how many times fleetBench plays the generations each
// way, alternating, so that a change in the load of a shared machine weighs
// on both.
const fleetBenchRounds = 3

// benchTotal adds up the runs of one way.
type benchTotal struct {
	games, units int
	wall, cpu    time.Duration
}

// rates returns the games per second by the clock and by CPU time.
func (t benchTotal) rates() (float64, float64) {
	return float64(t.games) / max(t.wall.Seconds(), 1e-9), float64(t.games) / max(t.cpu.Seconds(), 1e-9)
}

// benchOnce plays the job's generations in dir from its seed, through
// remote when it is not nil, and adds the games, time and CPU time to t.
func benchOnce[C any](ctx context.Context, j Job[C], gens int, dir string, remote evolve.Remote, t *benchTotal) error {
	if err := evolve.Prepare(dir, false, j.Settings); err != nil {
		return err
	}
	l, err := j.Learner(dir, j.Settings)
	if err != nil {
		return err
	}
	self0, _ := cputime.Self()
	start := time.Now()
	err = evolve.Run(ctx, l, evolve.Config{Dir: dir, Generations: gens, Seed: j.Seed, Workers: j.Workers, Remote: remote,
		Progress: func(p evolve.Progress) { t.games += p.Games }})
	t.wall += time.Since(start)
	self1, _ := cputime.Self()
	t.cpu += self1 - self0
	return err
}

// fleetBench plays the same generations from the same seed in process on
// Workers workers and through the fleet (with an embedded server, on as
// many local worker processes it starts itself), alternating,
// fleetBenchRounds times each; it prints both rates, by the clock and by
// CPU time, their ratios, the fleet's cost per unit and whether the runs
// wrote the same files.
func fleetBench[C any](ctx context.Context, j Job[C], gens int) error {
	tmp, err := os.MkdirTemp("", "nechecb-evolve-fleet-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	f, err := fleetrun.Start(ctx, j.Fleet, filepath.Join(tmp, "server"), j.Stderr)
	if err != nil {
		return err
	}
	defer f.Close()
	var stopWorkers func()
	if f.Server != nil {
		if stopWorkers, err = fleetrun.StartLocalWorkers(f.Server.URL(), j.Workers, j.Stderr); err != nil {
			return err
		}
		defer func() {
			if stopWorkers != nil {
				stopWorkers()
			}
		}()
	}
	// Time from the moment the workers are there.
	for deadline := time.Now().Add(time.Minute); f.Coordinator.Status(ctx).Workers < j.Workers && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	children0, _ := cputime.Children()
	var local, fleet benchTotal
	same := true
	for r := range fleetBenchRounds {
		ld, fd := filepath.Join(tmp, fmt.Sprintf("local%d", r)), filepath.Join(tmp, fmt.Sprintf("fleet%d", r))
		if err := benchOnce(ctx, j, gens, ld, nil, &local); err != nil {
			return err
		}
		if err := benchOnce(ctx, j, gens, fd, f.Remote, &fleet); err != nil {
			return err
		}
		same = same && sameTree(ld, fd)
		os.RemoveAll(ld)
		os.RemoveAll(fd)
	}
	fleet.units = f.Coordinator.Status(ctx).Done
	workerCPU := time.Duration(0)
	if stopWorkers != nil {
		// The workers' CPU time counts once they have ended.
		stopWorkers()
		stopWorkers = nil
		children1, _ := cputime.Children()
		workerCPU = children1 - children0
		fleet.cpu += workerCPU
	}
	writeFleetBench(j, gens, local, fleet, workerCPU, same)
	return nil
}

// writeFleetBench prints the fleet benchmark's figures.
func writeFleetBench[C any](j Job[C], gens int, local, fleet benchTotal, workerCPU time.Duration, same bool) {
	w := j.Stdout
	lw, lc := local.rates()
	fw, fc := fleet.rates()
	fmt.Fprintf(w, "%s: %d rounds of %d generation(s) each way, alternating, %d workers\n", j.Name, fleetBenchRounds, gens, j.Workers)
	fmt.Fprintf(w, "%s: in process: %d games in %.2f s, %.1f games/s; CPU %.2f s, %.1f games per CPU-second\n",
		j.Name, local.games, local.wall.Seconds(), lw, local.cpu.Seconds(), lc)
	fmt.Fprintf(w, "%s: fleet: %d games in %d units in %.2f s, %.1f games/s; CPU %.2f s (workers %.2f s), %.1f games per CPU-second\n",
		j.Name, fleet.games, fleet.units, fleet.wall.Seconds(), fw, fleet.cpu.Seconds(), workerCPU.Seconds(), fc)
	units := float64(max(fleet.units, 1))
	fmt.Fprintf(w, "%s: fleet/in-process: %.3f by the clock, %.3f by CPU time; overhead a unit: %.2f ms of worker time by the clock, %.2f ms of CPU\n",
		j.Name, fw/max(lw, 1e-9), fc/max(lc, 1e-9), (fleet.wall-local.wall).Seconds()*float64(j.Workers)/units*1000,
		(fleet.cpu-local.cpu).Seconds()/units*1000)
	fmt.Fprintf(w, "%s: same files: %v\n", j.Name, same && local.games == fleet.games)
}

// sameTree reports whether two folders hold the same files with the same
// bytes.
func sameTree(a, b string) bool {
	read := func(root string) map[string][]byte {
		out := map[string][]byte{}
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(path)
				out[strings.TrimPrefix(path, root)] = data
			}
			return nil
		})
		return out
	}
	fa, fb := read(a), read(b)
	if len(fa) != len(fb) || len(fa) == 0 {
		return false
	}
	for name, data := range fa {
		if other, ok := fb[name]; !ok || !bytes.Equal(data, other) {
			return false
		}
	}
	return true
}
