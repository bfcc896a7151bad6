package layering

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/nechecb/nechecb"

// pkg is one package of the module as go list reports it.
type pkg struct {
	path    string
	imports []string // direct
	deps    []string // all, transitively
}

// listPackages runs go list on the whole module.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	watchSources(t)
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{join .Imports ","}}|{{join .Deps ","}}`, module+"/...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, msg)
	}
	var pkgs []pkg
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("go list line %q", line)
		}
		pkgs = append(pkgs, pkg{path: f[0], imports: strings.Split(f[1], ","), deps: strings.Split(f[2], ",")})
	}
	return pkgs
}

// watchSources looks at every Go file of the module. go test caches a
// passing result until a file the test opened or looked at changes, and it
// does not see what the go list subprocess reads: without this, an import
// added elsewhere would not run the test again.
func watchSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != "../..") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// under reports whether path is the module's package dir or one below it.
func under(path, dir string) bool {
	p := module + "/" + dir
	return path == p || strings.HasPrefix(path, p+"/")
}

// TestImportsPointDown checks the layering rules. deps rules cover every
// import, direct or not; imports rules only the package's own imports.
func TestImportsPointDown(t *testing.T) {
	rules := []struct {
		from   string   // packages at or under this directory
		direct bool     // only the package from itself, and its direct imports
		not    []string // may not import these (or anything under them)
	}{
		{"engine", false, []string{"eval", "protocol", "train", "match", "internal/player", "internal/console", "books", "cmd"}},
		{"eval", false, []string{"engine/search", "train", "protocol", "match", "books", "cmd"}},
		{"internal/player", false, []string{"protocol", "train", "match", "cmd", "eval/all"}},
		{"protocol", false, []string{"eval/all", "train", "match", "cmd"}},
		// The server reaches the search and the evaluators through
		// internal/player and the binary's option setters only.
		{"protocol", true, []string{"eval", "books", "engine/search"}},
		{"train", false, []string{"protocol", "match", "internal/fleetrun", "internal/evolverun", "cmd"}},
		// The match runner is an application beside train: it drives engine
		// processes through protocol/client and links no evaluator, search
		// or learner of its own, and shows nothing itself: a display such
		// as the gui's watch page sees it through match.Observer.
		{"match", false, []string{"eval", "engine/search", "internal/player", "train", "internal/fleetrun", "internal/evolverun", "internal/gui", "cmd"}},
		// The fleet's assembly (coordinator and worker) stands on match and
		// train/unitplay, and the evolve command's run on the assembly;
		// only the binary is above them.
		{"internal/fleetrun", false, []string{"internal/evolverun", "cmd"}},
		{"internal/evolverun", false, []string{"cmd"}},
		// Work units are plain data checked with the rules alone, and the
		// fleet moves them without knowing how a unit is played: neither
		// reaches an evaluator, the search or a learner.
		{"internal/workunit", false, []string{"eval", "engine/search", "internal/player", "train", "match", "protocol", "books", "cmd"}},
		{"internal/fleet", false, []string{"eval", "engine/search", "internal/player", "train", "match", "protocol", "books", "cmd"}},
		// Only the binary links every evaluator.
		{"internal/console", false, []string{"eval/all", "protocol", "internal/cbapi", "internal/gui", "train", "match", "cmd"}},
		// The engine session is below every front end: front ends import
		// it, not each other.
		{"internal/session", false, []string{"eval/all", "protocol", "internal/cbapi", "internal/console", "internal/gui", "train", "match", "cmd"}},
		{"protocol", false, []string{"internal/cbapi", "internal/console", "internal/gui"}},
		{"internal/cbapi", false, []string{"eval/all", "protocol", "internal/console", "internal/gui", "train", "match", "cmd"}},
		// The browser front end stands on the session like the others.
		{"internal/gui", false, []string{"eval/all", "protocol", "internal/cbapi", "internal/console", "train", "match", "cmd"}},
		// The classification of a reviewed game's moves is shared by the
		// front ends that review games (the gui, nechecb analyse): it
		// stands on the player boundary alone.
		{"internal/review", false, []string{"eval/all", "internal/session", "protocol", "internal/gui", "train", "match", "cmd"}},
		{"internal/review", true, []string{"eval", "engine/search"}},
		// The batch analysis of PDN files is a front end beside the gui,
		// on the same session and review.
		{"internal/analyse", false, []string{"eval/all", "protocol", "internal/cbapi", "internal/console", "internal/gui", "train", "match", "cmd"}},
		{"internal/analyse", true, []string{"eval", "engine/search"}},
		// The binary's command table and flag types know no engine: the
		// commands' work is done in the packages they call.
		{"internal/cli", false, []string{"engine", "eval", "books", "train", "match", "protocol", "internal/player", "internal/session", "internal/gui", "cmd"}},
	}
	pkgs := listPackages(t)
	checked := map[string]int{}
	for _, p := range pkgs {
		for _, r := range rules {
			if !under(p.path, r.from) || r.direct && p.path != module+"/"+r.from {
				continue
			}
			checked[r.from]++
			list := p.deps
			if r.direct {
				list = p.imports
			}
			for _, d := range list {
				for _, bad := range r.not {
					if under(d, bad) {
						t.Errorf("%s imports %s (directly: %v); %s may not import %s", p.path, d, r.direct, r.from, bad)
					}
				}
			}
		}
	}
	// A rule that matched nothing would pass for nothing.
	for _, r := range rules {
		if checked[r.from] == 0 {
			t.Errorf("no package under %s: the rule checks nothing", r.from)
		}
	}
}
