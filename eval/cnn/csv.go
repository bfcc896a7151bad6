package cnn

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/nechecb/nechecb/internal/fileio"
)

// NumWeights is the number of weights in one row of the seed's CSV.
const NumWeights = 247

// Weights is one network's flat weight vector, in the CSV's order.
type Weights [NumWeights]float64

// Row is one named row of the weight file.
type Row struct {
	Name    string
	Weights Weights
}

// header returns the header the seed's CSV carries: names,w0,...,w246.
func header() []string {
	h := make([]string, NumWeights+1)
	h[0] = "names"
	for i := range NumWeights {
		h[i+1] = "w" + strconv.Itoa(i)
	}
	return h
}

// Table is a weight file read into memory: its rows in file order, and the
// name of the file for error messages.
type Table struct {
	// Rows are the file's networks, in file order, with distinct names.
	Rows []Row
	name string // the name given to Read, for errors
}

// ReadFile reads the weight file at path; see Read.
func ReadFile(path string) (*Table, error) {
	return fileio.ReadFile(path, Read)
}

// Read reads a weight file from r: the header names,w0,...,w246, then one
// row per network, a name followed by 247 finite numbers. name is used in
// errors, which give the file, the line (and for a bad row the column) and
// what is wrong (a bad header, a row with the wrong number of weights, a
// number that does not parse or is not finite, an empty or repeated name).
func Read(r io.Reader, name string) (*Table, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	want := header()
	t := &Table{name: name}
	firstLine := map[string]int{}
	for n := 0; ; n++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if n == 0 {
			if len(rec) != len(want) || strings.Join(rec, ",") != strings.Join(want, ",") {
				return nil, fmt.Errorf("%s:%d: the header must be names,w0,...,w%d", name, line, NumWeights-1)
			}
			continue
		}
		row, field, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d:%d: %v", name, line, column(cr, rec, field), err)
		}
		if first, dup := firstLine[row.Name]; dup {
			return nil, fmt.Errorf("%s:%d: row %q repeats the name of line %d", name, line, row.Name, first)
		}
		firstLine[row.Name] = line
		t.Rows = append(t.Rows, row)
	}
	if t.Rows == nil {
		return nil, fmt.Errorf("%s: no weight rows", name)
	}
	return t, nil
}

// Row returns the row called name. An empty name is allowed when the table
// has exactly one row. The error names the file and lists the rows.
func (t *Table) Row(name string) (*Row, error) {
	if name == "" {
		if len(t.Rows) == 1 {
			return &t.Rows[0], nil
		}
		return nil, fmt.Errorf("%s has %d rows; choose one with #NAME (%s)", t.name, len(t.Rows), rowNames(t.Rows))
	}
	for i := range t.Rows {
		if t.Rows[i].Name == name {
			return &t.Rows[i], nil
		}
	}
	return nil, fmt.Errorf("%s: no row named %q (rows: %s)", t.name, name, rowNames(t.Rows))
}

// parseRow reads one record: a name and 247 numbers. On error it also
// returns the field at fault, or len(rec) for a row that ends too soon.
func parseRow(rec []string) (Row, int, error) {
	var row Row
	row.Name = rec[0]
	if row.Name == "" {
		return row, 0, fmt.Errorf("a row with no name")
	}
	if !utf8.ValidString(row.Name) || strings.ContainsFunc(row.Name, unicode.IsControl) {
		return row, 0, fmt.Errorf("row name %q holds a control character or invalid UTF-8", row.Name)
	}
	if n := len(rec) - 1; n != NumWeights {
		return row, min(len(rec), NumWeights+1), fmt.Errorf("row %q has %d weights, want %d", row.Name, n, NumWeights)
	}
	for i, field := range rec[1:] {
		v, err := strconv.ParseFloat(strings.TrimSpace(field), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return row, i + 1, fmt.Errorf("row %q weight w%d: %q is not a finite number", row.Name, i, field)
		}
		row.Weights[i] = v
	}
	return row, 0, nil
}

// column returns the column (1-based, in bytes) where field starts in the
// record just read, or where the record ends when field is past its last
// field.
func column(cr *csv.Reader, rec []string, field int) int {
	if field < len(rec) {
		_, col := cr.FieldPos(field)
		return col
	}
	_, col := cr.FieldPos(len(rec) - 1)
	return col + len(rec[len(rec)-1])
}

// FormatCSV writes rows in the seed's CSV layout, each number in the
// shortest form that reads back exactly.
func FormatCSV(rows []Row) ([]byte, error) {
	return bytes.Join(formatChunks(rows), nil), nil
}

// WriteCSV writes rows to path atomically (a temporary file renamed over
// path).
func WriteCSV(path string, rows []Row) error {
	parts := formatChunks(rows)
	return fileio.WriteAtomicFunc(path, func(w io.Writer) error {
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// formatChunks formats the header and rows as CSV in consecutive parts,
// formatted at once, one per CPU: a generation of the seed's learner is a
// thousand rows of 5,000 numbers.
func formatChunks(rows []Row) [][]byte {
	chunks := max(1, min(runtime.GOMAXPROCS(0), len(rows)/64))
	parts := make([][]byte, chunks)
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			chunk := rows[c*len(rows)/chunks : (c+1)*len(rows)/chunks]
			b := make([]byte, 0, len(chunk)*NumWeights*16)
			if c == 0 {
				for i, name := range header() {
					if i > 0 {
						b = append(b, ',')
					}
					b = appendField(b, name)
				}
				b = append(b, '\n')
			}
			for k := range chunk {
				b = appendField(b, chunk[k].Name)
				for _, v := range chunk[k].Weights {
					b = strconv.AppendFloat(append(b, ','), v, 'g', -1, 64)
				}
				b = append(b, '\n')
			}
			parts[c] = b
		}()
	}
	wg.Wait()
	return parts
}

// appendField appends one CSV field, quoted the way encoding/csv's Writer
// quotes it: when it holds a comma, a quote or a line break, or begins
// with a space, or is \. alone; quotes inside are doubled.
func appendField(b []byte, field string) []byte {
	r, _ := utf8.DecodeRuneInString(field)
	if field != `\.` && !strings.ContainsAny(field, "\",\r\n") && (field == "" || !unicode.IsSpace(r)) {
		return append(b, field...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(field, `"`, `""`)...)
	return append(b, '"')
}

// rowNames lists the names of rows for an error message.
func rowNames(rows []Row) string {
	names := make([]string, 0, len(rows))
	for _, r := range rows {
		names = append(names, r.Name)
	}
	if len(names) > 20 {
		names = append(names[:20], "...")
	}
	return strings.Join(names, ", ")
}
