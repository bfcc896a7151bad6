package engine

import (
	"sync"
	"sync/atomic"
)

// MaxPerftDepth is the deepest perft a Perfter can count.
const MaxPerftDepth = 64

// Perfter counts move trees. It holds no state: counting keeps everything on
// the goroutine's stack and does not allocate, so one Perfter may be used
// from any number of goroutines.
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
// order, spreading the work over threads goroutines. With more than one
// thread the tree is split below the root (see splitTasks) so that the
// goroutines share many small subtrees instead of the few root moves.
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
	threads = max(threads, 1)
	tasks := make([]perftTask, len(out))
	for i := range out {
		tasks[i] = perftTask{pos: p.Play(out[i].Move), root: i, depth: depth - 1}
	}
	if threads > 1 {
		tasks = splitTasks(tasks, tasksPerThread*threads)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var pf Perfter
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) {
					return
				}
				tasks[i].nodes = pf.Perft(&tasks[i].pos, tasks[i].depth)
			}
		}()
	}
	wg.Wait()
	for _, t := range tasks {
		out[t.root].Nodes += t.nodes
	}
	return out
}

// tasksPerThread is how many subtrees per goroutine splitTasks aims for: with
// hundreds of subtrees per goroutine the last one to finish is a small part
// of the whole, however unequal the subtrees are.
const tasksPerThread = 256

// minTaskDepth is the shallowest subtree splitTasks makes; below it the
// subtrees are too small for the split to pay.
const minTaskDepth = 5

// perftTask is one subtree of a divided perft: pos, below root move root,
// counted to depth plies.
type perftTask struct {
	pos   Position
	root  int
	depth int
	nodes uint64
}

// splitTasks replaces every task by the tasks of its children, ply by ply,
// until there are at least want tasks or the next split would make them
// shallower than minTaskDepth. A task whose position has no move has no
// leaves below it and is dropped.
func splitTasks(tasks []perftTask, want int) []perftTask {
	var l MoveList
	for len(tasks) > 0 && len(tasks) < want && tasks[0].depth > minTaskDepth {
		next := make([]perftTask, 0, 8*len(tasks))
		for _, t := range tasks {
			t.pos.Generate(&l)
			for _, m := range l.Slice() {
				next = append(next, perftTask{pos: t.pos.Play(m), root: t.root, depth: t.depth - 1})
			}
		}
		tasks = next
	}
	return tasks
}

// PerftParallel is Perft with the work spread over threads goroutines.
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
