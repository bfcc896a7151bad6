package search

import (
	"math/rand/v2"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// TestThreatSearch checks the threat search on horizon positions whose side
// to move has no capture while the opponent has one: with ThreatPlies 1,
// the quiescence search (search at depth 0) must return the best quiet
// move's value with the reply resolved by a plain quiescence search, and it
// must differ from the evaluation somewhere.
func TestThreatSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	w := New(Options{HashMB: 1, Tuning: Tuning{ThreatPlies: 1}}, nil).workers[0]
	plain := New(Options{HashMB: 1, Tuning: Tuning{NoThreat: true}}, nil).workers[0]
	w.newSearch()
	plain.newSearch()
	differ, found := 0, 0
	var l engine.MoveList
	for tries := 0; found < 300 && tries < 100000; tries++ {
		p := engine.StartPosition()
		for n := rng.IntN(60); n > 0; n-- {
			if p.Generate(&l); l.N == 0 {
				break
			}
			p = p.Play(l.Moves[rng.IntN(l.N)])
		}
		if p.HasCapture() || !canStep(&p) || !opponentCaptures(&p) {
			continue
		}
		found++
		w.stack[0].pos, w.stack[0].threats, w.stack[0].reps = p, 0, 0
		got := w.search(0, 0, -infinity, infinity, false)
		want := -infinity
		p.GenerateQuiet(&l)
		for _, m := range l.Slice() {
			plain.stack[1].pos, plain.stack[1].reps = p.Play(m), 0
			want = max(want, -plain.search(1, 0, -infinity, infinity, false))
		}
		if got != want {
			t.Fatalf("%s: threat search %d, best quiet move %d", p.FEN(), got, want)
		}
		plain.stack[0].pos, plain.stack[0].reps = p, 0
		if static := plain.search(0, 0, -infinity, infinity, false); got != static {
			differ++
		}
	}
	if found < 300 || differ == 0 {
		t.Errorf("%d threat positions, %d where the threat search changed the value", found, differ)
	}
}
