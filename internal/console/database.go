package console

import (
	"fmt"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

// Database is what the console needs from an engine that reads endgame
// databases; *player.Engine is one. An Engine without it has no db command.
// The DBPath option opens one.
type Database interface {
	// ProbeDB returns the database's verdict on p for its side to move.
	ProbeDB(p *engine.Position) player.Outcome
	// DBDir and DBPieces describe the database in use ("" and 0: none).
	DBDir() string
	DBPieces() int
}

// database returns the engine's database side, or nil.
func (s *Session) database() Database {
	db, _ := s.cfg.Engine.(Database)
	return db
}

// cmdDB answers "db" (the database's value of the position and of each
// move) and "db path DIR" (open a database; "db path -" closes it).
func (s *Session) cmdDB(args []string) {
	db := s.database()
	if db == nil {
		s.printf("this engine reads no endgame databases\n")
		return
	}
	if len(args) > 0 {
		if strings.ToLower(args[0]) != "path" || len(args) != 2 {
			s.printf("usage: db, or db path DIR (db path - for none)\n")
			return
		}
		s.openDB(args[1])
		return
	}
	if db.DBDir() == "" {
		s.printf("no endgame database (db path DIR, or nechecb console --db DIR)\n")
		return
	}
	cur := s.game.Current()
	v := db.ProbeDB(&cur)
	if v == player.DBUnknown {
		s.printf("not in the database (%s, up to %d pieces)\n", db.DBDir(), db.DBPieces())
		return
	}
	s.printf("database: %s for %s\n", v, sideName(cur.Side))
	var parts []string
	for _, m := range cur.LegalMoves() {
		after := cur.Play(m)
		parts = append(parts, s.moveName(m)+" "+db.ProbeDB(&after).Neg().String())
	}
	s.printf("%s\n", wrapWords("moves: ", parts))
}

// openDB opens the database in dir ("-" closes it) and says what it holds.
func (s *Session) openDB(dir string) {
	db := s.database()
	if dir == "-" {
		dir = session.DBNone
	}
	notes, err := s.cfg.Settings.Set("DBPath", dir)
	switch {
	case err != nil:
		s.printf("%v; keeping %s\n", err, orNone(db.DBDir()))
		return
	case dir == session.DBNone:
		s.printf("no endgame database\n")
		return
	}
	summary := fmt.Sprintf("%s: %d pieces", db.DBDir(), db.DBPieces())
	for _, n := range notes {
		if n != summary {
			s.printf("left out: %s\n", n)
		}
	}
	s.printf("endgame database %s\n", summary)
}

// knownNote marks a search result the database settled: "  [database:
// win]" from the side to move, or "".
func knownNote(v player.Outcome) string {
	if v == player.DBUnknown {
		return ""
	}
	return fmt.Sprintf("  [database: %s]", v)
}

func orNone(dir string) string {
	if dir == "" {
		return "none"
	}
	return dir
}

func sideName(c engine.Color) string {
	if c == engine.White {
		return "White"
	}
	return "Black"
}
