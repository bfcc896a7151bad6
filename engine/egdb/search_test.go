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
}

const refPieces = 4

func newRefSolver() *refSolver {
	s := &refSolver{}
	for k := 1; k <= refPieces; k++ {
		s.off[k+1] = s.off[k] + choose(32, k)*(1<<(2*k))*2
	}
	s.mark = make([]int32, s.off[refPieces+1])
	return s
}

func choose(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 0; i < k; i++ {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// dense numbers a position of 1..refPieces pieces: which squares are
// occupied, what stands on each (in square order) and the side to move.
func (s *refSolver) dense(p *engine.Position) int {
	var occ, kinds, k int
	for sq := 1; sq <= 32; sq++ {
		pc := p.PieceAt(sq)
		if pc == engine.Empty {
			continue
		}
		k++
		occ += choose(sq-1, k)
		kinds = kinds*4 + int(pc-1)
	}
	return s.off[k] + ((occ<<(2*k))+kinds)*2 + int(p.Side)
}

// value returns the value of p for its side to move.
func (s *refSolver) value(p *engine.Position) Value {
	if bits.OnesCount64(p.Pieces[p.Side]) == 0 {
		return Loss
	}
	if bits.OnesCount64(p.Pieces[p.Side^1]) == 0 {
		return Win
	}
	if m := s.mark[s.dense(p)]; m < 0 {
		return Value(-m)
	}
	s.solve(*p)
	return Value(-s.mark[s.dense(p)])
}

// solve explores every position reachable from root that is not solved yet
// and solves them all.
func (s *refSolver) solve(root engine.Position) {
	type node struct {
		idx       int
		edges     []int32 // successors inside the graph
		win, draw bool    // a successor outside it is lost / drawn for the opponent
		left      int     // successors not yet known to be won for the opponent
		value     Value
		moves     int
	}
	var nodes []node
	var positions []engine.Position
	add := func(p engine.Position) int32 {
		i := s.dense(&p)
		nodes = append(nodes, node{idx: i})
		positions = append(positions, p)
		s.mark[i] = int32(len(nodes))
		return int32(len(nodes) - 1)
	}
	add(root)
	var l engine.MoveList
	for n := 0; n < len(nodes); n++ {
		p := positions[n]
		p.Generate(&l)
		nodes[n].moves = l.N
		for _, m := range l.Slice() {
			q := p.Play(m)
			var v Value
			switch {
			case q.Pieces[q.Side] == 0:
				v = Loss
			default:
				mk := s.mark[s.dense(&q)]
				switch {
				case mk < 0:
					v = Value(-mk)
				case mk > 0:
					nodes[n].edges = append(nodes[n].edges, mk-1)
					continue
				default:
					nodes[n].edges = append(nodes[n].edges, add(q))
					continue
				}
			}
			switch v {
			case Loss:
				nodes[n].win = true
			case Draw:
				nodes[n].draw = true
			}
		}
	}
	// Retrograde over the explored graph, through its reversed edges.
	preds := make([][]int32, len(nodes))
	var queue []int32
	for i := range nodes {
		nd := &nodes[i]
		for _, e := range nd.edges {
			preds[e] = append(preds[e], int32(i))
		}
		nd.left = len(nd.edges)
		switch {
		case nd.win:
			nd.value = Win
		case nd.left == 0 && nd.draw:
			nd.value = Draw
		case nd.left == 0:
			nd.value = Loss
		}
		if nd.value == Win || nd.value == Loss {
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, pi := range preds[i] {
			pn := &nodes[pi]
			if pn.value != Unknown {
				continue
			}
			if nodes[i].value == Loss {
				pn.value = Win
				queue = append(queue, pi)
				continue
			}
			if pn.left--; pn.left == 0 {
				if pn.draw {
					pn.value = Draw
				} else {
					pn.value = Loss
					queue = append(queue, pi)
				}
			}
		}
	}
	for i := range nodes {
		if nodes[i].value == Unknown {
			nodes[i].value = Draw
		}
		s.mark[nodes[i].idx] = -int32(nodes[i].value)
	}
}

func TestAgreesWithExhaustiveSearch(t *testing.T) {
	db := testDB(t)
	s := newRefSolver()
	rng := rand.New(rand.NewPCG(11, 12))
	slices := Slices(refPieces)
	for i := 0; i < 2000; i++ {
		m := slices[rng.IntN(len(slices))]
		q := randomPosition(rng, m, engine.Color(rng.IntN(2)))
		p := q.position()
		p.Hash = p.ComputeHash()
		want := s.value(&p)
		if got := db.Probe(&p); got != want {
			t.Errorf("%s: database says %v, search to the end %v", p.FEN(), got, want)
		}
	}
}
