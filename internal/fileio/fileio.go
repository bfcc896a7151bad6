// Package fileio holds the file helpers that every package reading or
// writing files shares: opening a file for a format's reader (the one
// convention: Read(r, name) plus ReadFile(path)), and writing a file
// atomically, so that a reader (or a crash) never sees half of it. Genomes, weight files, networks, books, PDN games, the
// console history and generated code all go through it.
package fileio

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteAtomic writes data to path through a temporary file in the same
// folder, synced and then renamed over path, so path holds either its old
// content or all of data, never part of it. The file gets mode 0644.
func WriteAtomic(path string, data []byte) error {
	return WriteAtomicFunc(path, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// WriteAtomicFunc is WriteAtomic for content produced by write. If write
// fails, path is left as it was and write's error is returned.
func WriteAtomicFunc(path string, write func(w io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadFile opens path and hands it to read with path as its name, the way
// every file format's ReadFile does: read(r, name) parses and names the file
// in its errors.
func ReadFile[T any](path string, read func(r io.Reader, name string) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return read(f, path)
}

// CheckWritable reports whether WriteAtomic could write path, by creating
// and removing a temporary file beside it, so that a command can refuse an
// output path before its work rather than fail to save the result after
// it.
func CheckWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("write %s: it is a folder", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}
