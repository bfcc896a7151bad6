package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/fleet"
	"github.com/nechecb/nechecb/internal/fleetrun"
	"github.com/nechecb/nechecb/internal/testbin"
	"github.com/nechecb/nechecb/train/evolve/evolvetest"
)

// fleetServer is an embedded NATS server the test can stop and start
// again on the same address and store.
type fleetServer struct {
	t      *testing.T
	listen string
	store  string
	srv    *fleet.Server
}

func newFleetServer(t *testing.T) *fleetServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := &fleetServer{t: t, listen: addr, store: t.TempDir()}
	s.start()
	t.Cleanup(func() {
		if s.srv != nil {
			s.srv.Shutdown()
		}
	})
	return s
}

func (s *fleetServer) start() {
	s.t.Helper()
	srv, err := fleet.StartServer(fleet.ServerOptions{Listen: s.listen, StoreDir: s.store})
	if err != nil {
		s.t.Fatal(err)
	}
	s.srv = srv
}

func (s *fleetServer) url() string { return "nats://" + s.listen }

// workerProc is a `nechecb worker` process whose log the test reads.
type workerProc struct {
	cmd     *exec.Cmd
	mu      sync.Mutex
	log     []string
	playing chan struct{} // gets a value at every unit started
}

// startWorkerProcs starts n verbose worker processes on url; the test's
// end stops them.
func startWorkerProcs(t *testing.T, url string, n int, env ...string) []*workerProc {
	t.Helper()
	return startWorkerProcsFrom(t, url, 0, n, env...)
}

// startWorkerProcsFrom is startWorkerProcs for workers named w<first>,
// w<first+1>, ...; env goes to the first.
func startWorkerProcsFrom(t *testing.T, url string, first, n int, env ...string) []*workerProc {
	t.Helper()
	bin := testbin.Build(t)
	var out []*workerProc
	for i := range n {
		w := &workerProc{playing: make(chan struct{}, 1000)}
		w.cmd = exec.Command(bin, "worker", "--nats", url, "--verbose", "--name", fmt.Sprintf("w%d", first+i))
		if i == 0 {
			w.cmd.Env = append(os.Environ(), env...)
		}
		stderr, err := w.cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := w.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				w.mu.Lock()
				w.log = append(w.log, sc.Text())
				w.mu.Unlock()
				if strings.Contains(sc.Text(), ": playing ") {
					w.playing <- struct{}{}
				}
			}
		}()
		t.Cleanup(func() {
			w.cmd.Process.Kill()
			w.cmd.Wait()
		})
		out = append(out, w)
	}
	return out
}

// anyLogs reports whether one of workers logs a line holding text,
// waiting a while for lines still on their way.
func anyLogs(workers []*workerProc, text string) bool {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, w := range workers {
			w.mu.Lock()
			found := strings.Contains(strings.Join(w.log, "\n"), text)
			w.mu.Unlock()
			if found {
				return true
			}
		}
	}
	return false
}

// fleetArgs is a tiny neche run with a curve point every generation, so
// that curve games travel too.
func fleetArgs(dir string, extra ...string) []string {
	return evolveArgs(dir, append([]string{"--generations", "3", "--curve-every", "1", "--curve-openings", "1", "--mode", "improved",
		"--curve-vs", "pattern"}, extra...)...)
}

// referenceRun runs the tiny evolution in process.
func referenceRun(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ref")
	var out, errs strings.Builder
	if status := evolveCommand(necheKind(), fleetArgs(dir), &out, &errs); status != 0 {
		t.Fatalf("in-process run: status %d: %s", status, errs.String())
	}
	return dir
}

// fleetRun runs the tiny evolution through the server at url in the
// background; wait returns its status and stderr.
func fleetRun(t *testing.T, url string, extra ...string) (dir string, wait func() (int, string)) {
	dir = filepath.Join(t.TempDir(), "fleet")
	var out, errs strings.Builder
	done := make(chan int, 1)
	args := fleetArgs(dir, append([]string{"--nats", url, "--nats-status", "200ms"}, extra...)...)
	go func() { done <- evolveCommand(necheKind(), args, &out, &errs) }()
	return dir, func() (int, string) {
		select {
		case status := <-done:
			return status, errs.String()
		case <-time.After(5 * time.Minute):
			t.Fatalf("the fleet run did not end; its log:\n%s", errs.String())
			return -1, ""
		}
	}
}

// lastStatus returns the last fleet status line of a log.
func lastStatus(log string) string {
	last := ""
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, "fleet: workers ") {
			last = l
		}
	}
	return last
}

