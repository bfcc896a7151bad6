package cnn

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The files of a run folder of nechecb evolve cnn, in the seed's layout:
// generation G's networks in GenG.csv, its rows named GenG_IIII, and its
// survivors, best first, in GenGWeightsBest.csv. The learner writes them
// with GenFile, BestFile and RowName; RunRow reads them.
const (
	runPrefix   = "Gen"
	genExt      = ".csv"
	bestExt     = "WeightsBest.csv"
	rowSep      = "_"
	rowIndexFmt = "%04d"
)

// GenFile returns the file of all the networks of generation gen of the
// run in folder dir.
func GenFile(dir string, gen int) string { return genFile(dir, strconv.Itoa(gen)) }

// genFile returns the file of generation gen, given as written.
func genFile(dir, gen string) string { return filepath.Join(dir, runPrefix+gen+genExt) }

// BestFile returns the file of generation gen's survivors, best first.
func BestFile(dir string, gen int) string {
	return filepath.Join(dir, runPrefix+strconv.Itoa(gen)+bestExt)
}

// RowName returns the name of network i made in generation gen.
func RowName(gen, i int) string {
	return runPrefix + strconv.Itoa(gen) + rowSep + fmt.Sprintf(rowIndexFmt, i)
}

// rowGen returns the generation part of a row name GenG_IIII, as written.
func rowGen(name string) (string, bool) {
	gen, _, ok := strings.Cut(strings.TrimPrefix(name, runPrefix), rowSep)
	_, err := strconv.Atoi(gen)
	return gen, strings.HasPrefix(name, runPrefix) && ok && err == nil
}

// bestGen returns the generation of a file named GenGWeightsBest.csv.
func bestGen(name string) (int, bool) {
	num, ok := strings.CutSuffix(strings.TrimPrefix(name, runPrefix), bestExt)
	g, err := strconv.Atoi(num)
	return g, ok && err == nil && strings.HasPrefix(name, runPrefix)
}

// RunRow resolves a spec on an evolution run folder dir to a file and a
// row: with no selector, the first row (the best) of the highest-numbered
// GenGWeightsBest.csv; with a row name GenG_IIII, that row of GenG.csv.
func RunRow(dir, selector string) (path, row string, err error) {
	if selector != "" {
		gen, ok := rowGen(selector)
		if !ok {
			return "", "", fmt.Errorf("%s: row %q is not named GenG_IIII", dir, selector)
		}
		return genFile(dir, gen), selector, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", "", err
	}
	best := -1
	for _, e := range entries {
		if g, ok := bestGen(e.Name()); ok && g > best {
			best = g
		}
	}
	if best < 0 {
		return "", "", fmt.Errorf("%s: no generation is complete yet (no GenGWeightsBest.csv)", dir)
	}
	path = BestFile(dir, best)
	t, err := ReadFile(path)
	if err != nil {
		return "", "", err
	}
	return path, t.Rows[0].Name, nil
}
