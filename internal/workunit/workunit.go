// Package workunit owns nechecb's one notion of a work unit: a game or a
// small batch of games described entirely by plain data (both players as
// evaluator specs with their weights inline or by content hash, the start
// positions, the search limits and the seeds), and its result, plain data
// too (each game's outcome, length and PDN, and its positions when asked
// for). Evolution, data generation and matches hand units to whatever
// plays them, in process or on a fleet of workers (internal/fleet), and
// Validate checks a result against its unit by replaying every game with
// the rules before anyone uses it.
//
// A unit's result depends only on the unit: never on the worker that
// played it, nor on when.
package workunit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/nechecb/nechecb/engine"
)

// Version is the format of units and results; a worker refuses a unit of
// another version rather than play it wrongly.
const Version = 3

// Evaluator names one player's evaluator as plain data: the kind registered
// in package eval, the selector of its spec, and the contents of the file
// its loader reads (none for a kind that needs no file, such as
// "heuristic" with its built-in weights). The contents travel inline in
// Data, or only as their Hash when the coordinator has stored them where
// the workers fetch them (internal/fleet's weight store).
type Evaluator struct {
	Kind     string `json:"kind"`
	Selector string `json:"selector,omitempty"`
	Data     []byte `json:"data,omitempty"`
	Hash     string `json:"hash,omitempty"`
}

// HashOf returns the content hash of weights: hex SHA-256.
func HashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Key returns a string that identifies the evaluator: two evaluators with
// the same key are the same model.
func (e *Evaluator) Key() string {
	h := e.Hash
	if h == "" && len(e.Data) > 0 {
		h = HashOf(e.Data)
	}
	return e.Kind + "#" + e.Selector + "@" + h
}

// Rules are how a unit's games are played: the search limits and the
// conditions that end a game beyond the rules of checkers. They mirror
// train/evolve's Rules, which document each field.
type Rules struct {
	Depth       int    `json:"depth"`
	RandomTies  bool   `json:"random_ties,omitempty"`
	QuietDraw   int    `json:"quiet_draw,omitempty"`
	CaptureDraw int    `json:"capture_draw,omitempty"`
	MaxPlies    int    `json:"max_plies,omitempty"`
	Search      string `json:"search,omitempty"`
	HashMB      int    `json:"hash_mb,omitempty"`
	MoverView   bool   `json:"mover_view,omitempty"`
}

// Game is one game of a unit: indexes into the unit's cast for the two
// sides, the opening as FEN (the standard start when empty) and moves
// played from it before the players take over (Prelude, in numeric
// notation), and the game's seed.
type Game struct {
	Black   int      `json:"black"`
	White   int      `json:"white"`
	Start   string   `json:"start,omitempty"`
	Prelude []string `json:"prelude,omitempty"`
	Seed    uint64   `json:"seed"`
	// start is the opening as DecodeUnit read it, so that it is read once.
	start *engine.Position
}

// Kinds of unit: how its games are played.
const (
	// KindPool games are train/evolve's pool games: Rules says all.
	KindPool = ""
	// KindDatagen games are train/datagen's: one evaluator plays both
	// sides with the search limits of Datagen, and the result carries the
	// quiet positions after the prelude as Samples.
	KindDatagen = "datagen"
	// KindMatch games are the match package's: nechecb engine processes with
	// the options of Match, started by the worker from its own binary.
	KindMatch = "match"
)

// Match holds the settings of a match unit: the engines (Black and White
// of a game index them), the limits and the adjudication. Durations are
// in milliseconds.
type Match struct {
	Engines    []MatchEngine `json:"engines"`
	Depth      int           `json:"depth,omitempty"`
	Nodes      int64         `json:"nodes,omitempty"`
	MoveTimeMS int64         `json:"movetime_ms,omitempty"`
	BaseMS     int64         `json:"base_ms,omitempty"`
	IncMS      int64         `json:"inc_ms,omitempty"`
	MarginMS   int64         `json:"margin_ms,omitempty"`
	TimeoutMS  int64         `json:"timeout_ms,omitempty"`
	MaxMoves   int           `json:"max_moves"`
	AdjScore   int           `json:"adj_score,omitempty"`
	AdjMoves   int           `json:"adj_moves,omitempty"`
	AdjClaims  bool          `json:"adj_claims,omitempty"`
}

