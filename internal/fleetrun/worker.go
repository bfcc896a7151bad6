package fleetrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"
	"syscall"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fleet"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/match"
	"github.com/nechecb/nechecb/train/datagen"
	"github.com/nechecb/nechecb/train/unitplay"
)

// WorkerConfig is one worker process.
type WorkerConfig struct {
	// Name is the worker's name in results and logs (default host-pid).
	Name string
	// Concurrency is the units played at once, one CPU core each.
	Concurrency int
	// Verbose logs every unit as it starts and ends.
	Verbose bool
	// DB is the endgame database folder for datagen units that need more
	// pieces than the binary's own database ("": none).
	DB string
	// Log receives the worker's lines.
	Log func(string)
}

// StallEnv names the test hook that makes a worker hang, as a machine that
// dies mid-game does: with it set to N, the worker's Nth unit never ends
// (until the worker is stopped), so that a test can kill the worker while
// it holds a unit.
const StallEnv = "NECHECB_TEST_WORKER_STALL"

// Work pulls units from the settings' server and plays them until ctx
// ends, then logs how many it played. It waits for a server that is not up
// yet and reconnects after one restarts.
func Work(ctx context.Context, s Settings, w WorkerConfig) error {
	if s.URL == "" {
		return badinput.Mark(errors.New("--nats is required"))
	}
	if w.Concurrency < 1 {
		return badinput.Mark(errors.New("--concurrency must be at least 1"))
	}
	if w.DB != "" {
		pieces, err := datagen.CheckDB(w.DB)
		if err != nil {
			return badinput.Mark(fmt.Errorf("--db: %w", err))
		}
		w.Log(fmt.Sprintf("endgame database %s: %d pieces", w.DB, pieces))
	}
	nc, err := fleet.Connect(s.connectOptions(s.URL, "nechecb worker", w.Log))
	if err != nil {
		return badinput.Mark(err)
	}
	defer nc.Close()
	execute, closeAll, err := dispatcher(w.DB)
	if err != nil {
		return err
	}
	defer closeAll()
	if n, err := strconv.Atoi(os.Getenv(StallEnv)); err == nil && n > 0 {
		execute = stallAt(n, execute)
	}
	var units, games atomic.Int64
	opts := fleet.WorkerOptions{Name: w.Name, Concurrency: w.Concurrency, Execute: execute, Log: w.Log,
		Played: func(u *workunit.Unit) {
			units.Add(1)
			games.Add(int64(len(u.Games)))
			if w.Verbose {
				w.Log(fmt.Sprintf("unit %s: done", u.ID))
			}
		}}
	if w.Verbose {
		opts.Playing = func(u *workunit.Unit) { w.Log(fmt.Sprintf("unit %s: playing %d games", u.ID, len(u.Games))) }
	}
	if err := fleet.Worker(ctx, nc, opts); err != nil {
		return err
	}
	w.Log(fmt.Sprintf("stopped after %d units (%d games)", units.Load(), games.Load()))
	return nil
}

// dispatcher returns the function that plays a unit of any kind: match
// units with engine processes of this binary, the others in process (db
// is the endgame database folder of datagen units, "" none). closeAll
// releases what they hold.
func dispatcher(db string) (execute fleet.Execute, closeAll func(), err error) {
	x, err := unitplay.NewExecutor()
	if err != nil {
		return nil, nil, err
	}
	x.SetDB(db)
	binary, err := os.Executable()
	if err != nil {
		x.Close()
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "nechecb-worker-match-")
	if err != nil {
		x.Close()
		return nil, nil, err
	}
	matches := match.NewUnitPlayer(binary, dir)
	execute = func(ctx context.Context, u *workunit.Unit) (*workunit.Result, error) {
		if u.Kind == workunit.KindMatch {
			return matches.Execute(ctx, u)
		}
		return x.Execute(ctx, u)
	}
	closeAll = func() {
		matches.Close()
		os.RemoveAll(dir)
		x.Close()
	}
	return execute, closeAll, nil
}

// stallAt returns execute, except that the nth call blocks until its
// context ends.
func stallAt(n int, execute fleet.Execute) fleet.Execute {
	var calls atomic.Int64
	return func(ctx context.Context, u *workunit.Unit) (*workunit.Result, error) {
		if calls.Add(1) == int64(n) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return execute(ctx, u)
	}
}

// StartLocalWorkers starts n `worker` processes of this binary on url,
// their stderr on stderr, and returns the function that stops them.
func StartLocalWorkers(url string, n int, stderr io.Writer) (func(), error) {
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
