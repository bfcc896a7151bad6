package fleet

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
	"github.com/nechecb/nechecb/internal/workunit"
)

// randomGames plays a unit's games with random movers seeded from each
// game's seed: a result that depends only on the unit.
func randomGames(_ context.Context, u *workunit.Unit) (*workunit.Result, error) {
	r := &workunit.Result{Version: workunit.Version, ID: u.ID}
	for _, g := range u.Games {
		start, err := g.Position()
		if err != nil {
			return nil, err
		}
		rec := engine.NewGame(start)
		rng := rand.New(rand.NewPCG(g.Seed, 1))
		res := play.Play(context.Background(), rec, play.Random(rng), play.Random(rng), play.Rules{MaxPlies: u.Rules.MaxPlies})
		r.Games = append(r.Games, workunit.GameResult{Outcome: res.PDN(), Plies: rec.Ply(), Pieces: workunit.PiecesLeft(rec), PDN: workunit.Record(rec, res.Outcome)})
	}
	return r, nil
}

func units(n int) []*workunit.Unit {
	var out []*workunit.Unit
	for i := range n {
		out = append(out, &workunit.Unit{Rules: workunit.Rules{MaxPlies: 40}, Cast: []workunit.Evaluator{{Kind: "material", Data: []byte(strings.Repeat("w", 100))}},
			Games: []workunit.Game{{Seed: uint64(i)}, {Seed: uint64(i + 1000)}}})
	}
	return out
}

type testFleet struct {
	t   *testing.T
	url string
}

func newTestFleet(t *testing.T) *testFleet {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	return &testFleet{t: t, url: srv.URL()}
}

func (f *testFleet) conn() *nats.Conn {
	nc, err := Connect(ConnectOptions{URL: f.url})
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(nc.Close)
	return nc
}

func (f *testFleet) worker(o WorkerOptions) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	nc := f.conn()
	go func() {
		defer close(done)
		if err := Worker(ctx, nc, o); err != nil {
			f.t.Error(err)
		}
	}()
	f.t.Cleanup(func() { cancel(); <-done })
}

// TestResultsInOrderDuplicatesDropped has a worker that publishes every
// result twice: the coordinator must return one valid result per unit, in
// unit order, and count the copies as duplicates; weights above the
// inline limit travel through the store.
func TestResultsInOrderDuplicatesDropped(t *testing.T) {
	f := newTestFleet(t)
	js, err := jetstream.New(f.conn())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	weights := map[string]bool{}
	f.worker(WorkerOptions{Concurrency: 2, Execute: func(ctx context.Context, u *workunit.Unit) (*workunit.Result, error) {
		mu.Lock()
		weights[string(u.Cast[0].Data)] = u.Cast[0].Hash != ""
		mu.Unlock()
		r, err := randomGames(ctx, u)
		if err == nil {
			data, _ := r.Encode()
			run, _, _ := strings.Cut(u.ID, "-")
			if _, err := js.Publish(ctx, ResultSubject+run, data); err != nil {
				t.Error(err)
			}
		}
		return r, err
	}})
	c, err := NewCoordinator(context.Background(), f.conn(), CoordinatorOptions{InlineLimit: 50})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	us := units(10)
	got, err := c.Run(context.Background(), us)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		want, _ := randomGames(context.Background(), us[i])
		if r.ID != us[i].ID || len(r.Games) != 2 || r.Games[1].PDN != want.Games[1].PDN {
			t.Errorf("result %d is %s's, not %s's", i, r.ID, us[i].ID)
		}
	}
	// The copies come in as the run ends: wait for them.
	for deadline := time.Now().Add(30 * time.Second); c.Status(context.Background()).Duplicates < 10 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if s := c.Status(context.Background()); s.Done != 10 || s.Games != 20 || s.Duplicates != 10 || s.Rejected != 0 {
		t.Errorf("status %+v", s)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(weights) != 1 || !weights[strings.Repeat("w", 100)] {
		t.Errorf("the worker saw weights %v", weights)
	}
}

// TestSlotsCountConcurrency has two workers, of 3 and 1 slots: the
// coordinator counts 2 workers and 4 slots from their heartbeats.
func TestSlotsCountConcurrency(t *testing.T) {
	f := newTestFleet(t)
	c, err := NewCoordinator(context.Background(), f.conn(), CoordinatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if n := c.Slots(); n != 1 {
		t.Errorf("%d slots with no worker, want 1", n)
	}
	f.worker(WorkerOptions{Name: "three", Concurrency: 3, Execute: randomGames})
	f.worker(WorkerOptions{Name: "one", Execute: randomGames})
	for deadline := time.Now().Add(30 * time.Second); c.Slots() < 4 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n, w := c.Slots(), c.Status(context.Background()).Workers; n != 4 || w != 2 {
		t.Errorf("%d slots of %d workers, want 4 of 2", n, w)
	}
}

// TestUnplayableUnitFailsTheRun has a worker that cannot play anything:
// after MaxRejects re-runs the coordinator gives up, naming the reason.
func TestUnplayableUnitFailsTheRun(t *testing.T) {
	f := newTestFleet(t)
	f.worker(WorkerOptions{Execute: func(context.Context, *workunit.Unit) (*workunit.Result, error) {
		return nil, errors.New("unknown evaluator \"nope\"")
	}})
	var logs []string
	var mu sync.Mutex
	c, err := NewCoordinator(context.Background(), f.conn(), CoordinatorOptions{MaxRejects: 2,
		Log: func(s string) { mu.Lock(); logs = append(logs, s); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Run(context.Background(), units(1))
	if err == nil || !strings.Contains(err.Error(), "3 results rejected") || !strings.Contains(err.Error(), `unknown evaluator "nope"`) {
		t.Fatalf("error %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := strings.Count(strings.Join(logs, "\n"), "rejected the result"); n != 3 {
		t.Errorf("%d rejections logged: %q", n, logs)
	}
}

func TestBadAddresses(t *testing.T) {
	for _, listen := range []string{"nonsense", "127.0.0.1:99999", "127.0.0.1:x"} {
		if _, err := StartServer(ServerOptions{Listen: listen, StoreDir: t.TempDir()}); err == nil {
			t.Errorf("listen %q: no error", listen)
		}
	}
	if _, err := Connect(ConnectOptions{}); err == nil {
		t.Error("no URL: no error")
	}
	if _, err := Connect(ConnectOptions{URL: "nats://127.0.0.1:1", CertFile: "x"}); err == nil {
		t.Error("a certificate without its key: no error")
	}
}

// TestCredentials starts a server that wants a user and password: a
// coordinator with them works, one without them gets nowhere.
func TestCredentials(t *testing.T) {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), User: "nechecb", Password: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	good, err := Connect(ConnectOptions{URL: srv.URL(), User: "nechecb", Password: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	c, err := NewCoordinator(ctx, good, CoordinatorOptions{})
	if err != nil {
		t.Fatalf("with the credentials: %v", err)
	}
	c.Close()
	bad, err := Connect(ConnectOptions{URL: srv.URL(), User: "nechecb", Password: "wrong"})
	if err == nil {
		defer bad.Close()
		short, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if _, err := NewCoordinator(short, bad, CoordinatorOptions{}); err == nil {
			t.Error("a coordinator with a wrong password got through")
		}
	}
}
