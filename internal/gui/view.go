package gui

import (
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/player"
)

// scoreView is a search score as the page writes it: Kind "cp" with Value
// in hundredths of a man, "win"/"loss" with Value in plies, or
// "dbwin"/"dbloss" for a result the endgame database settled.
type scoreView struct {
	Kind  string `json:"kind"`
	Value int    `json:"value"`
}

// scoreOf describes s, a score for the side to move.
func scoreOf(s player.Score) scoreView {
	switch {
	case s.IsWin():
		return scoreView{"win", s.Plies()}
	case s.IsLoss():
		return scoreView{"loss", s.Plies()}
	case s.IsKnownWin():
		return scoreView{"dbwin", 0}
	case s.IsKnownLoss():
		return scoreView{"dbloss", 0}
	}
	return scoreView{"cp", int(s)}
}

// blackScore returns s, a score for side, from Black's side, capped for the
// score graph.
func blackScore(s player.Score, side engine.Color) int {
	v := int(s)
	switch {
	case s.IsWin() || s.IsKnownWin():
		v = scoreCap
	case s.IsLoss() || s.IsKnownLoss():
		v = -scoreCap
	}
	v = max(-scoreCap, min(scoreCap, v))
	if side == engine.White {
		v = -v
	}
	return v
}

// infoView is one search report for the page.
type infoView struct {
	Search   int       `json:"search"`
	Kind     string    `json:"kind"`
	Ply      int       `json:"ply"`
	Depth    int       `json:"depth"`
	SelDepth int       `json:"seldepth"`
	MultiPV  int       `json:"multipv"`
	Score    scoreView `json:"score"`
	Nodes    uint64    `json:"nodes"`
	NPS      uint64    `json:"nps"`
	TimeMs   int64     `json:"timeMs"`
	TBHits   uint64    `json:"tbhits"`
	// PV is the line in standard notation, PVFull in full-path notation
	// (what the page sends back to play it).
	PV     []string `json:"pv"`
	PVFull []string `json:"pvFull"`
	// Path is the first move's path, for the best-move arrow.
	Path []int `json:"path"`
	// Sent is when the server sent the report, in Unix milliseconds.
	Sent int64 `json:"sent"`
}

// report turns one search report on root, the position at ply, into an
// event, and keeps it for pages that load later.
func (s *app) report(id int, kind string, ply int, root *engine.Position, in player.Info) {
	v := infoView{
		Search: id, Kind: kind, Ply: ply, Depth: in.Depth, SelDepth: in.SelDepth, MultiPV: max(in.MultiPV, 1),
		Score: scoreOf(in.Score), Nodes: in.Nodes, NPS: in.NPS, TimeMs: in.Time.Milliseconds(), TBHits: in.TBHits,
	}
	p := *root
	for _, m := range in.PV {
		v.PV = append(v.PV, p.Notation(m))
		v.PVFull = append(v.PVFull, m.String())
		p = p.Play(m)
	}
	if len(in.PV) > 0 {
		v.Path = in.PV[0].PathSquares(nil)
	}
	point := scorePoint{hash: root.Hash, Ply: ply, Score: blackScore(in.Score, root.Side), Depth: in.Depth}
	s.lines.record(id, v, point)
	v.Sent = time.Now().UnixMilli()
	s.hub.publish("info", v)
}

// squareView places a square on the board: row 0 is the top (Black's
// side), column 0 file a.
type squareView struct {
	Sq   int    `json:"sq"`
	Row  int    `json:"row"`
	Col  int    `json:"col"`
	Name string `json:"name"`
}

// moveView is a move of the game or a legal move of the position shown.
type moveView struct {
	ID     int    `json:"id,omitempty"` // the move's node in the tree
	Ply    int    `json:"ply,omitempty"`
	Number int    `json:"number,omitempty"`
	Side   string `json:"side,omitempty"`
	Text   string `json:"text"` // standard notation
	Full   string `json:"full"` // full path, numeric
	Path   []int  `json:"path"`
	// Captured are the squares of the pieces taken.
	Captured []int `json:"captured,omitempty"`
	// DB is the endgame database's verdict on a legal move for its
	// mover: "win", "loss", "draw", or "" when it has none.
	DB string `json:"db,omitempty"`
	// Mark is a move's mark from the scores before and after it
	// (review.Mark), and Drop the expected score it lost for its mover
	// (0 to 1).
	Mark string  `json:"mark,omitempty"`
	Drop float64 `json:"drop,omitempty"`
}

// moveViewOf describes m, a legal move of p.
func moveViewOf(p *engine.Position, m engine.Move) moveView {
	return moveView{Text: p.Notation(m), Full: m.String(), Path: m.PathSquares(nil), Captured: engine.Squares(m.Captured)}
}

