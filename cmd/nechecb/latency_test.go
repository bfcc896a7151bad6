package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/testbin"
)

// pipedEngine is a "nechecb protocol" process driven over its stdin and
// stdout, as a GUI drives it: the child's stdin is a plain blocking pipe,
// which an in-process test with os.Pipe (non-blocking, on Go's poller)
// would not reproduce.
type pipedEngine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startPiped starts the built binary's protocol with the given setoption
// lines and waits until it is ready.
func startPiped(b *testing.B, options ...string) *pipedEngine {
	b.Helper()
	cmd := exec.Command(testbin.Build(b), "protocol")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	e := &pipedEngine{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	b.Cleanup(func() {
		e.send("quit")
		in.Close()
		cmd.Wait()
	})
	e.send("uci")
	e.await(b, "uciok")
	for _, o := range options {
		e.send("setoption " + o)
	}
	e.ready(b)
	return e
}

func (e *pipedEngine) send(line string) { fmt.Fprintln(e.in, line) }

// await reads until a line starting with prefix and returns when it came.
func (e *pipedEngine) await(b *testing.B, prefix string) time.Time {
	b.Helper()
	for e.out.Scan() {
		if strings.HasPrefix(e.out.Text(), prefix) {
			return time.Now()
		}
	}
	b.Fatalf("the engine's output ended before %q: %v", prefix, e.out.Err())
	return time.Time{}
}

func (e *pipedEngine) ready(b *testing.B) {
	b.Helper()
	e.send("isready")
	e.await(b, "readyok")
}

// reportSpread reports the median and the largest of samples in ms.
func reportSpread(b *testing.B, samples []time.Duration, unit string) {
	slices.Sort(samples)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(samples[len(samples)/2]), "ms-median-"+unit)
	b.ReportMetric(ms(samples[len(samples)-1]), "ms-max-"+unit)
}

// bestmoveAfter runs b.N searches from the start position: each sends
// goLine, waits for pause, sends last if it is not empty, and times from the
// last line sent to the bestmove.
func bestmoveAfter(b *testing.B, e *pipedEngine, goLine string, pause time.Duration, last string) []time.Duration {
	var took []time.Duration
	for range b.N {
		e.send("position startpos")
		e.ready(b)
		e.send(goLine)
		t0 := time.Now()
		if last != "" {
			time.Sleep(pause)
			t0 = time.Now()
			e.send(last)
		}
		took = append(took, e.await(b, "bestmove").Sub(t0))
	}
	return took
}

// BenchmarkProtocolStop measures, through a pipe, the time from sending
// stop to an infinite search (300 ms after its go, from the start position,
// with the default evaluator) to the bestmove line arriving: what a GUI's
// "move now" and the clock wait on.
func BenchmarkProtocolStop(b *testing.B) {
	reportSpread(b, bestmoveAfter(b, startPiped(b), "go infinite", 300*time.Millisecond, "stop"), "stop")
}

// BenchmarkProtocolMoveTime measures, through a pipe, how long a
// go movetime 100 takes from the go line to the bestmove line with the
// default MoveOverhead: the time a move uses of what it was given.
func BenchmarkProtocolMoveTime(b *testing.B) {
	reportSpread(b, bestmoveAfter(b, startPiped(b), "go movetime 100", 0, ""), "used")
}
