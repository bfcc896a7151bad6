package protocol

import (
	"fmt"

	"github.com/nechecb/nechecb/internal/badinput"
	esession "github.com/nechecb/nechecb/internal/session"
)

// SessionServer makes a server on the engine session sess: its engine
// searches, its option table is announced (SessionOptions) and its opening
// book is probed. cfg gives the rest (Name, Version, Author, Bench,
// LogOutput); its Searcher, Options and Book are replaced.
func SessionServer(sess *esession.Session, cfg Config) (*Server, error) {
	cfg.Searcher, cfg.Options, cfg.Book = sess.Engine(), SessionOptions(sess.Options()), sess
	return NewServer(cfg)
}

// SetOptions sets options, Name and Value pairs as the command line's
// --option gives them, before Serve. The first that does not take is bad
// input (internal/badinput), named as --option Name=Value.
func (s *Server) SetOptions(options [][2]string) error {
	for _, o := range options {
		if err := s.SetOption(o[0], o[1]); err != nil {
			return badinput.Mark(fmt.Errorf("--option %s=%s: %v", o[0], o[1], err))
		}
	}
	return nil
}
