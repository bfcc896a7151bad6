package fileio

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	for _, content := range []string{"first\n", "second, longer\n"} {
		if err := WriteAtomic(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read back %q, %v; want %q", got, err, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := WriteAtomic(filepath.Join(dir, "no", "such", "dir.txt"), []byte("x")); err == nil {
		t.Error("writing into a missing folder gave no error")
	}
}

func TestWriteAtomicFuncFailureKeepsOldContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	if err := WriteAtomic(path, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteAtomicFunc(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the writer's error", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "old\n" {
		t.Errorf("content %q after a failed write, want the old content", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestReadFileNamesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.txt")
	if err := WriteAtomic(path, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	read := func(r io.Reader, name string) (string, error) {
		b, err := io.ReadAll(r)
		return name + "=" + string(b), err
	}
	got, err := ReadFile(path, read)
	if err != nil || got != path+"=hello" {
		t.Errorf("ReadFile = %q, %v; want %q", got, err, path+"=hello")
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), read); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file gave %v, want a not-exist error", err)
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	if err := CheckWritable(filepath.Join(dir, "out.svg")); err != nil {
		t.Errorf("a file in a writable folder: %v", err)
	}
	for _, bad := range []string{filepath.Join(dir, "no", "such", "folder", "out.svg"), dir} {
		if err := CheckWritable(bad); err == nil {
			t.Errorf("CheckWritable(%s) = nil, want an error", bad)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("CheckWritable left %d files behind", len(entries))
	}
}
