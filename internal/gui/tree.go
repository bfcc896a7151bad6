package gui

import (
	"errors"
	"fmt"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/session"
)

// node is a position of the game tree: the move that reached it from its
// parent's position, and the moves played from it. The root is the start
// position and has no move. kids[0] is the main continuation, the others
// are side lines (variations), in the order they were first played.
type node struct {
	id     int // 0 for the root
	move   engine.Move
	parent *node
	kids   []*node
}

// child returns the kid that m reaches, or nil.
func (n *node) child(m engine.Move) *node {
	for _, k := range n.kids {
		if k.move == m {
			return k
		}
	}
	return nil
}

// path returns the nodes from the root to n, the root first.
func (n *node) path() []*node {
	var out []*node
	for ; n != nil; n = n.parent {
		out = append(out, n)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// extend goes on from the last node of line along the main continuation
// to its end.
func extend(line []*node) []*node {
	for n := line[len(line)-1]; len(n.kids) > 0; n = n.kids[0] {
		line = append(line, n.kids[0])
	}
	return line
}

// line returns n and the main continuation after it.
func (n *node) line() []*node { return extend([]*node{n}) }

// alternatives returns the side lines that branch off where n, a main
// continuation, was played: its parent's other kids. A node that starts a
// side line itself has none; its siblings belong to the line it branches
// from.
func (n *node) alternatives() []*node {
	if n.parent == nil || n.parent.kids[0] != n {
		return nil
	}
	return n.parent.kids[1:]
}

// detach takes n, with all that follows it, out of the tree.
func (n *node) detach() {
	p := n.parent
	for i, k := range p.kids {
		if k == n {
			p.kids = append(p.kids[:i:i], p.kids[i+1:]...)
			return
		}
	}
}

// promote makes the line through n the main line: n and each node above
// it become their parent's main continuation, the others keeping their
// order.
func (n *node) promote() {
	for ; n.parent != nil; n = n.parent {
		p := n.parent
		n.detach()
		p.kids = append([]*node{n}, p.kids...)
	}
}

// find returns the node numbered id at or below n, or nil.
func (n *node) find(id int) *node {
	if n.id == id {
		return n
	}
	for _, k := range n.kids {
		if f := k.find(id); f != nil {
			return f
		}
	}
	return nil
}

// addNode plays m from n in the tree: a new kid, the main continuation
// when n had none, else a side line.
func (st *state) addNode(n *node, m engine.Move) *node {
	st.lastID++
	k := &node{id: st.lastID, move: m, parent: n}
	n.kids = append(n.kids, k)
	return k
}

// plantTree makes the tree of g: its moves are the main line, which is the
// line shown.
func (st *state) plantTree(g *session.Game) {
	st.root = &node{}
	st.line = []*node{st.root}
	for _, m := range g.Moves() {
		st.line = append(st.line, st.addNode(st.line[len(st.line)-1], m))
	}
}

// graft adds vars, side lines of line (the nodes of a line after its
// start), to the tree, nested ones included: each branches off where the
// move of line it replaces was played. A move the tree has there already
// is not added again (the side line goes on from it); a side line with no
// moves adds nothing.
func (st *state) graft(line []*node, vars []pdn.Variation) {
	for _, v := range vars {
		if v.Ply < 0 || v.Ply >= len(line) {
			continue
		}
		n, side := line[v.Ply].parent, make([]*node, 0, len(v.Moves))
		for _, m := range v.Moves {
			k := n.child(m)
			if k == nil {
				k = st.addNode(n, m)
			}
			side, n = append(side, k), k
		}
		st.graft(side, v.Variations)
	}
}

// setLine makes line, a path from the root, the line the game holds, shown
// after cursor moves. A change of line forgets a loss on time.
func (st *state) setLine(line []*node, cursor int) {
	rec, line := recordOf(st.game.Start(), line)
	st.game, st.line, st.cursor = session.GameOf(rec), line, min(cursor, len(line)-1)
	st.timeLoss = nil
}

// recordOf plays the moves of line, a path from the root, from start, and
// returns the record with the part of line it holds: all of it, since the
// tree holds only moves played.
func recordOf(start engine.Position, line []*node) (*engine.Game, []*node) {
	rec := engine.NewGame(start)
	rec.Grow(len(line) - 1)
	for i, n := range line[1:] {
		if rec.PlayRecordedMove(n.move) != nil {
			return rec, line[:i+1]
		}
	}
	return rec, line
}

// cut ends the line at the position shown; the moves after it stay in the
// tree.
func (st *state) cut() {
	for st.game.Ply() > st.cursor {
		st.game.Undo()
	}
	st.line = st.line[:st.cursor+1]
	st.timeLoss = nil
}

// mainGame returns the tree's main line as a PDN game, with its side
// lines.
func (st *state) mainGame() *pdn.Game {
	rec, line := recordOf(st.game.Start(), extend([]*node{st.root}))
	g := pdn.FromRecord(rec)
	g.Variations = variationsOf(line[1:])
	return g
}

// nodeRequest acts on a move of the tree, by its id: "goto" shows the
// position after it (the line through it becomes the game's line),
// "promote" makes the line through it the main line, "delete" takes it
// out of the tree with all that follows it.
type nodeRequest struct {
	ID     int    `json:"id"`
	Action string `json:"action"`
}

// nodeAction does what a nodeRequest asks.
func (s *app) nodeAction(req nodeRequest) error {
	st := &s.st
	n := st.root.find(req.ID)
	switch {
	case n == nil:
		return fmt.Errorf("no move of the game has id %d", req.ID)
	case n == st.root && req.Action != "goto":
		return errors.New("the start position is no move")
	}
	switch req.Action {
	case "goto":
		st.showNode(n)
	case "promote":
		n.promote()
	case "delete":
		st.deleteNode(n)
	default:
		return fmt.Errorf("action %q is not goto, promote or delete", req.Action)
	}
	st.version++
	return nil
}

// showNode shows the position after n: on the line when n is on it, else
// on the line through n and its main continuation.
func (st *state) showNode(n *node) {
	p := n.path()
	d := len(p) - 1
	if d < len(st.line) && st.line[d] == n {
		st.cursor = d
		return
	}
	st.setLine(extend(p), d)
}

// deleteNode takes n, not the root, out of the tree. When it was on the
// line, the line goes on from n's parent along the main continuation, and
// a position shown at or after n shows the parent.
func (st *state) deleteNode(n *node) {
	n.detach()
	d := len(n.path()) - 1
	if d >= len(st.line) || st.line[d] != n {
		return
	}
	st.setLine(extend(st.line[:d:d]), min(st.cursor, d-1))
}

// variationsOf returns the side lines that branch off line, a line of the
// tree, as PDN writes them: each with the index in line of the move it
// replaces, and its own side lines.
func variationsOf(line []*node) []pdn.Variation {
	var out []pdn.Variation
	for i, n := range line {
		for _, alt := range n.alternatives() {
			side := alt.line()
			v := pdn.Variation{Ply: i, Variations: variationsOf(side)}
			for _, k := range side {
				v.Moves = append(v.Moves, k.move)
			}
			out = append(out, v)
		}
	}
	return out
}

// treeMove is a move of the tree for the page's move list: Vars are the
// side lines that replace it, each a list of moves with side lines of its
// own, shown after it in parentheses.
type treeMove struct {
	ID     int          `json:"id"`
	Number int          `json:"number"`
	Side   string       `json:"side"`
	Text   string       `json:"text"`
	Vars   [][]treeMove `json:"vars,omitempty"`
}

// treeView describes line, a line of the tree whose first node follows
// pos, the position after ply moves of a game whose first mover is first.
func treeView(line []*node, pos engine.Position, ply int, first engine.Color) []treeMove {
	out := make([]treeMove, 0, len(line))
	for i, n := range line {
		num, side := pdn.MoveNumber(first, ply+i)
		tm := treeMove{ID: n.id, Number: num, Side: sideName(side), Text: pos.Notation(n.move)}
		for _, alt := range n.alternatives() {
			tm.Vars = append(tm.Vars, treeView(alt.line(), pos, ply+i, first))
		}
		out = append(out, tm)
		pos = pos.Play(n.move)
	}
	return out
}

// sideLineAt returns the id of the first move of the innermost side line
// that holds the position shown, or 0 when it is on the main line.
func (st *state) sideLineAt() int {
	for i := st.cursor; i > 0; i-- {
		if n := st.line[i]; n.parent.kids[0] != n {
			return n.id
		}
	}
	return 0
}
