package egdb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/badinput"
)

// This file is the work of nechecb egdb's subcommands once their flags are
// parsed. Their errors name the flag at fault; an error in the user's
// input is marked as such (internal/badinput). prefix ("nechecb egdb
// probe") begins the lines they write on stderr.

// checkFlags refuses build options the build command does not take: a
// missing --dir, --pieces, --threads or --memory out of range, or a --dir
// that already holds slice files without --resume.
func (o BuildOptions) checkFlags() error {
	var err error
	switch {
	case o.Dir == "":
		err = errors.New("--dir is required")
	case o.Pieces < 2 || o.Pieces > MaxPieces:
		err = fmt.Errorf("--pieces %d is outside 2..%d", o.Pieces, MaxPieces)
	case o.Threads < 1 || o.Threads > 1024:
		err = fmt.Errorf("--threads %d is outside 1..1024", o.Threads)
	case o.MemoryMB < 16:
		err = fmt.Errorf("--memory %d is below 16 MB", o.MemoryMB)
	}
	if existing, _ := filepath.Glob(filepath.Join(o.Dir, "*"+FileExt)); err == nil && len(existing) > 0 && !o.Resume {
		err = fmt.Errorf("%s already holds slice files: go on with --resume, or choose an empty directory", o.Dir)
	}
	return badinput.Mark(err)
}

// openReporting opens the database in dir with a block cache of cacheMB
// and writes the problems Open found on stderr.
func openReporting(dir string, cacheMB int, stderr io.Writer, prefix string) (*DB, error) {
	if dir == "" {
		return nil, badinput.Mark(errors.New("--dir is required"))
	}
	if cacheMB < 1 {
		return nil, badinput.Mark(fmt.Errorf("--cache %d is below 1 MB", cacheMB))
	}
	db, err := Open(dir, cacheMB)
	if err != nil {
		return nil, badinput.Mark(err)
	}
	for _, p := range db.Problems() {
		fmt.Fprintf(stderr, "%s: %v\n", prefix, p)
	}
	return db, nil
}

// ProbeDir looks fen up in the database in dir (WriteProbe). A position
// the database does not cover is an answer, not a failure: "unknown" on
// stdout and the reason on stderr.
func ProbeDir(dir, fen string, cacheMB int, stdout, stderr io.Writer, prefix string) error {
	if fen == "" {
		return badinput.Mark(errors.New("--fen is required"))
	}
	p, err := engine.ParseFEN(fen)
	if err != nil {
		return badinput.Mark(err)
	}
	db, err := openReporting(dir, cacheMB, stderr, prefix)
	if err != nil {
		return err
	}
	defer db.Close()
	if db.WriteProbe(stdout, &p) == Unknown {
		fmt.Fprintf(stderr, "%s: the database (%d pieces) does not cover this position\n", prefix, db.Pieces())
	}
	return nil
}

// VerifyDir verifies the database in dir with threads goroutines
// (VerifyReporting) and reports whether it passed.
func VerifyDir(ctx context.Context, dir string, threads, cacheMB int, stdout, stderr io.Writer, prefix string) (bool, error) {
	if threads < 1 || threads > 1024 {
		return false, badinput.Mark(fmt.Errorf("--threads %d is outside 1..1024", threads))
	}
	db, err := openReporting(dir, cacheMB, stderr, prefix)
	if err != nil {
		return false, err
	}
	defer db.Close()
	return db.VerifyReporting(ctx, threads, stdout, stderr), nil
}

// StatsDir writes the counts of every table of the database in dir
// (WriteStats).
func StatsDir(dir string, stdout, stderr io.Writer, prefix string) error {
	db, err := openReporting(dir, 1, stderr, prefix)
	if err != nil {
		return err
	}
	defer db.Close()
	WriteStats(stdout, db.Stats())
	return nil
}