// TestEvolveFleetSameFiles runs a tiny evolution through two worker
// processes and an embedded server on loopback: the run folder must be the
// in-process run's, byte for byte.
func TestEvolveFleetSameFiles(t *testing.T) {
	ref := referenceRun(t)
	srv := newFleetServer(t)
	startWorkerProcs(t, srv.url(), 2)
	dir, wait := fleetRun(t, srv.url())
	status, log := wait()
	if status != 0 {
		t.Fatalf("fleet run: status %d:\n%s", status, log)
	}
	evolvetest.SameFolders(t, "fleet run against in-process run", ref, dir)
	if strings.Contains(log, "played here") {
		t.Errorf("games were played in process:\n%s", log)
	}
	// (In flight may still count a unit whose acknowledgement follows its
	// result.)
	if s := lastStatus(log); !strings.Contains(s, "workers 2,") || !strings.Contains(s, "queued 0,") {
		t.Errorf("last status line %q", s)
	}
}

// TestEvolveFleetWorkerKilled kills one of three workers with SIGKILL while
// it plays a unit: the unit goes to another worker after the ack wait and
// the run ends with the in-process run's files (no unit lost, none counted
// twice).
func TestEvolveFleetWorkerKilled(t *testing.T) {
	ref := referenceRun(t)
	srv := newFleetServer(t)
	// Worker 0 hangs at its second unit (after delivering one), and is
	// killed while it holds it. It starts alone, so that it gets both
	// units whatever the speed of the others, which start once it hangs.
	workers := startWorkerProcs(t, srv.url(), 1, fleetrun.StallEnv+"=2")
	dir, wait := fleetRun(t, srv.url(), "--nats-ack-wait", "1s", "--nats-batch", "2")
	for range 2 {
		select {
		case <-workers[0].playing:
		case <-time.After(2 * time.Minute):
			t.Fatal("worker 0 never played")
		}
	}
	workers = append(workers, startWorkerProcsFrom(t, srv.url(), 1, 2)...)
	workers[0].cmd.Process.Kill()
	status, log := wait()
	if status != 0 {
		t.Fatalf("fleet run: status %d:\n%s", status, log)
	}
	evolvetest.SameFolders(t, "fleet run with a killed worker against in-process run", ref, dir)
	// The unit worker 0 held, the last it started (its first unit's "done"
	// may come after, once the server has the result), was played by
	// another.
	workers[0].mu.Lock()
	last := ""
	for _, l := range workers[0].log {
		if strings.Contains(l, ": playing ") {
			last = l
		}
	}
	workers[0].mu.Unlock()
	unit, _, ok := strings.Cut(strings.TrimPrefix(last, "nechecb worker: unit "), ":")
	if !ok {
		t.Fatalf("worker 0 started no unit it logged: %q", last)
	}
	if !anyLogs(workers[1:], "unit "+unit+": done") {
		t.Errorf("unit %s, held by the killed worker, was not played by another", unit)
	}
}

// TestEvolveFleetServerRestart stops the server while the run goes on and
// starts it again on the same address and store: workers and coordinator
// reconnect and the run ends with the in-process run's files.
func TestEvolveFleetServerRestart(t *testing.T) {
	ref := referenceRun(t)
	srv := newFleetServer(t)
	workers := startWorkerProcs(t, srv.url(), 2)
	dir, wait := fleetRun(t, srv.url(), "--nats-batch", "2")
	select {
	case <-workers[1].playing:
	case <-time.After(2 * time.Minute):
		t.Fatal("worker 1 never played")
	}
	srv.srv.Shutdown()
	time.Sleep(500 * time.Millisecond)
	srv.start()
	status, log := wait()
	if status != 0 {
		t.Fatalf("fleet run: status %d:\n%s", status, log)
	}
	evolvetest.SameFolders(t, "fleet run across a server restart against in-process run", ref, dir)
	if !strings.Contains(log, "reconnected") {
		t.Errorf("the coordinator did not say it reconnected:\n%s", log)
	}
	if !anyLogs(workers, "reconnected") {
		t.Errorf("no worker said it reconnected")
	}
}

// TestDatagenFleetSameFile generates positions through two worker
// processes, with an evaluator given as a file, and checks the file
// against the in-process run's; then again with the built-in endgame
// database, which the units name and the workers use.
func TestDatagenFleetSameFile(t *testing.T) {
	t.Run("no-db", func(t *testing.T) { datagenFleetSameFile(t) })
	t.Run("embedded-db", func(t *testing.T) { datagenFleetSameFile(t, "--db", "embedded") })
}

