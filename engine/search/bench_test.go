package search

import (
	"io"
	"testing"
)

// BenchmarkBench runs the bench positions at depth 11 and reports nodes/s.
func BenchmarkBench(b *testing.B) {
	b.ReportAllocs()
	var nodes uint64
	for i := 0; i < b.N; i++ {
		n, _ := Bench(io.Discard, 11, nil)
		nodes += n
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
