package match

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/protocol/client"
)

func TestParseEngine(t *testing.T) {
	got, err := ParseEngine(`name=A cmd="./nechecb protocol" opts=Eval=neche:x.txt#last;Hash=16 opts=Book=2 proto=hub dir=/tmp`)
	if err != nil {
		t.Fatal(err)
	}
	want := client.Config{Name: "A", Command: []string{"./nechecb", "protocol"}, Dir: "/tmp", Dialect: client.Hub,
		Options: []client.Option{{Name: "Eval", Value: "neche:x.txt#last"}, {Name: "Hash", Value: "16"}, {Name: "Book", Value: "2"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseEngine (-want +got):\n%s", diff)
	}
	if c, err := ParseEngine("cmd=/usr/bin/eng"); err != nil || c.Name != "eng" {
		t.Errorf("default name: %+v %v", c, err)
	}
	for text, want := range map[string]string{
		"name=A":                 "no cmd=",
		"name=A cmd=x proto=dxp": "proto \"dxp\"",
		"name=A cmd=x color=red": "unknown key \"color\"",
		"name=A cmd=x opts=Hash": "not Name=Value",
		`name=A cmd="x`:          "unclosed quote",
		"name=A cmd=x stray":     "not key=value",
	} {
		if _, err := ParseEngine(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseEngine(%q): error %v, want %q", text, err, want)
		}
	}
}

func TestLoadOpenings(t *testing.T) {
	three, err := LoadOpenings("3move", false, io.Discard)
	if err != nil || len(three) != 157 {
		t.Fatalf("3move: %d openings, %v", len(three), err)
	}
	two, err := LoadOpenings("2move", false, io.Discard)
	if err != nil || len(two) != 43 {
		t.Fatalf("2move: %d openings, %v", len(two), err)
	}
	dir := t.TempDir()
	fen := filepath.Join(dir, "o.fen")
	os.WriteFile(fen, []byte("# two openings\nB:W21-32:B1-12\n\nW:W18,22-32:B1-11\n"), 0o644)
	got, err := LoadOpenings(fen, false, io.Discard)
	if err != nil || len(got) != 2 || got[1].Name != "o.fen:4" {
		t.Errorf("FEN file: %+v %v", got, err)
	}
	pdnFile := filepath.Join(dir, "o.pdn")
	os.WriteFile(pdnFile, []byte("[Event \"a\"]\n[Result \"*\"]\n\n1. 11-15 23-19 *\n"), 0o644)
	got, err = LoadOpenings(pdnFile, false, io.Discard)
	if err != nil || len(got) != 1 || got[0].Position.FEN() != "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15" {
		t.Errorf("PDN file: %+v %v", got, err)
	}
	// A bad game is skipped and named; with strict the file is refused.
	mixed := filepath.Join(dir, "mixed.pdn")
	os.WriteFile(mixed, []byte("[Event \"a\"]\n1. 11-15 zz *\n\n[Event \"b\"]\n1. 9-14 22-18 *\n"), 0o644)
	var report strings.Builder
	got, err = LoadOpenings(mixed, false, &report)
	if err != nil || len(got) != 1 || got[0].Name != "mixed.pdn#2" || !strings.Contains(report.String(), "openings: skipped: "+mixed+":2: game 1") {
		t.Errorf("PDN file with a bad game: %+v %v, report:\n%s", got, err, report.String())
	}
	if _, err := LoadOpenings(mixed, true, io.Discard); err == nil || !strings.Contains(err.Error(), "game 1") {
		t.Errorf("strict PDN file with a bad game: error %v", err)
	}
	bad := filepath.Join(dir, "bad.fen")
	os.WriteFile(bad, []byte("B:W21-32:B1-12\nX:nonsense\n"), 0o644)
	if _, err := LoadOpenings(bad, false, io.Discard); err == nil || !strings.Contains(err.Error(), "bad.fen:2") {
		t.Errorf("bad FEN file: error %v", err)
	}
	over := filepath.Join(dir, "over.fen")
	os.WriteFile(over, []byte("B:W21:B\n"), 0o644)
	if _, err := LoadOpenings(over, false, io.Discard); err == nil || !strings.Contains(err.Error(), "no legal move") {
		t.Errorf("finished position: error %v", err)
	}
	if _, err := LoadOpenings(filepath.Join(dir, "missing"), false, io.Discard); err == nil {
		t.Error("missing file accepted")
	}
}

func TestParseTimeControlAndSPRT(t *testing.T) {
	base, inc, err := ParseTimeControl("10+0.1")
	if err != nil || base != 10*time.Second || inc != 100*time.Millisecond {
		t.Errorf("10+0.1: %v %v %v", base, inc, err)
	}
	if base, inc, err := ParseTimeControl("60"); err != nil || base != time.Minute || inc != 0 {
		t.Errorf("60: %v %v %v", base, inc, err)
	}
	for _, bad := range []string{"", "x+1", "10+y", "-5+1", "10+-1"} {
		if _, _, err := ParseTimeControl(bad); err == nil {
			t.Errorf("ParseTimeControl(%q) accepted", bad)
		}
	}
	s, err := ParseSPRT("elo0=0 elo1=5 alpha=0.05 beta=0.1")
	if err != nil || *s != (elo.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1}) {
		t.Errorf("ParseSPRT: %+v %v", s, err)
	}
	for _, bad := range []string{"elo0=0", "elo0=0 elo1=5 gamma=1", "elo0=5 elo1=0", "elo0=x elo1=5"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("ParseSPRT(%q) accepted", bad)
		}
	}
}

func TestEnginesFlag(t *testing.T) {
	var e Engines
	for _, spec := range []string{`name=A cmd="./nechecb protocol"`, "cmd=/usr/bin/eng proto=hub"} {
		if err := e.Set(spec); err != nil {
			t.Fatal(err)
		}
	}
	if len(e) != 2 || e[0].Name != "A" || e[1].Name != "eng" || e.String() != "2 engines" {
		t.Errorf("read %+v (%s)", e, e.String())
	}
	if err := e.Set("name=C"); err == nil || len(e) != 2 {
		t.Errorf("an engine without cmd=: %v, %d engines", err, len(e))
	}
}
