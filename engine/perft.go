package engine

import (
	"sync"
	"sync/atomic"
)

// MaxPerftDepth is the deepest perft a Perfter can count.
const MaxPerftDepth = 64

// Perfter counts move trees. It owns one move list per ply, so counting does
// not allocate; use one Perfter per goroutine.
type Perfter struct {
	stack     [MaxPerftDepth]MoveList
	positions [MaxPerftDepth]Position
}

var perfters = sync.Pool{New: func() any { return new(Perfter) }}

// Perft counts the leaf nodes of the legal move tree of p to depth plies,
// counting the last ply without building moves.
func Perft(p *Position, depth int) uint64 {
	pf := perfters.Get().(*Perfter)
	n := pf.Perft(p, depth)
	perfters.Put(pf)
	return n
}

// Perft counts the leaf nodes of the legal move tree of p to depth plies
// (at most MaxPerftDepth), counting the last ply without building moves.
func (pf *Perfter) Perft(p *Position, depth int) uint64 {
	switch {
	case depth <= 0:
		return 1
	case depth == 1:
		return p.CountMoves()
	}
	return pf.perft(p, min(depth, MaxPerftDepth), 0)
}

// perft handles depth >= 2, using stack[ply] for the moves of p. The last two
// plies are fused: the children of a depth-2 node are counted in place.
func (pf *Perfter) perft(p *Position, depth, ply int) uint64 {
	l := &pf.stack[ply]
	p.Generate(l)
	var n uint64
	if depth == 2 {
		for i := 0; i < l.N; i++ {
			child := *p
			child.applyBoard(&l.Moves[i])
			n += child.CountMoves()
		}
		return n
	}
	child := &pf.positions[ply+1]
	for i := 0; i < l.N; i++ {
		*child = *p
		child.applyBoard(&l.Moves[i])
		n += pf.perft(child, depth-1, ply+1)
	}
	return n
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
