package engine

import (
	"fmt"
	"io"
	"time"
)

// WritePerft counts p's move tree to depth with threads goroutines and
// writes, when divide is set, a line with the count below each root move,
// then a line with the total, the time in milliseconds and the nodes per
// second.
func WritePerft(w io.Writer, p *Position, depth, threads int, divide bool) {
	start := time.Now()
	var nodes uint64
	if divide {
		for _, e := range Divide(p, depth, threads) {
			fmt.Fprintf(w, "%s %d\n", e.Move, e.Nodes)
			nodes += e.Nodes
		}
	} else {
		nodes = PerftParallel(p, depth, threads)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(w, "nodes %d time %d nps %d\n", nodes, elapsed.Milliseconds(), PerSecond(nodes, elapsed))
}

// PerSecond returns n per second over d, guarding against a zero duration.
func PerSecond(n uint64, d time.Duration) uint64 {
	if d <= 0 {
		d = time.Nanosecond
	}
	return uint64(float64(n) / d.Seconds())
}
