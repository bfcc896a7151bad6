package protocol

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/player"
)

// BenchmarkStopToBestmove measures, with the real searcher, the time from
// sending stop during a go infinite (once the search has reached depth 8)
// to reading bestmove, through the same in-memory pipes as the tests. It
// reports the median as ms-median (the target is under 10 ms).
func BenchmarkStopToBestmove(b *testing.B) {
	s := newSession(b, Config{Searcher: player.New(player.Options{HashMB: 16}, nil, "")})
	s.send("uci")
	s.until("uciok")
	s.send("position startpos moves 11-15 23-19 8-11 22-17", "isready")
	s.expect("readyok")
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.send("ucinewgame", "go infinite")
		s.until("info depth 8 ")
		began := time.Now()
		s.send("stop")
		lines := s.until("bestmove ")
		lat = append(lat, time.Since(began))
		if !strings.HasPrefix(lines[len(lines)-1], "bestmove ") {
			b.Fatal(lines)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "ms-p90")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "ms-max")
	b.Logf("slowest: %v", lat[max(0, len(lat)-5):])
	s.send("quit")
	s.exited()
}