// resultView is how the game stands at the position shown.
type resultView struct {
	Over   bool   `json:"over"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
	PDN    string `json:"pdn"`
}

// clockView is each side's time left under a clock level, in
// milliseconds, and the side whose clock runs.
type clockView struct {
	Black   int64  `json:"black"`
	White   int64  `json:"white"`
	Running string `json:"running"`
}

// stateView is everything the page shows, as GET /api/state answers it.
type stateView struct {
	Version int          `json:"version"`
	FEN     string       `json:"fen"`
	Side    string       `json:"side"`
	Pieces  []string     `json:"pieces"` // by square 1..32 ([0] unused): "", b, w, B, W
	Squares []squareView `json:"squares"`
	Moves   []moveView   `json:"moves"` // the line shown
	Cursor  int          `json:"cursor"`
	// Tree is the game's main line with its side lines (the marks of the
	// moves on the line shown are in Moves); Node is the id of the
	// position shown (0 the start), SideLine the id of the first move of
	// the innermost side line that holds it (0 on the main line).
	Tree      []treeMove   `json:"tree"`
	Node      int          `json:"node"`
	SideLine  int          `json:"sideLine"`
	Legal     []moveView   `json:"legal"`
	Last      *moveView    `json:"last"`
	Result    resultView   `json:"result"`
	DB        string       `json:"db"`
	DBPieces  int          `json:"dbPieces"`
	Engine    [2]bool      `json:"engine"` // Black, White
	Analysing bool         `json:"analysing"`
	Searching string       `json:"searching"`
	Level     level        `json:"level"`
	Clock     clockView    `json:"clock"`
	Infos     []infoView   `json:"infos"`
	Scores    []scorePoint `json:"scores"`
	Tags      []pdn.Tag    `json:"tags"`
	Games     []string     `json:"games"`
	GameIndex int          `json:"gameIndex"`
	Evaluator string       `json:"evaluator"`
	// Build says what the build the page talks to cannot offer (the
	// browser build's limits); empty for the binary.
	Build string `json:"build,omitempty"`
}

// pieceNames are the page's names of engine.Piece values.
var pieceNames = [...]string{engine.Empty: "", engine.BlackMan: "b", engine.WhiteMan: "w", engine.BlackKing: "B", engine.WhiteKing: "W"}

// outcomeNames are the DB field's names of the database's verdicts.
var outcomeNames = map[player.Outcome]string{player.DBWin: "win", player.DBLoss: "loss", player.DBDraw: "draw"}

// squares is the board's layout, the same for every state.
var squares = func() []squareView {
	v := make([]squareView, 0, 32)
	for sq := 1; sq <= 32; sq++ {
		r, c := engine.SquareCoords(sq)
		v = append(v, squareView{Sq: sq, Row: r, Col: c, Name: engine.SquareName(sq)})
	}
	return v
}()

// piecesOf lists the pieces of pos by square, 1..32 ([0] unused), as the
// page's board draws them.
func piecesOf(pos *engine.Position) []string {
	out := make([]string, 33)
	for sq := 1; sq <= 32; sq++ {
		out[sq] = pieceNames[pos.PieceAt(sq)]
	}
	return out
}

// viewLocked describes the state for the page.
func (s *app) viewLocked() stateView {
	st := &s.st
	pos, _ := st.shown()
	eng := s.sess.Engine()
	v := stateView{
		Version: st.version, FEN: pos.FEN(), Side: sideName(pos.Side), Squares: squares, Cursor: st.cursor,
		Engine: st.engineSide, Analysing: st.analysing, Level: st.level, Evaluator: eng.Evaluator(),
		DB: outcomeNames[eng.ProbeDB(&pos)], DBPieces: eng.DBPieces(), Games: collectionNames(st.coll), GameIndex: st.gameIndex,
		Build: s.build,
	}
	v.Pieces = piecesOf(&pos)
	positions := st.game.Positions()
	for i, m := range st.game.Moves() {
		mv := moveViewOf(&positions[i], m)
		n, side := pdn.MoveNumber(st.game.Start().Side, i)
		mv.ID, mv.Ply, mv.Number, mv.Side, mv.Captured = st.line[i+1].id, i+1, n, sideName(side), nil
		v.Moves = append(v.Moves, mv)
	}
	if st.cursor > 0 {
		v.Last = &v.Moves[st.cursor-1]
	}
	r := st.result()
	v.Result = resultView{Over: r.Outcome != engine.Ongoing, Text: r.String(), Reason: r.Reason, PDN: r.PDN()}
	if !v.Result.Over {
		for _, m := range pos.LegalMoves() {
			mv := moveViewOf(&pos, m)
			after := pos.Play(m)
			mv.DB = outcomeNames[eng.ProbeDB(&after).Neg()]
			v.Legal = append(v.Legal, mv)
		}
	}
	if s.search != nil {
		v.Searching = s.search.kind
	}
	v.Clock = s.clockLocked()
	v.Infos, v.Scores = s.lines.snapshot(positions)
	markMoves(v.Moves, v.Scores)
	v.Tree = treeView(st.root.line()[1:], st.game.Start(), 0, st.game.Start().Side)
	v.Node, v.SideLine = st.line[st.cursor].id, st.sideLineAt()
	if st.loaded != nil {
		v.Tags = st.loaded.Tags
	}
	return v
}

// clockLocked returns the clocks as they stand now.
func (s *app) clockLocked() clockView {
	st := &s.st
	c := st.clock
	running := ""
	if st.level.Kind == "clock" && st.atEnd() && st.result().Outcome == engine.Ongoing {
		side := st.game.Current().Side
		c[side] = max(c[side]-time.Since(st.turnStart), 0)
		running = sideName(side)
	}
	return clockView{Black: c[engine.Black].Milliseconds(), White: c[engine.White].Milliseconds(), Running: running}
}

// sideName names a colour for the page.
func sideName(c engine.Color) string {
	if c == engine.White {
		return "white"
	}
	return "black"
}

// publishStateLocked sends the state to every page.
func (s *app) publishStateLocked() { s.hub.publish("state", s.viewLocked()) }
