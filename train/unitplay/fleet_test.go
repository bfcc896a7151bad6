package unitplay

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/nechecb/nechecb/internal/fleet"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/train/evolve/evolvetest"
)

// startFleet starts an embedded server on loopback and returns a
// connection factory for it.
func startFleet(t *testing.T) (*fleet.Server, func(name string) *nats.Conn) {
	t.Helper()
	srv, err := fleet.StartServer(fleet.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	connect := func(name string) *nats.Conn {
		nc, err := fleet.Connect(fleet.ConnectOptions{URL: srv.URL(), Name: name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	return srv, connect
}

// startWorkers runs n in-process workers, each playing with execute, until
// the test ends.
func startWorkers(t *testing.T, connect func(string) *nats.Conn, n int, execute fleet.Execute) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		nc := connect("worker")
		wg.Add(1)
		go func() {
			defer wg.Done()
			fleet.Worker(ctx, nc, fleet.WorkerOptions{Name: "w" + string(rune('a'+i)), Execute: execute})
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// TestFleetGivesThePoolsFiles runs a tiny evolution with its games played
// by two workers over an embedded server, weights travelling through the
// weight store, and checks the files against the pool's own run.
func TestFleetGivesThePoolsFiles(t *testing.T) {
	want, got := t.TempDir(), t.TempDir()
	runNeche(t, want, nil, 2)
	_, connect := startFleet(t)
	x := newExecutor(t)
	startWorkers(t, connect, 2, x.Execute)
	var statuses atomic.Int64
	c, err := fleet.NewCoordinator(context.Background(), connect("coordinator"), fleet.CoordinatorOptions{InlineLimit: -1,
		StatusEvery: 50 * time.Millisecond, Status: func(fleet.Status) { statuses.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	runNeche(t, got, &Remote{Runner: c, Batch: 4}, 2)
	evolvetest.SameFolders(t, "fleet against pool", want, got)
	// The last acknowledgements may reach the server just after the
	// results: wait for them.
	s := c.Status(context.Background())
	for deadline := time.Now().Add(30 * time.Second); (s.Queued != 0 || s.InFlight != 0) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		s = c.Status(context.Background())
	}
	if s.Done == 0 || s.Rejected != 0 || s.Queued != 0 || s.InFlight != 0 {
		t.Errorf("status after the run: %+v", s)
	}
}

// forge spoils a game result in the way number n says: 0 claims another
// outcome than the game's, 1 another length, 2 puts an illegal move in it.
func forge(t *testing.T, g *workunit.GameResult, n int) {
	switch n {
	case 0:
		g.Outcome = map[string]string{"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[g.Outcome]
	case 1:
		g.Plies++
	case 2:
		if len(g.Moves) == 0 {
			t.Errorf("a game with no moves")
			return
		}
		g.Moves[len(g.Moves)/2] = 250
	}
}

// TestForgedResultIsRejected has a worker that forges the first game of the
// first units it plays, in each of forge's ways, while an honest worker
// plays too: every forged result must be rejected and logged, its
// unit played again, and the run's files must be the pool's.
func TestForgedResultIsRejected(t *testing.T) {
	want, got := t.TempDir(), t.TempDir()
	runNeche(t, want, nil, 1)
	_, connect := startFleet(t)
	x := newExecutor(t)
	var forged atomic.Int64
	startWorkers(t, connect, 1, func(ctx context.Context, u *workunit.Unit) (*workunit.Result, error) {
		r, err := x.Execute(ctx, u)
		if err == nil && forged.Load() < 3 {
			forge(t, &r.Games[0], int(forged.Load()))
			forged.Add(1)
		}
		return r, err
	})
	var mu sync.Mutex
	var logs []string
	c, err := fleet.NewCoordinator(context.Background(), connect("coordinator"), fleet.CoordinatorOptions{
		MaxRejects: 5, Log: func(s string) { mu.Lock(); logs = append(logs, s); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The honest worker joins once the forger has done its harm.
	go func() {
		for forged.Load() < 3 {
			time.Sleep(5 * time.Millisecond)
		}
		startWorkers(t, connect, 1, x.Execute)
	}()
	runNeche(t, got, &Remote{Runner: c, Batch: 2}, 1)
	evolvetest.SameFolders(t, "fleet with a forger against pool", want, got)
	s := c.Status(context.Background())
	if s.Rejected != int(forged.Load()) || s.Rejected == 0 {
		t.Errorf("%d results forged, %d rejected", forged.Load(), s.Rejected)
	}
	mu.Lock()
	defer mu.Unlock()
	rejected := 0
	for _, l := range logs {
		if strings.Contains(l, "rejected the result") {
			rejected++
		}
	}
	if rejected != s.Rejected {
		t.Errorf("%d rejections logged, %d counted: %q", rejected, s.Rejected, logs)
	}
}
