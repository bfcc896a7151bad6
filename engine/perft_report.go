package engine

import (
	"fmt"
	"io"
	"time"
)

// WritePerftFEN counts the move tree of the position fen as WritePerft
// does, after checking the perft command's flags: an error names a depth
// outside 0..MaxPerftDepth, a thread count outside 1..1024, or a FEN that
// does not read.
func WritePerftFEN(w io.Writer, fen string, depth, threads int, divide bool) error {
	if depth < 0 || depth > MaxPerftDepth {
		return fmt.Errorf("--depth %d is outside 0..%d", depth, MaxPerftDepth)
	}
	if threads < 1 || threads > 1024 {
		return fmt.Errorf("--threads %d is outside 1..1024", threads)
	}
	p, err := ParseFEN(fen)
	if err != nil {
		return err
	}
	WritePerft(w, &p, depth, threads, divide)
	return nil
}

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
