// Package badinput marks errors that come from what a user gave (a bad
// flag value, an evaluator spec or input file that cannot be read), so that
// a command can tell them from failures while running: nechecb exits with
// status 2 for the first and 1 for the second. Library code that checks its
// caller's input (train/...) marks its errors here; cmd/nechecb reads the
// mark.
package badinput

import "errors"

// markedError wraps an error in the user's input.
type markedError struct{ err error }

func (e markedError) Error() string { return e.err.Error() }
func (e markedError) Unwrap() error { return e.err }

// Mark marks err as an error in the user's input; nil stays nil.
func Mark(err error) error {
	if err == nil {
		return nil
	}
	return markedError{err}
}

// Is reports whether err, or an error it wraps, was marked by Mark.
func Is(err error) bool {
	var m markedError
	return errors.As(err, &m)
}
