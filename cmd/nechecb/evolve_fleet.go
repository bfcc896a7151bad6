package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nechecb/nechecb/internal/cputime"
	"github.com/nechecb/nechecb/train/evolve"
)

// fleetBenchRounds is how many times evolveFleetBench plays the
// generations each way, alternating, so that a change in the load of a
// shared machine weighs on both.
const fleetBenchRounds = 3

// evolveFleetBench plays the same generations from the same seed in
// process on w workers and through the fleet (with --nats embedded, on w
// local worker processes it starts itself), alternating, fleetBenchRounds
// times each; it prints both rates, by the clock and by CPU time, their
// ratios, the fleet's cost per unit and whether the runs wrote the same
// files.
func evolveFleetBench[C any](ctx context.Context, k evolveKind[C], cfg C, gens, w int, nf *natsFlags, stdout, stderr io.Writer, fail func(error) int) int {
	tmp, err := os.MkdirTemp("", "nechecb-evolve-fleet-bench-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	seed, _ := k.seedMode(&cfg)
	type total struct {
		games, units int
		wall, cpu    time.Duration
	}
	var local, fleetRuns total
	runOnce := func(dir string, remote evolve.Remote, t *total) error {
		if err := evolve.Prepare(dir, false, cfg); err != nil {
			return err
		}
		l, err := k.learner(dir, cfg)
		if err != nil {
			return err
		}
		self0, _ := cputime.Self()
		start := time.Now()
		err = evolve.Run(ctx, l, evolve.Config{Dir: dir, Generations: gens, Seed: *seed, Workers: w, Remote: remote,
			Progress: func(p evolve.Progress) { t.games += p.Games }})
		t.wall += time.Since(start)
		self1, _ := cputime.Self()
		t.cpu += self1 - self0
		return err
	}
	f, err := nf.startCoordinator(ctx, filepath.Join(tmp, "server"), stderr)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	var stopWorkers func()
	if f.server != nil {
		if stopWorkers, err = startLocalWorkers(f.server.URL(), w, stderr); err != nil {
			return fail(err)
		}
		defer func() {
			if stopWorkers != nil {
				stopWorkers()
			}
		}()
	}
	// Time from the moment the workers are there.
	for deadline := time.Now().Add(time.Minute); f.coord.Status(ctx).Workers < w && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	children0, _ := cputime.Children()
	same := true
	for r := range fleetBenchRounds {
		ld, fd := filepath.Join(tmp, fmt.Sprintf("local%d", r)), filepath.Join(tmp, fmt.Sprintf("fleet%d", r))
		if err := runOnce(ld, nil, &local); err != nil {
			return fail(err)
		}
		if err := runOnce(fd, f.remote, &fleetRuns); err != nil {
			return fail(err)
		}
		same = same && sameTree(ld, fd)
		os.RemoveAll(ld)
		os.RemoveAll(fd)
	}
	fleetRuns.units = f.coord.Status(ctx).Done
	workerCPU := time.Duration(0)
	if stopWorkers != nil {
		// The workers' CPU time counts once they have ended.
		stopWorkers()
		stopWorkers = nil
		children1, _ := cputime.Children()
		workerCPU = children1 - children0
		fleetRuns.cpu += workerCPU
	}
	rate := func(t total) (float64, float64) {
		return float64(t.games) / max(t.wall.Seconds(), 1e-9), float64(t.games) / max(t.cpu.Seconds(), 1e-9)
	}
	lw, lc := rate(local)
	fw, fc := rate(fleetRuns)
	fmt.Fprintf(stdout, "%s: %d rounds of %d generation(s) each way, alternating, %d workers\n", k.name, fleetBenchRounds, gens, w)
	fmt.Fprintf(stdout, "%s: in process: %d games in %.2f s, %.1f games/s; CPU %.2f s, %.1f games per CPU-second\n",
		k.name, local.games, local.wall.Seconds(), lw, local.cpu.Seconds(), lc)
	fmt.Fprintf(stdout, "%s: fleet: %d games in %d units in %.2f s, %.1f games/s; CPU %.2f s (workers %.2f s), %.1f games per CPU-second\n",
		k.name, fleetRuns.games, fleetRuns.units, fleetRuns.wall.Seconds(), fw, fleetRuns.cpu.Seconds(), workerCPU.Seconds(), fc)
	units := float64(max(fleetRuns.units, 1))
	fmt.Fprintf(stdout, "%s: fleet/in-process: %.3f by the clock, %.3f by CPU time; overhead a unit: %.2f ms of worker time by the clock, %.2f ms of CPU\n",
		k.name, fw/max(lw, 1e-9), fc/max(lc, 1e-9), (fleetRuns.wall-local.wall).Seconds()*float64(w)/units*1000,
		(fleetRuns.cpu-local.cpu).Seconds()/units*1000)
	fmt.Fprintf(stdout, "%s: same files: %v\n", k.name, same && local.games == fleetRuns.games)
	return 0
}

// startLocalWorkers starts n `nechecb worker` processes of this binary on
// url and returns the function that stops them.
func startLocalWorkers(url string, n int, stderr io.Writer) (func(), error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var cmds []*exec.Cmd
	stop := func() {
		for _, c := range cmds {
			c.Process.Signal(syscall.SIGTERM)
		}
		for _, c := range cmds {
			c.Wait()
		}
	}
	for i := range n {
		c := exec.Command(exe, "worker", "--nats", url, "--name", "bench-"+strconv.Itoa(i))
		c.Stderr = stderr
		if err := c.Start(); err != nil {
			stop()
			return nil, err
		}
		cmds = append(cmds, c)
	}
	return stop, nil
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
