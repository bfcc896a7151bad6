package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine/pdn"
)

// TestAnalyseCommand runs nechecb analyse (and analyze) on real games with
// the default evaluator at depth 2, IN.pdn before or after the flags, and
// checks its refusals' exit statuses.
func TestAnalyseCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	text, err := os.ReadFile("../../testdata/tinsley1946.pdn")
	if err != nil {
		t.Fatal(err)
	}
	games := strings.SplitAfter(string(text), "\n\n")
	if err := os.WriteFile(in, []byte(games[2]+games[7]), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.pdn")
	if err := os.WriteFile(bad, []byte("[Event \"x\"]\n1. 11-15 15-11 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		status int
		out    string // the file it must write, "" none
		errors string
	}{
		{[]string{"analyse", in, "--depth", "2", "--resume=false"}, 0, filepath.Join(dir, "games.analysed.pdn"), "2 games written"},
		{[]string{"analyze", "--depth=2", "--out", filepath.Join(dir, "z.pdn"), "--threads", "1", in}, 0, filepath.Join(dir, "z.pdn"), "2 games written"},
		{[]string{"analyse", "--depth", "2", "--out", filepath.Join(dir, "b.pdn"), bad}, 2, "", "no readable game"},
		{[]string{"analyse", "--depth", "2"}, 2, "", "name the PDN file"},
		{[]string{"analyse", in, "--eval", "neche:" + filepath.Join(dir, "none.txt") + "#1", "--out", filepath.Join(dir, "e.pdn")}, 2, "", "none.txt"},
		{[]string{"analyse", in, "--out", filepath.Join(dir, "no", "o.pdn")}, 2, "", "no such file"},
		{[]string{"analyse", in, "extra"}, 2, "", "unexpected argument"},
	} {
		var out, errs strings.Builder
		status := analyseCommand(c.args[0], c.args[1:], &out, &errs)
		if status != c.status || !strings.Contains(errs.String(), c.errors) {
			t.Errorf("%q: status %d, errors:\n%s", c.args, status, errs.String())
			continue
		}
		if c.out == "" {
			continue
		}
		got, err := pdn.ReadFile(c.out)
		if err != nil || len(got) != 2 || !strings.HasPrefix(got[0].Tag("Annotator"), "nechecb ") {
			t.Errorf("%q: %s read back: %d games, %v", c.args, c.out, len(got), err)
		}
	}
	for _, f := range []string{"b.pdn", "e.pdn"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s written by a refused run", f)
		}
	}
}
