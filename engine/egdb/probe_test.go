package egdb

import (
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/cputime"
)

// probePositions returns n random positions of the stored slices of up to
// pieces pieces; with quiet set, only positions without a capture.
func probePositions(n, pieces int, quiet bool) []engine.Position {
	rng := rand.New(rand.NewPCG(21, 22))
	slices := Slices(pieces)
	var out []engine.Position
	for len(out) < n {
		q := randomPosition(rng, slices[rng.IntN(len(slices))], engine.Color(rng.IntN(2)))
		p := q.position()
		if quiet && p.HasCapture() {
			continue
		}
		out = append(out, p)
	}
	return out
}

func TestProbeDoesNotAllocate(t *testing.T) {
	db := testDB(t)
	for _, quiet := range []bool{true, false} {
		ps := probePositions(1000, 4, quiet)
		for i := range ps {
			db.Probe(&ps[i]) // fill the cache
		}
		allocs := testing.AllocsPerRun(10, func() {
			for i := range ps {
				db.Probe(&ps[i])
			}
		})
		if allocs != 0 {
			t.Errorf("quiet %v: %.1f allocations per 1000 probes", quiet, allocs)
		}
	}
}

func TestProbeFromManyGoroutines(t *testing.T) {
	db := testDB(t)
	ps := probePositions(4000, 4, false)
	want := make([]Value, len(ps))
	for i := range ps {
		want[i] = db.Probe(&ps[i])
	}
	// A small cache, so that the goroutines evict one another's blocks.
	small, err := Open(testDBDir, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range len(ps) {
				i := (k*7 + g*501) % len(ps)
				if got := small.Probe(&ps[i]); got != want[i] {
					t.Errorf("%s: %v from goroutine %d, %v alone", ps[i].FEN(), got, g, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestProbeSpecialPositions(t *testing.T) {
	db := testDB(t)
	for _, tc := range []struct {
		fen  string
		want Value
	}{
		{"B:W18:B", Loss},              // nothing left to move
		{"W:W18:B", Win},               // the opponent has nothing
		{"B:W13-24:BK32", Unknown},     // too many pieces
		{"B:WK5:BK1", Draw},            // one king each, far apart
		{"W:WK30:BK26", Win},           // White captures the last piece
		{"B:W25,26,27,28:B1", Unknown}, // 5 pieces in a 4-piece test database (or a loss in 5)
	} {
		p, err := engine.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		want := tc.want
		if tc.fen == "B:W25,26,27,28:B1" && db.Pieces() >= 5 {
			want = Loss
		}
		if got := db.Probe(&p); got != want {
			t.Errorf("%s: %v, want %v", tc.fen, got, want)
		}
	}
}

func benchmarkProbe(b *testing.B, quiet bool) {
	benchmarkProbeDB(b, testDB(b), quiet)
}

// benchmarkProbeDB probes 4096 random positions of db's slices (with quiet
// set, only positions without a capture) over and over, their blocks
// cached by a first pass.
func benchmarkProbeDB(b *testing.B, db *DB, quiet bool) {
	ps := probePositions(4096, db.Pieces(), quiet)
	for i := range ps {
		db.Probe(&ps[i])
	}
	b.ReportAllocs()
	cpu, _ := cputime.Self()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		db.Probe(&ps[i&4095])
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mprobes/s")
	// On a machine shared with other work the wall clock runs on while the
	// benchmark waits for a processor: the CPU time it used tells its own
	// speed.
	if now, ok := cputime.Self(); ok && now > cpu {
		b.ReportMetric(float64(b.N)/(now-cpu).Seconds()/1e6, "Mprobes/cpu-s")
	}
}

// BenchmarkProbeQuiet probes positions without captures, whose blocks are
// in the cache: one table read each.
func BenchmarkProbeQuiet(b *testing.B) { benchmarkProbe(b, true) }

// BenchmarkProbe probes random positions, a share of which must capture
// and are resolved by probing their captures.
func BenchmarkProbe(b *testing.B) { benchmarkProbe(b, false) }

// BenchmarkProbeQuietParallel is BenchmarkProbeQuiet from every processor
// at once.
func BenchmarkProbeQuietParallel(b *testing.B) {
	db := testDB(b)
	ps := probePositions(4096, db.Pieces(), true)
	for i := range ps {
		db.Probe(&ps[i])
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			db.Probe(&ps[i&4095])
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mprobes/s")
}

// BenchmarkProbeDir runs BenchmarkProbeQuiet and BenchmarkProbe on a
// database built beforehand, in the directory that the environment variable
// NECHECB_EGDB_BENCH names (skipped when it is unset), with a cache of
// 256 MB: for example the 6-piece set, whose files are real-sized.
func BenchmarkProbeDir(b *testing.B) {
	dir := os.Getenv("NECHECB_EGDB_BENCH")
	if dir == "" {
		b.Skip("NECHECB_EGDB_BENCH names no database directory")
	}
	db, err := Open(dir, 256)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if p := db.Problems(); len(p) > 0 {
		b.Fatalf("opening %s: %v", dir, p)
	}
	b.Run("Quiet", func(b *testing.B) { benchmarkProbeDB(b, db, true) })
	b.Run("All", func(b *testing.B) { benchmarkProbeDB(b, db, false) })
}