// MatchEngine is one engine of a match unit: nechecb run with Args, in the
// hub dialect when Hub, with Options set after the handshake. When
// EvalCast is at least 0, the option Eval names a file: the worker writes
// the data of cast member EvalCast to a file and sets Eval to
// KIND:FILE#SELECTOR.
type MatchEngine struct {
	Name     string   `json:"name"`
	Args     []string `json:"args,omitempty"`
	Hub      bool     `json:"hub,omitempty"`
	Options  []Option `json:"options,omitempty"`
	EvalCast int      `json:"eval_cast"`
}

// Option is an engine option.
type Option struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Datagen holds the settings of a datagen unit beyond Rules (whose Depth,
// MaxPlies and HashMB it uses).
type Datagen struct {
	Nodes      uint64 `json:"nodes,omitempty"`
	LabelDepth int    `json:"label_depth,omitempty"`
	// DBPieces, when above 0, is the endgame database both sides search
	// with: every position of up to this many pieces. A game ends at the
	// first position it settles, with its value; a worker without such a
	// database refuses the unit.
	DBPieces int `json:"db_pieces,omitempty"`
}

// Unit is a batch of games to play.
type Unit struct {
	Version int `json:"version"`
	// ID names the unit within its run; results are matched to units by it.
	ID string `json:"id"`
	// Kind says how the games are played (KindPool, KindDatagen,
	// KindMatch).
	Kind    string      `json:"kind,omitempty"`
	Rules   Rules       `json:"rules"`
	Datagen *Datagen    `json:"datagen,omitempty"`
	Match   *Match      `json:"match,omitempty"`
	Cast    []Evaluator `json:"cast"`
	Games   []Game      `json:"games"`
	// Positions asks for every position of every game in the result, as
	// training data.
	Positions bool `json:"positions,omitempty"`
	// PDN asks for each game's PDN in the result; without it the moves
	// travel as indexes only (GameResult.Moves), which is all a learner
	// needs and cheaper to make and to check.
	PDN bool `json:"pdn,omitempty"`
}

// GameResult is how one game of a unit ended.
type GameResult struct {
	// Outcome is the PDN result token: "1-0", "0-1" or "1/2-1/2".
	Outcome string `json:"outcome"`
	Plies   int    `json:"plies"`
	// Pieces counts the pieces (men and kings) black and white have at the
	// end, which learners read (neche's shaped scores); Validate checks
	// them on the replayed game, so the coordinator need not replay again.
	Pieces [2]int `json:"pieces"`
	// PDN is the game in PDN, when the unit asks for it; Validate checks
	// that it is the game the moves play.
	PDN string `json:"pdn,omitempty"`
	// Moves holds, for each ply, the index of the move played among the
	// legal moves in engine.Position.Generate's order: a replay that needs
	// no notation parsing (Validate then checks that PDN, if any, is the
	// replayed game's, byte for byte). When it is empty and PDN is not,
	// Validate parses the PDN instead.
	Moves []byte `json:"moves,omitempty"`
	// Positions holds the FEN of every position from the start to the end,
	// when the unit asked for them.
	Positions []string `json:"positions,omitempty"`
	// Samples are a datagen game's training positions: every quiet
	// position after the prelude but the last, in game order.
	Samples []Sample `json:"samples,omitempty"`
	// Reason says why a match game ended, and FaultBy ("black" or
	// "white") which side failed (crashed, hung, sent an illegal move)
	// when one did.
	Reason  string `json:"reason,omitempty"`
	FaultBy string `json:"fault_by,omitempty"`
}

// Sample is one training position: the position, the game's result for the
// side to move (0 loss, 1 draw, 2 win) and a search score for it.
type Sample struct {
	FEN    string `json:"fen"`
	Result uint8  `json:"result"`
	Score  int    `json:"score"`
}

// Result is what a worker returns for a unit.
type Result struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	// Worker names who played the unit, for the logs only.
	Worker string `json:"worker,omitempty"`
	// Error, when set, says why the worker could not play the unit (an
	// evaluator it cannot load); Games is then empty.
	Error string       `json:"error,omitempty"`
	Games []GameResult `json:"games"`
}

