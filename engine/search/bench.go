package search

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/nechecb/nechecb/engine"
)

// BenchDepth is the depth nechecb bench searches to by default.
const BenchDepth = 13

// BenchSignature is the node count of Bench at BenchDepth with the material
// evaluator: a fingerprint of the search tree. A change meant to leave the
// search alone must leave it unchanged; a search change that alters the
// tree updates it on purpose, in the same commit, saying so.
const BenchSignature = 5174008

// PlainBenchDepth is the depth of the Plain profile's signature: its
// full-width tree grows much faster with depth than Play's.
const PlainBenchDepth = 11

// PlainSignature is the node count of Bench at PlainBenchDepth with the
// material evaluator and the Plain profile: the fingerprint of the
// learners' alpha-beta. Unlike BenchSignature it is not updated when a
// selective feature is added: a new feature is switched off in
// PlainTuning instead, which leaves this count alone. Only a change to
// the plain search itself (move ordering, the table, the rules' capture
// extension) updates it, saying so.
const PlainSignature = 1508487

// BenchFENs are the positions of the bench run: the start, 3-move ballot
// openings, middlegames and endgames. The middlegames and endgames were
// reached by the engine's self-play from standard 3-move ballots (16, 36 and
// 56 plies in), the last few were set up by hand. Changing this list
// changes every bench signature.
var BenchFENs = []string{
	engine.StartFEN,
	// Ballot openings.
	"W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13",
	"W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,12,14,15",
	"W:W20,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,12,14,16",
	"W:W18,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,15,16",
	"W:W17,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,19",
	"W:W20,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,12,13,14",
	"W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,12,14,16",
	"W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,19",
	"W:W19,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,8,9,10,11,12,16",
	"W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12,14",
	// Middlegames.
	"B:W18,21,22,23,25,27,29,32:B1,3,4,5,7,8,12,13,20",
	"B:W18,19,21,23,25,26,27,28,32:B1,2,5,6,7,8,10,13,20",
	"B:W14,15,26,27,28,29,30,31:B1,2,4,5,7,8,12,18",
	"B:W14,22,23,25,27,28,29,32:B1,2,3,5,7,11,12,15",
	"B:W17,18,21,22,23,27,28,31,32:B2,3,4,5,8,9,11,13,16",
	"B:W19,20,21,22,23,26,28,29,32:B3,4,6,7,8,11,12,13,14",
	"B:W15,18,19,20,23,26,28:B3,7,8,9,11,12,K30",
	"B:WK7,20,21,22,24,25,28:B4,5,8,12,13,14,23",
	"B:W9,10,15,20,21,22,28,30:B4,5,8,11,13,16,K32",
	"B:WK2,19,20,24,26,27,29:B4,8,12,13,14,18,21",
	"B:W12,16,17,20,21,28:B3,6,7,8,10,11,K26",
	// Endgames.
	"B:W9,12,16,19,20:B3,7,8,13,K21,22",
	"B:WK6,7,21,22,24,25:B8,9,13,14,K23",
	"B:WK1,10,28:B8,15,20,23,K31",
	"B:WK2,10,11,23,24,27:B9,13,16,17,20,K30",
	"B:WK3,K8,11,21,29:B13,14,16,22,K30",
	"B:WK7,21,28,30:B4,11,K22,K27",
	"B:WK2,6,19,20,24,29:B4,12,13,17,K22,K26",
	"B:W16,17,21,22,28:B1,4,8,13,27",
	"B:W10,19,22,26,32:B4,5,13,14,24",
	"W:WK14,K15:BK28",
	"W:W21,22,30:B9,10,K32",
	"B:WK10,K19:BK1,K5",
}

// Bench searches every bench position to depth with profile p's switches,
// threads threads (below 1: one) and a fresh table, writes one line per
// position and then "nodes <N> time <ms> nps <nps>" to w, and returns the
// node total and the search time. depth <= 0 means the depth of p's
// signature (BenchDepth, or PlainBenchDepth for Plain); ev nil means
// material. Only one thread gives the signature: with more, the helpers'
// share of the nodes depends on timing, and the time to the depth measures
// what they are worth.
func Bench(w io.Writer, depth, threads int, ev EvaluatorFactory, p Profile) (nodes uint64, elapsed time.Duration) {
	if depth <= 0 {
		depth = p.BenchDepth()
	}
	s := New(Options{HashMB: 8, Threads: max(threads, 1), Tuning: p.Tuning()}, ev)
	for i, fen := range BenchFENs {
		pos, err := engine.ParseFEN(fen)
		if err != nil {
			panic("search: bad bench position " + fen + ": " + err.Error())
		}
		s.Clear()
		start := time.Now()
		r := s.Search(context.Background(), pos, nil, Limits{Depth: depth}, nil)
		took := time.Since(start)
		elapsed += took
		nodes += r.Nodes
		best := "none"
		if r.HasMove {
			best = r.Best.String()
		}
		fmt.Fprintf(w, "%2d %-10s %8s %10d  %s\n", i+1, best, r.Score, r.Nodes, fen)
	}
	fmt.Fprintf(w, "nodes %d time %d nps %d\n", nodes, elapsed.Milliseconds(), engine.PerSecond(nodes, elapsed))
	return nodes, elapsed
}
