package tune

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/fileio"
)

// The positions file holds one record per line: the result for the side to
// move ("1", "0.5" or "0"), a space, and the position in PDN FEN. Blank
// lines and lines starting with '#' are skipped.

// FormatRecords writes records in the positions-file format.
func FormatRecords(records []Record) []byte {
	var b strings.Builder
	b.WriteString("# nechecb tune positions: result for the side to move, then the FEN\n")
	for _, r := range records {
		fmt.Fprintf(&b, "%g %s\n", r.Result, r.Position.FEN())
	}
	return []byte(b.String())
}

// WriteRecordsFile writes records to path atomically.
func WriteRecordsFile(path string, records []Record) error {
	return fileio.WriteAtomic(path, FormatRecords(records))
}

// ReadFile reads the positions file at path; see Read.
func ReadFile(path string) ([]Record, error) {
	return fileio.ReadFile(path, Read)
}

// Read reads a positions file (the format above) from r; errors name the
// file (name), the line and what was wrong.
func Read(r io.Reader, name string) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		res, fen, ok := strings.Cut(text, " ")
		var rec Record
		switch res {
		case "1":
			rec.Result = 1
		case "0.5":
			rec.Result = 0.5
		case "0":
			rec.Result = 0
		default:
			return nil, fmt.Errorf("%s:%d: bad result %q (want 1, 0.5 or 0)", name, line, res)
		}
		if !ok {
			return nil, fmt.Errorf("%s:%d: no position after the result", name, line)
		}
		p, err := engine.ParseFEN(strings.TrimSpace(fen))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		rec.Position = p
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}
