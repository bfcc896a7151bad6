package books

import (
	"fmt"

	"github.com/nechecb/nechecb/engine"
)

// GameRecord is what the book builder needs from one game: where it started,
// the moves played and how it ended.
type GameRecord struct {
	Start   engine.Position
	Moves   []engine.Move
	Outcome engine.Outcome
}

// GameOptions control BuildFromGames.
type GameOptions struct {
	// MaxPly is how many plies of each game go into the book.
	MaxPly int
	// MinCount is how many games must have played a move in a position for
	// it to enter the book.
	MinCount int
	// WinWeight, DrawWeight and LossWeight are what one game adds to the
	// weight of the move played, by its result for the side that played it.
	WinWeight, DrawWeight, LossWeight uint32
}

// DefaultGameOptions are the options of `nechecb book build --pdn`.
var DefaultGameOptions = GameOptions{MaxPly: 16, MinCount: 2, WinWeight: 2, DrawWeight: 1, LossWeight: 0}

type moveTally struct {
	games, wins, losses int
	weight              uint64
}

type positionTally struct {
	pos   engine.Position
	games int
	moves map[engine.Move]*moveTally
	order []engine.Move
}

// BuildFromGames builds a book from finished games. A move enters the book
// when at least MinCount games played it; its weight sums the result weights
// of those games, and its score is 100*(wins-losses)/games for the side
// that played it. Unfinished games are skipped. A game whose moves are not
// legal is an error naming it.
func BuildFromGames(games []GameRecord, opt GameOptions) (*Book, error) {
	tallies := map[uint64][]*positionTally{}
	var order []*positionTally
	for gi, g := range games {
		if g.Outcome == engine.Ongoing {
			continue
		}
		p := g.Start
		p.Hash = p.ComputeHash()
		for ply, m := range g.Moves {
			if ply >= opt.MaxPly {
				break
			}
			if !containsMove(p.LegalMoves(), m) {
				return nil, fmt.Errorf("game %d, ply %d: move %s is not legal in %s", gi+1, ply+1, m, p.FEN())
			}
			t := findTally(tallies, &p)
			if t == nil {
				t = &positionTally{pos: p, moves: map[engine.Move]*moveTally{}}
				tallies[p.Hash] = append(tallies[p.Hash], t)
				order = append(order, t)
			}
			t.games++
			mt := t.moves[m]
			if mt == nil {
				mt = &moveTally{}
				t.moves[m] = mt
				t.order = append(t.order, m)
			}
			mt.games++
			switch {
			case g.Outcome == engine.Draw:
				mt.weight += uint64(opt.DrawWeight)
			case g.Outcome == engine.WinFor(p.Side):
				mt.wins++
				mt.weight += uint64(opt.WinWeight)
			default:
				mt.losses++
				mt.weight += uint64(opt.LossWeight)
			}
			p = p.Play(m)
		}
	}
	b := New()
	for _, t := range order {
		e := Entry{Position: t.pos, Count: uint32(min(int64(t.games), 1<<32-1))}
		for _, m := range t.order {
			mt := t.moves[m]
			if mt.games < opt.MinCount {
				continue
			}
			score := 100 * (mt.wins - mt.losses) / mt.games
			e.Moves = append(e.Moves, MoveEntry{Move: m, Weight: uint32(min(mt.weight, 1<<32-1)), Score: int16(score)})
		}
		if len(e.Moves) == 0 {
			continue
		}
		if err := b.Set(e); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func findTally(m map[uint64][]*positionTally, p *engine.Position) *positionTally {
	for _, t := range m[p.Hash] {
		if t.pos.SameBoard(p) {
			return t
		}
	}
	return nil
}

// BallotPositions lists, without repeats and in ballot order, every position
// on the way through the ballots: the start, and the position after each of
// every ballot's moves, the ballot's own position included. These are the
// positions a searched book covers.
func BallotPositions(ballots []Ballot) ([]engine.Position, error) {
	seen := map[uint64][]engine.Position{}
	var out []engine.Position
	add := func(p engine.Position) {
		for _, q := range seen[p.Hash] {
			if q.SameBoard(&p) {
				return
			}
		}
		seen[p.Hash] = append(seen[p.Hash], p)
		out = append(out, p)
	}
	for _, b := range ballots {
		g, err := b.Play()
		if err != nil {
			return nil, err
		}
		for _, p := range g.Positions() {
			p.Reversible = 0
			add(p)
		}
	}
	return out, nil
}

// MoveScorer scores every legal move of a position for the side to move, in
// centipawns, by searching. The book builder calls it once per position.
type MoveScorer func(p engine.Position) ([]MoveEntry, error)

// SearchOptions control BuildFromSearch.
type SearchOptions struct {
	// Progress, if set, is called after each position with the number done
	// (resumed ones included) and the total.
	Progress func(done, total int, p engine.Position)
	// Checkpoint, if set, is called with the book every CheckpointEvery
	// positions and at the end, so that an interrupted build can resume.
	Checkpoint      func(*Book) error
	CheckpointEvery int
}

// BuildFromSearch adds to book an entry for every position not already in
// it, with the moves score gives. Passing the partial book of an interrupted
// build resumes it. Every scored move gets weight 1, so ModeAll picks any of
// them, ModeGood the ones near the best score, and ModeBest the best.
func BuildFromSearch(book *Book, positions []engine.Position, score MoveScorer, opt SearchOptions) error {
	sinceCheckpoint := 0
	for i, p := range positions {
		if book.Probe(&p) == nil {
			moves, err := score(p)
			if err != nil {
				return fmt.Errorf("scoring %s: %w", p.FEN(), err)
			}
			if len(moves) > 0 {
				for j := range moves {
					moves[j].Weight = 1
				}
				if err := book.Set(Entry{Position: p, Count: 1, Moves: moves}); err != nil {
					return err
				}
				sinceCheckpoint++
			}
		}
		if opt.Progress != nil {
			opt.Progress(i+1, len(positions), p)
		}
		if opt.Checkpoint != nil && opt.CheckpointEvery > 0 && sinceCheckpoint >= opt.CheckpointEvery {
			if err := opt.Checkpoint(book); err != nil {
				return err
			}
			sinceCheckpoint = 0
		}
	}
	if opt.Checkpoint != nil {
		return opt.Checkpoint(book)
	}
	return nil
}
