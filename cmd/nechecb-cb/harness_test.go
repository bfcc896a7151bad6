package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// The library and the harness are built once per test process: cgo builds
// are slow on a shared machine.
var build struct {
	once          sync.Once
	dir           string
	lib, harness  string
	skip, failure string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	os.Exit(code)
}

// goTool returns the go command, as internal/testbin runs it: the one on
// PATH, which is the toolchain that runs go test.
func goTool() string { return "go" }

// buildHarness builds the .so and the C harness, or skips the test when
// there is no C compiler.
func buildHarness(t *testing.T) (lib, harness string) {
	t.Helper()
	build.once.Do(func() {
		if runtime.GOOS != "linux" {
			build.skip = "the harness dlopens a Linux .so; this is " + runtime.GOOS
			return
		}
		cc, err := exec.LookPath("cc")
		if err != nil {
			build.skip = "no C compiler (cc) on PATH: the CheckerBoard harness needs one to build the library and itself"
			return
		}
		dir, err := os.MkdirTemp("", "cbharness")
		if err != nil {
			build.failure = err.Error()
			return
		}
		build.dir = dir
		build.lib = filepath.Join(dir, "nechecb-cb.so")
		build.harness = filepath.Join(dir, "harness")
		steps := [][]string{
			// Without VCS stamping the library reports the same version as
			// this test binary, in a clean checkout too (where go build
			// would stamp a pseudo-version from the commit).
			{goTool(), "build", "-buildvcs=false", "-buildmode=c-shared", "-o", build.lib, "."},
			{cc, "-O1", "-Wall", "-Wextra", "-Werror", "-o", build.harness, "testdata/cbharness/harness.c", "-ldl", "-pthread"},
		}
		for _, s := range steps {
			cmd := exec.Command(s[0], s[1:]...)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				build.failure = fmt.Sprintf("%s: %v\n%s", strings.Join(s, " "), err, out)
				return
			}
		}
	})
	switch {
	case build.skip != "":
		t.Skip(build.skip)
	case build.failure != "":
		t.Fatal(build.failure)
	}
	return build.lib, build.harness
}

// harness is one running harness process.
type harness struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startHarness runs the harness on the library and makes CheckerBoard's
// start-up calls, checking their answers.
func startHarness(t *testing.T) *harness {
	lib, bin := buildHarness(t)
	cmd := exec.Command(bin, lib)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, cmd: cmd, in: in, out: bufio.NewScanner(out)}
	h.out.Buffer(make([]byte, 1<<16), 1<<20)
	t.Cleanup(h.close)
	h.send("startup")
	for _, want := range []string{
		"reply 1 nechecb " + version, // name
		"enginename 1 nechecb " + version,
		"reply 1 2",          // get protocolversion
		"reply 1 21",         // get gametype
		"reply 1 movelist 0", // get movelist B:W1:B
		"reply 1 hashsize 16",
		"reply 1 0", // get book
		"startup-done",
	} {
		if got := h.read(); got != want {
			t.Fatalf("start-up: %q, want %q", got, want)
		}
	}
	return h
}

func (h *harness) send(lines ...string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, strings.Join(lines, "\n")+"\n"); err != nil {
		h.t.Fatalf("writing to the harness: %v", err)
	}
}

func (h *harness) read() string {
	h.t.Helper()
	if !h.out.Scan() {
		h.t.Fatalf("the harness ended early: %v", h.out.Err())
	}
	return h.out.Text()
}

func (h *harness) close() {
	io.WriteString(h.in, "quit\n")
	h.in.Close()
	if err := h.cmd.Wait(); err != nil {
		h.t.Errorf("harness: %v", err)
	}
}

// cbBoard writes p as the API's board, board[x][y] in memory order, from
// the spec's formula (written out here on its own, not taken from cbapi).
func cbBoard(p *engine.Position) string {
	var b [64]int
	codes := map[engine.Piece]int{engine.BlackMan: 6, engine.BlackKing: 10, engine.WhiteMan: 5, engine.WhiteKing: 9}
	for n := 1; n <= 32; n++ {
		n0 := n - 1
		y := n0 / 4
		x := 2*(3-n0%4) + y%2
		b[x*8+y] = codes[p.PieceAt(n)]
	}
	return strings.Trim(fmt.Sprint(b), "[]")
}

// colorArg is getmove's color for the side to move.
func colorArg(p *engine.Position) int {
	if p.Side == engine.White {
		return 1
	}
	return 2
}

// successors writes the boards after each legal move of p, in the order of
// moves, as the harness reads them.
func successors(p *engine.Position, moves []engine.Move) []string {
	out := []string{cbBoard(p)}
	for _, m := range moves {
		q := p.Play(m)
		out = append(out, cbBoard(&q))
	}
	return out
}

// gameHist is the "set gamehist" command CheckerBoard sends before a
// getmove in g: the position after the last capture or man move, then the
// king moves since, as from-to.
func gameHist(g *engine.Game) string {
	positions, moves := g.Positions(), g.Moves()
	i := len(moves)
	for i > 0 {
		m, before := moves[i-1], positions[i-1]
		if m.IsCapture() || before.Kings&engine.SquareBit(m.FromSquare()) == 0 {
			break
		}
		i--
	}
	parts := []string{"set gamehist", positions[i].FEN()}
	for _, m := range moves[i:] {
		parts = append(parts, fmt.Sprintf("%d-%d", m.FromSquare(), m.ToSquare()))
	}
	return strings.Join(parts, " ")
}
