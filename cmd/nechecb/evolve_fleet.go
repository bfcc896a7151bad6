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

	"github.com/nechecb/nechecb/train/evolve"
)

// evolveFleetBench plays the same generations twice from the same seed:
// in process on w workers, then through the fleet (with --nats embedded,
// on w local worker processes it starts itself), and prints both rates,
// their ratio, the fleet's cost per unit and whether the two runs wrote
// the same files.
func evolveFleetBench[C any](ctx context.Context, k evolveKind[C], cfg C, gens, w int, nf *natsFlags, stdout, stderr io.Writer, fail func(error) int) int {
	tmp, err := os.MkdirTemp("", "nechecb-evolve-fleet-bench-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	seed, _ := k.seedMode(&cfg)
	runOnce := func(dir string, remote evolve.Remote) (time.Duration, int, error) {
		if err := evolve.Prepare(dir, false, cfg); err != nil {
			return 0, 0, err
		}
		l, err := k.learner(dir, cfg)
		if err != nil {
			return 0, 0, err
		}
		games := 0
		start := time.Now()
		err = evolve.Run(ctx, l, evolve.Config{Dir: dir, Generations: gens, Seed: *seed, Workers: w, Remote: remote,
			Progress: func(p evolve.Progress) { games += p.Games }})
		return time.Since(start), games, err
	}
	local, fleetDir := filepath.Join(tmp, "local"), filepath.Join(tmp, "fleet")
	localTime, localGames, err := runOnce(local, nil)
	if err != nil {
		return fail(err)
	}
	f, err := nf.startCoordinator(ctx, filepath.Join(tmp, "server"), stderr)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	if f.server != nil {
		stopWorkers, err := startLocalWorkers(f.server.URL(), w, stderr)
		if err != nil {
			return fail(err)
		}
		defer stopWorkers()
	}
	// Time from the moment the workers are there.
	for deadline := time.Now().Add(time.Minute); f.coord.Status(ctx).Workers < w && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	fleetTime, fleetGames, err := runOnce(fleetDir, f.remote)
	if err != nil {
		return fail(err)
	}
	st := f.coord.Status(ctx)
	localRate := float64(localGames) / max(localTime.Seconds(), 1e-9)
	fleetRate := float64(fleetGames) / max(fleetTime.Seconds(), 1e-9)
	fmt.Fprintf(stdout, "%s: in process, %d workers: %d games in %.2f s, %.1f games/s\n", k.name, w, localGames, localTime.Seconds(), localRate)
	fmt.Fprintf(stdout, "%s: fleet, %d workers: %d games in %d units in %.2f s, %.1f games/s\n", k.name, w, fleetGames, st.Done, fleetTime.Seconds(), fleetRate)
	perUnit := (fleetTime - localTime).Seconds() * float64(w) / float64(max(st.Done, 1)) * 1000
	fmt.Fprintf(stdout, "%s: fleet/in-process %.3f; overhead %.2f ms a unit (worker time); same files: %v\n",
		k.name, fleetRate/max(localRate, 1e-9), perUnit, sameTree(local, fleetDir))
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
