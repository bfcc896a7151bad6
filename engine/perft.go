package engine

import (
	"sync"
	"sync/atomic"
)

// MaxPerftDepth is the deepest perft a Perfter can count.
const MaxPerftDepth = 64

// Perfter counts move trees. Counting does not allocate and keeps its state
// on the goroutine's stack, so a Perfter may be shared; it is kept as the
// handle that callers counting many trees hold.
type Perfter struct{}

// Perft counts the leaf nodes of the legal move tree of p to depth plies,
// counting the last ply without building moves.
func Perft(p *Position, depth int) uint64 {
	var pf Perfter
	return pf.Perft(p, depth)
}

// Perft counts the leaf nodes of the legal move tree of p to depth plies
// (at most MaxPerftDepth), counting the last ply without building moves.
func (pf *Perfter) Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	depth = min(depth, MaxPerftDepth)
	if p.Side == Black {
		return perftBlack(p.Pieces[Black], p.Pieces[White], p.Kings, depth)
	}
	return perftWhite(p.Pieces[White], p.Pieces[Black], p.Kings, depth)
}

// DivideEntry is one root move and its perft count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns the perft count below each legal root move, in generation
// order, spreading the root moves over threads goroutines.
func Divide(p *Position, depth, threads int) []DivideEntry {
	var l MoveList
	p.Generate(&l)
	out := make([]DivideEntry, l.N)
	for i, m := range l.Slice() {
		out[i].Move = m
	}
	if depth < 1 {
		return out
	}
	if threads < 1 {
		threads = 1
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(out) {
					return
				}
				child := p.Play(out[i].Move)
				out[i].Nodes = Perft(&child, depth-1)
			}
		}()
	}
	wg.Wait()
	return out
}

// PerftParallel is Perft with the root moves spread over threads goroutines.
func PerftParallel(p *Position, depth, threads int) uint64 {
	if threads <= 1 || depth < 2 {
		return Perft(p, depth)
	}
	var n uint64
	for _, e := range Divide(p, depth, threads) {
		n += e.Nodes
	}
	return n
}