func datagenFleetSameFile(t *testing.T, settings ...string) {
	dir := t.TempDir()
	// The pattern weights go as a file, which travels to the workers.
	weights, err := filepath.Abs("../../eval/pattern/default.pat")
	if err != nil {
		t.Fatal(err)
	}
	args := func(out string, extra ...string) []string {
		return append(append([]string{"--games", "12", "--chunk", "6", "--nodes", "200", "--label-depth", "1", "--workers", "2",
			"--eval", "pattern:" + weights, "--out", out}, settings...), extra...)
	}
	var out, errs strings.Builder
	ref := filepath.Join(dir, "ref.bin")
	if status := datagenCommand(args(ref), &out, &errs); status != 0 {
		t.Fatalf("in-process datagen: status %d: %s", status, errs.String())
	}
	srv := newFleetServer(t)
	startWorkerProcs(t, srv.url(), 2)
	got := filepath.Join(dir, "fleet.bin")
	errs.Reset()
	if status := datagenCommand(args(got, "--nats", srv.url(), "--nats-batch", "2"), &out, &errs); status != 0 {
		t.Fatalf("fleet datagen: status %d: %s", status, errs.String())
	}
	a, errA := os.ReadFile(ref)
	b, errB := os.ReadFile(got)
	if errA != nil || errB != nil || len(a) < 1000 || string(a) != string(b) {
		t.Errorf("the fleet's positions file differs from the in-process one (%d and %d bytes; %v %v)", len(a), len(b), errA, errB)
	}
	if s := lastStatus(errs.String()); !strings.Contains(s, "done 6 units (12 games)") {
		t.Errorf("last status line %q", s)
	}
	if len(settings) > 0 && (!strings.Contains(errs.String(), "games ended by the endgame database") || strings.Contains(errs.String(), "endgame database 0,")) {
		t.Errorf("no game of the fleet's ended by the database: %s", errs.String())
	}
}

// TestMatchFleetSameFile plays a small match between two nechecb engines
// (one with an evaluator file, which travels to the workers as data) in
// process and on two worker processes: the PDN files must be the same.
func TestMatchFleetSameFile(t *testing.T) {
	bin := testbin.Build(t)
	dir := t.TempDir()
	nets, err := filepath.Abs("../../train/evolve/neche/testdata/best_networks_line1.txt")
	if err != nil {
		t.Fatal(err)
	}
	args := func(pdn string, extra ...string) []string {
		return append([]string{"match", "--engine", "name=A cmd=" + bin + " opts=Eval=heuristic",
			"--engine", "name=B cmd=" + bin + " opts=Eval=neche:" + nets + "#1", "--depth", "2", "--games", "6",
			"--pdn", pdn, "--quiet"}, extra...)
	}
	ref := filepath.Join(dir, "ref.pdn")
	if out, err := exec.Command(bin, args(ref)...).CombinedOutput(); err != nil {
		t.Fatalf("in-process match: %v\n%s", err, out)
	}
	srv := newFleetServer(t)
	startWorkerProcs(t, srv.url(), 2)
	got := filepath.Join(dir, "fleet.pdn")
	out, err := exec.Command(bin, args(got, "--nats", srv.url())...).CombinedOutput()
	if err != nil {
		t.Fatalf("fleet match: %v\n%s", err, out)
	}
	a, errA := os.ReadFile(ref)
	b, errB := os.ReadFile(got)
	if errA != nil || errB != nil || strings.Count(string(a), "[Round ") != 6 || string(a) != string(b) {
		t.Errorf("the fleet's PDN differs from the in-process one (%v %v):\n%s\n----\n%s", errA, errB, a, b)
	}
	if !strings.Contains(string(out), "done 3 units (6 games)") {
		t.Errorf("the fleet match's output:\n%s", out)
	}
	// An engine that is not nechecb cannot travel.
	out, err = exec.Command(bin, "match", "--engine", "name=X cmd=/bin/cat", "--engine", "name=B cmd="+bin, "--depth", "2",
		"--pdn", filepath.Join(dir, "x.pdn"), "--nats", srv.url()).CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "can only carry engines that are nechecb") {
		t.Errorf("a match with a foreign engine on a fleet: status %d:\n%s", code, out)
	}
}

// exitCode returns a finished command's exit status.
func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestEvolveEmbeddedServer runs the tiny evolution with --nats embedded:
// the coordinator starts the server itself (storing in RUN/nats, removed
// at the end) and a worker process started before it waits for it.
func TestEvolveEmbeddedServer(t *testing.T) {
	ref := referenceRun(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	startWorkerProcs(t, "nats://"+addr, 1)
	dir, wait := fleetRun(t, "embedded", "--nats-listen", addr)
	status, log := wait()
	if status != 0 {
		t.Fatalf("fleet run: status %d:\n%s", status, log)
	}
	if !strings.Contains(log, "embedded NATS server at nats://"+addr) {
		t.Errorf("the coordinator did not say where its server listens:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(dir, "nats")); err == nil {
		t.Errorf("the server's store is left in the run folder")
	}
	evolvetest.SameFolders(t, "run on an embedded server against in-process run", ref, dir)
}
