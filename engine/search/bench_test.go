package search

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
)

// TestBenchSignature runs the bench as nechecb bench does (BenchDepth, the
// material evaluator) and compares its node count with BenchSignature, so a
// change to the search tree cannot pass unnoticed. It also checks that the
// report has a line per position and ends with the same count.
func TestBenchSignature(t *testing.T) {
	var out strings.Builder
	nodes, _ := Bench(&out, 0, 1, nil, Play)
	if nodes != BenchSignature {
		t.Errorf("bench at depth %d searched %d nodes, BenchSignature is %d; "+
			"if the search was meant to change, update BenchSignature", BenchDepth, nodes, BenchSignature)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(BenchFENs)+1 {
		t.Fatalf("bench wrote %d lines for %d positions:\n%s", len(lines), len(BenchFENs), out.String())
	}
	if last, want := lines[len(lines)-1], fmt.Sprintf("nodes %d time ", nodes); !strings.HasPrefix(last, want) {
		t.Errorf("bench's last line is %q, want it to start with %q", last, want)
	}
}

// BenchmarkBench runs the bench positions (depth 13, material, one thread)
// and reports nodes per second.
func BenchmarkBench(b *testing.B) {
	b.ReportAllocs()
	var nodes uint64
	var elapsed float64
	for i := 0; i < b.N; i++ {
		n, t := Bench(io.Discard, BenchDepth, 1, nil, Play)
		nodes += n
		elapsed += t.Seconds()
	}
	b.ReportMetric(float64(nodes)/elapsed, "nodes/s")
}

// BenchmarkStartDepth20 searches the start position to depth 20 with a
// fresh default table, one thread and the material evaluator; the issue
// asks for less than 5 s.
func BenchmarkStartDepth20(b *testing.B) {
	b.ReportAllocs()
	s := New(Options{}, nil)
	var nodes uint64
	for i := 0; i < b.N; i++ {
		s.Clear()
		r := s.Search(context.Background(), engine.StartPosition(), nil, Limits{Depth: 20}, nil)
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkStopLatency measures the time from cancelling an infinite search
// (after 50 ms of searching) to its return, in process: the search's own
// share of a stop's latency (BenchmarkProtocolStop in cmd/nechecb measures
// it through a pipe).
func BenchmarkStopLatency(b *testing.B) {
	s := New(Options{HashMB: 16}, nil)
	var worst time.Duration
	var total time.Duration
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan time.Time)
		go func() {
			s.Search(ctx, engine.StartPosition(), nil, Limits{Infinite: true}, nil)
			done <- time.Now()
		}()
		time.Sleep(50 * time.Millisecond)
		t0 := time.Now()
		cancel()
		lat := (<-done).Sub(t0)
		total += lat
		worst = max(worst, lat)
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs-avg")
	b.ReportMetric(float64(worst.Microseconds()), "µs-worst")
}

// BenchmarkMoveTimeOvershoot measures how far a 100 ms movetime search
// (MoveOverhead 0) runs past 100 ms: what MoveOverhead must cover beside
// the delivery of the move.
func BenchmarkMoveTimeOvershoot(b *testing.B) {
	s := New(Options{HashMB: 16, MoveOverhead: 0}, nil)
	var worst, total time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		s.Search(context.Background(), engine.StartPosition(), nil, Limits{MoveTime: 100 * time.Millisecond}, nil)
		over := time.Since(t0) - 100*time.Millisecond
		total += over
		worst = max(worst, over)
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs-avg-over")
	b.ReportMetric(float64(worst.Microseconds()), "µs-worst-over")
}

// TestPlainSignature runs the bench with the Plain profile (PlainBenchDepth,
// the material evaluator) and compares its node count with PlainSignature.
// A search feature added with its zero value on changes this count until
// PlainTuning switches it off: the learners' alpha-beta (train/evolve's
// faithful modes) cannot gain a feature unnoticed.
func TestPlainSignature(t *testing.T) {
	nodes, _ := Bench(io.Discard, 0, 1, nil, Plain)
	if nodes != PlainSignature {
		t.Errorf("the plain bench at depth %d searched %d nodes, PlainSignature is %d; a new search feature must be "+
			"switched off in PlainTuning, not counted here (update PlainSignature only when the plain search itself "+
			"was meant to change)", PlainBenchDepth, nodes, PlainSignature)
	}
}

// TestPlainSignatureSeesEachSwitch turns each switch that PlainTuning sets
// back to its zero value, one at a time, and checks that the plain bench's
// count changes: each of those features shows in the bench positions, so
// the signature would catch a profile that missed one (as it would a new
// feature left on).
func TestPlainSignatureSeesEachSwitch(t *testing.T) {
	depth := PlainBenchDepth
	if testing.Short() {
		depth -= 2
	}
	count := func(tu Tuning) uint64 {
		s := New(Options{HashMB: 8, Threads: 1, Tuning: tu}, nil)
		var n uint64
		for _, fen := range BenchFENs {
			pos, err := engine.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			s.Clear()
			n += s.Search(context.Background(), pos, nil, Limits{Depth: depth}, nil).Nodes
		}
		return n
	}
	plain := PlainTuning()
	base := count(plain)
	v := reflect.ValueOf(plain)
	switches := 0
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			continue
		}
		switches++
		on := plain
		reflect.ValueOf(&on).Elem().Field(i).SetZero()
		if n := count(on); n == base {
			t.Errorf("with %s back at its zero value the plain bench at depth %d still searched %d nodes: "+
				"the signature cannot see that feature", v.Type().Field(i).Name, depth, n)
		}
	}
	if switches == 0 {
		t.Error("PlainTuning switches nothing off")
	}
}

// TestProfileNames: a Profile set from a flag takes only the names in
// Profiles, and the empty profile searches as Play.
func TestProfileNames(t *testing.T) {
	var p Profile
	if err := p.Set("fast"); err == nil || !strings.Contains(err.Error(), `"fast"`) || p != "" {
		t.Errorf(`Set("fast"): %v, profile %q`, err, p)
	}
	for _, q := range Profiles {
		if err := p.Set(string(q)); err != nil || p != q {
			t.Errorf("Set(%q): %v, profile %q", q, err, p)
		}
	}
	if Profile("").Tuning() != Play.Tuning() || Plain.Tuning() != PlainTuning() {
		t.Error("the empty profile does not search as play, or plain not with PlainTuning")
	}
}
