package egdb

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// refSolver finds the value of positions with up to refPieces pieces by
// exploring the game forward from them to the end, with nothing of the
// builder: its own index, the engine's moves, and a fixed point over the
// explored graph (a cycle that neither side can leave to its advantage is a
// draw).
type refSolver struct {
	// mark holds, per dense index: 0 unseen, -v for a solved value v, or
	// 1+node for a node of the graph being explored.
	mark []int32
	off  [refPieces + 2]int
	c    [33][refPieces + 1]int // binomial coefficients
}

const refPieces = 4

func newRefSolver() *refSolver {
	s := &refSolver{}
	for n := range s.c {
		s.c[n][0] = 1
		for k := 1; k <= refPieces && n > 0; k++ {
			s.c[n][k] = s.c[n-1][k-1] + s.c[n-1][k]
		}
	}
	for k := 1; k <= refPieces; k++ {
		s.off[k+1] = s.off[k] + s.c[32][k]*(1<<(2*k))*2
	}
	s.mark = make([]int32, s.off[refPieces+1])
	return s
}

// dense numbers a position of 1..refPieces pieces: which squares are
// occupied, what stands on each (in square order) and the side to move.
func (s *refSolver) dense(p *engine.Position) int {
	var occ, kinds, k int
	for b := p.Occupied(); b != 0; b &= b - 1 {
		bit := b & -b
		sq := engine.BitSquare(bits.TrailingZeros64(b))
		k++
		occ += s.c[sq-1][k]
		kind := 0
		if p.Pieces[engine.White]&bit != 0 {
			kind = 1
		}
		if p.Kings&bit != 0 {
			kind += 2
		}
		kinds = kinds*4 + kind
	}
	return s.off[k] + ((occ<<(2*k))+kinds)*2 + int(p.Side)
}

// value returns the value of p for its side to move.
func (s *refSolver) value(p *engine.Position) Value {
	if p.Pieces[p.Side] == 0 {
		return Loss
	}
	if p.Pieces[p.Side^1] == 0 {
		return Win
	}
	if m := s.mark[s.dense(p)]; m < 0 {
		return Value(-m)
	}
	s.solve(*p)
	return Value(-s.mark[s.dense(p)])
}

// solve explores every position reachable from root that is not solved yet
// and solves them all by retrograde analysis over the explored graph.
func (s *refSolver) solve(root engine.Position) {
	var (
		idx       []int // dense index of each node
		positions []engine.Position
		first     []int32 // node n's successors inside the graph are edges[first[n]:first[n+1]]
		edges     []int32
		win, draw []bool // a successor outside the graph is lost / drawn for the opponent
	)
	add := func(p engine.Position) int32 {
		i := s.dense(&p)
		idx = append(idx, i)
		positions = append(positions, p)
		s.mark[i] = int32(len(idx))
		return int32(len(idx) - 1)
	}
	add(root)
	var l engine.MoveList
	for n := 0; n < len(idx); n++ {
		first = append(first, int32(len(edges)))
		win, draw = append(win, false), append(draw, false)
		p := positions[n]
		p.Generate(&l)
		for _, m := range l.Slice() {
			q := p.Play(m)
			if q.Pieces[q.Side] == 0 {
				win[n] = true
				continue
			}
			switch mk := s.mark[s.dense(&q)]; {
			case mk == -int32(Loss):
				win[n] = true
			case mk == -int32(Draw):
				draw[n] = true
			case mk > 0:
				edges = append(edges, mk-1)
			case mk == 0:
				edges = append(edges, add(q))
			}
		}
	}
	first = append(first, int32(len(edges)))
	nn := len(idx)
	// The reversed edges, and what each node has left.
	pfirst := make([]int32, nn+1)
	for _, e := range edges {
		pfirst[e+1]++
	}
	for i := 0; i < nn; i++ {
		pfirst[i+1] += pfirst[i]
	}
	preds := make([]int32, len(edges))
	fill := append([]int32(nil), pfirst[:nn]...)
	for n := 0; n < nn; n++ {
		for _, e := range edges[first[n]:first[n+1]] {
			preds[fill[e]] = int32(n)
			fill[e]++
		}
	}
	value := make([]Value, nn)
	left := make([]int32, nn)
	var queue []int32
	for n := 0; n < nn; n++ {
		left[n] = first[n+1] - first[n]
		switch {
		case win[n]:
			value[n] = Win
		case left[n] == 0 && draw[n]:
			value[n] = Draw
		case left[n] == 0:
			value[n] = Loss
		}
		if value[n] == Win || value[n] == Loss {
			queue = append(queue, int32(n))
		}
	}
	for h := 0; h < len(queue); h++ {
		i := queue[h]
		for _, pi := range preds[pfirst[i]:pfirst[i+1]] {
			if value[pi] != Unknown {
				continue
			}
			if value[i] == Loss {
				value[pi] = Win
				queue = append(queue, pi)
				continue
			}
			if left[pi]--; left[pi] == 0 {
				if draw[pi] {
					value[pi] = Draw
				} else {
					value[pi] = Loss
					queue = append(queue, pi)
				}
			}
		}
	}
	for n := 0; n < nn; n++ {
		if value[n] == Unknown {
			value[n] = Draw
		}
		s.mark[idx[n]] = -int32(value[n])
	}
}

func TestAgreesWithExhaustiveSearch(t *testing.T) {
	db := testDB(t)
	s := newRefSolver()
	rng := rand.New(rand.NewPCG(11, 12))
	slices := Slices(refPieces)
	var seen [4]int
	n := 2000
	if testing.Short() {
		n = 400
	}
	for i := 0; i < n; i++ {
		m := slices[rng.IntN(len(slices))]
		q := randomPosition(rng, m, engine.Color(rng.IntN(2)))
		p := q.position()
		p.Hash = p.ComputeHash()
		want := s.value(&p)
		seen[want]++
		if got := db.Probe(&p); got != want {
			t.Errorf("%s: database says %v, search to the end %v", p.FEN(), got, want)
		}
	}
	// The sample holds every kind of value, plenty of each.
	for v := Loss; v <= Win; v++ {
		if seen[v] < n/20 {
			t.Errorf("only %d of the positions are %v: %v", seen[v], v, seen)
		}
	}
}