// Encode returns the unit as JSON.
func (u *Unit) Encode() ([]byte, error) { return json.Marshal(u) }

// DecodeUnit reads a unit and checks its shape: version, cast indexes,
// openings.
func DecodeUnit(data []byte) (*Unit, error) {
	var u Unit
	if err := json.Unmarshal(data, &u); err != nil {
		return nil, fmt.Errorf("work unit: %w", err)
	}
	if u.Version != Version {
		return nil, fmt.Errorf("work unit %s: version %d, this nechecb plays version %d", u.ID, u.Version, Version)
	}
	if u.ID == "" {
		return nil, fmt.Errorf("work unit has no id")
	}
	if u.Rules.Depth < 0 || u.Rules.MaxPlies < 0 || u.Rules.HashMB < 0 || u.Rules.HashMB > 1024 {
		return nil, fmt.Errorf("work unit %s: rules out of range", u.ID)
	}
	for i, e := range u.Cast {
		if e.Kind == "" {
			return nil, fmt.Errorf("work unit %s: cast member %d has no kind", u.ID, i)
		}
		if e.Hash != "" && len(e.Data) > 0 && HashOf(e.Data) != e.Hash {
			return nil, fmt.Errorf("work unit %s: cast member %d: weights do not match their hash", u.ID, i)
		}
	}
	switch u.Kind {
	case KindPool:
	case KindDatagen:
		if u.Datagen == nil || len(u.Cast) != 1 || u.Datagen.LabelDepth < 0 || u.Datagen.DBPieces < 0 || u.Rules.Depth == 0 && u.Datagen.Nodes == 0 {
			return nil, fmt.Errorf("work unit %s: a datagen unit needs one evaluator, its settings and a depth or node limit", u.ID)
		}
	case KindMatch:
		if u.Match == nil || len(u.Match.Engines) < 2 || u.Match.MaxMoves <= 0 {
			return nil, fmt.Errorf("work unit %s: a match unit needs two engines or more and its settings", u.ID)
		}
		for i, e := range u.Match.Engines {
			if e.EvalCast >= len(u.Cast) {
				return nil, fmt.Errorf("work unit %s: engine %d names cast member %d of %d", u.ID, i, e.EvalCast, len(u.Cast))
			}
		}
	default:
		return nil, fmt.Errorf("work unit %s: kind %q is not one this nechecb plays", u.ID, u.Kind)
	}
	players := len(u.Cast)
	if u.Kind == KindMatch {
		players = len(u.Match.Engines)
	}
	for i, g := range u.Games {
		if g.Black < 0 || g.Black >= players || g.White < 0 || g.White >= players {
			return nil, fmt.Errorf("work unit %s: game %d names players %d and %d of %d", u.ID, i, g.Black, g.White, players)
		}
		p, err := parseStart(g.Start)
		if err != nil {
			return nil, fmt.Errorf("work unit %s: game %d: %w", u.ID, i, err)
		}
		u.Games[i].start = &p
	}
	return &u, nil
}

// Encode returns the result as JSON.
func (r *Result) Encode() ([]byte, error) { return json.Marshal(r) }

// DecodeResult reads a result. It checks only that it is one; Validate
// checks it against its unit.
func DecodeResult(data []byte) (*Result, error) {
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("work result: %w", err)
	}
	if r.Version != Version {
		return nil, fmt.Errorf("work result %s: version %d, want %d", r.ID, r.Version, Version)
	}
	return &r, nil
}
