package match

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/protocol/client"
)

// Opening is a start position for a pair of games.
type Opening struct {
	// Name names the opening in the PDN (a ballot's name, or the file and
	// line it came from).
	Name string
	// Position is where the games start.
	Position engine.Position
}

// Limits is the time control of a match: a clock (Base plus Inc per move),
// a fixed time per move, a fixed depth, or a fixed number of nodes per
// move. Exactly one is set.
type Limits struct {
	Base, Inc time.Duration
	MoveTime  time.Duration
	Depth     int
	// Nodes is a node budget per move: a time-free control for screening,
	// whose games do not depend on the machine's load.
	Nodes int64
	// Margin is how far past its clock an engine may go before it loses on
	// time.
	Margin time.Duration
}

// Adjudication ends games early.
type Adjudication struct {
	// ScoreMoves > 0 turns on score adjudication: when both engines'
	// scores have agreed that one side is at least Score centipawns ahead
	// for ScoreMoves moves each, that side wins.
	Score, ScoreMoves int
	// Claims ends a game when both engines claim the same result in
	// consecutive moves (one "win", the other "loss"; or both "draw").
	Claims bool
}

// Config describes a match.
type Config struct {
	// Engines are the players, two or more.
	Engines []client.Config
	// Gauntlet pairs the first engine against each other one; otherwise
	// every engine meets every other.
	Gauntlet bool
	// Openings are played in order, or shuffled with Seed when Random.
	Openings []Opening
	Random   bool
	Seed     uint64
	// Rounds is the number of passes over the openings (at least 1).
	// Games, if positive, caps the total number of games.
	Rounds, Games int
	Limits        Limits
	// MaxMoves is the number of moves a side may make before the game is
	// adjudicated a draw.
	MaxMoves     int
	Adjudication Adjudication
	// Concurrency is the number of games played at once.
	Concurrency int
	// Timeout bounds every wait on an engine beyond its own thinking time:
	// a hung engine is killed after it. An engine's own Timeout, when set,
	// takes its place for that engine.
	Timeout time.Duration
	// PDN is the file every finished game is appended to ("": the games
	// are not recorded); Resume continues a match already in it, and
	// refuses when the games there were played with other settings (see
	// the Match* tags of each game).
	PDN    string
	Resume bool
	// FaultLimit stops the match when one engine has caused this many
	// faulty games in a row (crashed, hung, could not start; 0: never).
	// An engine that cannot start before it has played a game stops the
	// match at once, whatever the limit.
	FaultLimit int
	// Event is the PDN Event tag.
	Event string
	// SPRT, if set, stops the match when the test decides (two engines).
	SPRT *elo.SPRT
	// Hooks let tests and tools watch the games.
	Hooks Hooks
	// Observer, when not nil, is told of the games and the standings as
	// the match goes (a live display such as nechecb match --gui).
	Observer Observer
	// Remote, when set, plays the games on a fleet of workers instead of
	// Concurrency local games (the engines must be nechecb), RemoteBatch
	// games a work unit (0: 2, a colour-reversed pair). The games are
	// recorded in schedule order.
	Remote      Runner
	RemoteBatch int
}

// Hooks are called from the goroutine playing a game.
type Hooks struct {
	// AfterMove is called after each move with the game so far and the
	// process id of the engine to move next.
	AfterMove func(game *Scheduled, g *engine.Game, nextPID int)
}

// Scheduled is one game of the schedule.
type Scheduled struct {
	// Index is the game's number, from 1, in schedule order.
	Index int
	// Pairing is the index of the pairing; Pair numbers the game pair (the
	// two games of an opening with colours reversed) from 1.
	Pairing, Pair int
	// Opening is the opening's index in Config.Openings.
	Opening int
	// Black and White are indexes into Config.Engines.
	Black, White int
}

// pairings returns the pairs of engine indexes that meet.
func (c *Config) pairings() [][2]int {
	var out [][2]int
	for i := range c.Engines {
		for j := i + 1; j < len(c.Engines); j++ {
			if c.Gauntlet && i != 0 {
				continue
			}
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// Schedule lists the match's games in order. It depends only on the
// configuration (the seed included), so a resumed match finds the same
// games.
func (c *Config) Schedule() []Scheduled {
	pairings := c.pairings()
	if len(pairings) == 0 || len(c.Openings) == 0 {
		return nil
	}
	rounds := max(c.Rounds, 1)
	perRound := len(c.Openings) * len(pairings) * 2
	if c.Games > 0 {
		rounds = (c.Games + perRound - 1) / perRound
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x6d61746368))
	var out []Scheduled
	pair := 0
	for r := 0; r < rounds; r++ {
		order := make([]int, len(c.Openings))
		for i := range order {
			order[i] = i
		}
		if c.Random {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		for _, o := range order {
			for pi, p := range pairings {
				pair++
				for _, colours := range [2][2]int{{p[0], p[1]}, {p[1], p[0]}} {
					out = append(out, Scheduled{Index: len(out) + 1, Pairing: pi, Pair: pair, Opening: o, Black: colours[0], White: colours[1]})
				}
			}
		}
	}
	if c.Games > 0 && len(out) > c.Games {
		out = out[:c.Games]
	}
	return out
}

// Validate checks the configuration and fills in defaults.
func (c *Config) Validate() error {
	if len(c.Engines) < 2 {
		return fmt.Errorf("a match needs at least two engines, got %d", len(c.Engines))
	}
	names := map[string]bool{}
	for _, e := range c.Engines {
		if e.Name == "" {
			return fmt.Errorf("an engine has no name")
		}
		if tagValue(e.Name) != e.Name {
			return fmt.Errorf("engine name %q: the name goes into PDN tags, so it may not hold quotes, brackets, backslashes, control characters or runs of blanks, nor begin or end with a blank", e.Name)
		}
		if names[e.Name] {
			return fmt.Errorf("two engines are named %q", e.Name)
		}
		names[e.Name] = true
		if len(e.Command) == 0 {
			return fmt.Errorf("engine %s has no command", e.Name)
		}
	}
	if len(c.Openings) == 0 {
		return fmt.Errorf("no openings")
	}
	set := 0
	for _, on := range []bool{c.Limits.Base > 0, c.Limits.MoveTime > 0, c.Limits.Depth > 0, c.Limits.Nodes > 0} {
		if on {
			set++
		}
	}
	if set != 1 {
		return fmt.Errorf("give exactly one of a time control, a move time, a depth or a node count")
	}
	if c.MaxMoves <= 0 {
		c.MaxMoves = 200
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 1
	}
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Event == "" {
		c.Event = "nechecb match"
	}
	if c.SPRT != nil {
		if len(c.pairings()) != 1 {
			return fmt.Errorf("an SPRT needs exactly one pairing (two engines, or a gauntlet of two)")
		}
		if err := c.SPRT.Validate(); err != nil {
			return err
		}
	}
	if c.PDN == "" && c.Resume {
		return fmt.Errorf("resuming needs the PDN file the match was recorded in")
	}
	if c.FaultLimit < 0 {
		return fmt.Errorf("fault limit %d: want 0 (never stop) or more", c.FaultLimit)
	}
	return nil
}
