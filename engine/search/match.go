package search

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
)

// Player chooses moves in a game. It is the search's own tool for
// engine-versus-engine games (to measure whether a search change earns
// strength); the match runner proper lives elsewhere.
type Player interface {
	// NewGame is called before each game.
	NewGame()
	// Choose returns the move to play in pos after the game's earlier
	// positions history (oldest first), and the depth it searched (0 if it
	// does not search). pos has at least one legal move.
	Choose(pos engine.Position, history []engine.Position) (m engine.Move, depth int)
}

// EnginePlayer plays with a Searcher under fixed limits. If HalfOf is set,
// its depth is capped at half the depth HalfOf reached on its last move.
type EnginePlayer struct {
	Searcher *Searcher
	Limits   Limits
	HalfOf   *EnginePlayer
	last     int
}

// NewGame clears the searcher's table, killers and history.
func (p *EnginePlayer) NewGame() { p.Searcher.Clear(); p.last = 0 }

// Choose searches pos under the player's limits.
func (p *EnginePlayer) Choose(pos engine.Position, history []engine.Position) (engine.Move, int) {
	l := p.Limits
	if p.HalfOf != nil && p.HalfOf.last > 0 {
		l.Depth = max(1, p.HalfOf.last/2)
	}
	r := p.Searcher.Search(context.Background(), pos, history, l, nil)
	p.last = r.Depth
	return r.Best, r.Depth
}

// RandomPlayer plays a uniformly random legal move (a 1-ply random choice).
type RandomPlayer struct{ Rng *rand.Rand }

// NewGame does nothing: the random player has no memory.
func (RandomPlayer) NewGame() {}

// Choose picks one of pos's legal moves at random.
func (p RandomPlayer) Choose(pos engine.Position, _ []engine.Position) (engine.Move, int) {
	var l engine.MoveList
	pos.Generate(&l)
	return l.Moves[p.Rng.IntN(l.N)], 0
}

// GameRecord is one finished game.
type GameRecord struct {
	Opening string
	Result  engine.Result
	Plies   int
	// DepthSum and Moves sum the searched depths of each side's moves
	// (index engine.Black, engine.White) for average depths.
	DepthSum, Moves [2]int
}

// MaxGamePlies ends a game as a draw when neither side has won by then.
const MaxGamePlies = 300

// PlayGame plays black against white from start until the game ends by the
// rules (no move, threefold repetition, 40-move rule) or MaxGamePlies.
func PlayGame(black, white Player, start engine.Position) GameRecord {
	players := [2]Player{black, white}
	black.NewGame()
	white.NewGame()
	g := engine.NewGame(start)
	var rec GameRecord
	for g.Ply() < MaxGamePlies {
		if r := g.Result(); r.Outcome != engine.Ongoing {
			rec.Result = r
			break
		}
		pos := g.Current()
		positions := g.Positions()
		m, depth := players[pos.Side].Choose(pos, positions[:len(positions)-1])
		rec.DepthSum[pos.Side] += depth
		rec.Moves[pos.Side]++
		if err := g.Play(m); err != nil {
			panic(fmt.Sprintf("search: player chose an illegal move in %s: %v", pos.FEN(), err))
		}
	}
	if rec.Result.Outcome == engine.Ongoing {
		rec.Result = g.Result()
		if rec.Result.Outcome == engine.Ongoing {
			rec.Result = engine.Result{Outcome: engine.Draw, Reason: fmt.Sprintf("%d plies", MaxGamePlies)}
		}
	}
	rec.Plies = g.Ply()
	return rec
}

// MatchScore counts a match from player A's side.
type MatchScore struct {
	Wins, Losses, Draws int
	// DepthA and DepthB are the average depths the two players searched.
	DepthA, DepthB float64
}

// String writes the score as "+W -L =D" with the average depths.
func (m MatchScore) String() string {
	return fmt.Sprintf("+%d -%d =%d (avg depth %.1f vs %.1f)", m.Wins, m.Losses, m.Draws, m.DepthA, m.DepthB)
}

// PlayMatch plays a against b from the first n standard 3-move ballots
// (spread over the list), each opening twice with colours reversed, and calls
// each (may be nil) after every game with a as Black when aBlack.
func PlayMatch(a, b Player, n int, each func(rec GameRecord, aBlack bool)) (MatchScore, error) {
	ballots, err := books.Standard("3move")
	if err != nil {
		return MatchScore{}, err
	}
	n = min(n, len(ballots))
	var ms MatchScore
	var depthA, depthB, movesA, movesB int
	for i := 0; i < n; i++ {
		bal := ballots[i*len(ballots)/n]
		start, err := engine.ParseFEN(bal.FEN)
		if err != nil {
			return ms, fmt.Errorf("ballot %s: %w", bal.Name, err)
		}
		for _, aBlack := range []bool{true, false} {
			var rec GameRecord
			aSide := engine.Black
			if aBlack {
				rec = PlayGame(a, b, start)
			} else {
				rec = PlayGame(b, a, start)
				aSide = engine.White
			}
			rec.Opening = bal.Name
			depthA += rec.DepthSum[aSide]
			movesA += rec.Moves[aSide]
			depthB += rec.DepthSum[aSide^1]
			movesB += rec.Moves[aSide^1]
			switch rec.Result.Outcome {
			case engine.Draw:
				ms.Draws++
			case engine.WinFor(aSide):
				ms.Wins++
			default:
				ms.Losses++
			}
			if each != nil {
				each(rec, aBlack)
			}
		}
	}
	ms.DepthA = float64(depthA) / float64(max(movesA, 1))
	ms.DepthB = float64(depthB) / float64(max(movesB, 1))
	return ms, nil
}
