package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/protocol"
)

// docTable reads the option table of a document whose header row starts
// with "| <first> |" and returns, for each row, the UCI handshake line that
// the row describes (name, type, default, range or values).
func docTable(t *testing.T, doc, first string) []string {
	t.Helper()
	var lines []string
	in := false
	for _, row := range strings.Split(doc, "\n") {
		if strings.HasPrefix(row, "| "+first+" |") {
			in = true
			continue
		}
		if !in || strings.HasPrefix(row, "|---") {
			continue
		}
		if !strings.HasPrefix(row, "|") {
			break
		}
		cells := strings.Split(row, "|")
		if len(cells) < 6 {
			t.Fatalf("PROTOCOL.md: option row %q has fewer than 5 columns", row)
		}
		cell := func(i int) string { return strings.Trim(strings.TrimSpace(cells[i]), "`") }
		name, kind, def, rng := cell(1), cell(2), cell(3), strings.TrimSpace(cells[4])
		line := "option name " + name + " type " + kind + " default " + def
		switch kind {
		case "spin":
			lo, hi, ok := strings.Cut(rng, "..")
			if !ok {
				t.Fatalf("PROTOCOL.md: spin option %s has range %q, want MIN..MAX", name, rng)
			}
			line += " min " + lo + " max " + hi
		case "combo":
			for _, v := range strings.Fields(rng) {
				line += " var " + strings.Trim(v, "`")
			}
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		t.Fatalf("PROTOCOL.md has no table headed %q", first)
	}
	return lines
}

// TestOptionsMatchProtocolDoc compares PROTOCOL.md with the binary's option
// list: the options table and the example session with the uci handshake,
// and the hidden options with PROTOCOL.md's hidden option table followed by
// the experiment options of docs/search-experiments.md.
func TestOptionsMatchProtocolDoc(t *testing.T) {
	data, err := os.ReadFile("../../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	// PROTOCOL.md shows the default of a machine with AVX2 (all.DefaultSpec).
	doc := strings.ReplaceAll(string(data), "option name Eval type string default nn", "option name Eval type string default "+all.DefaultSpec)
	doc = strings.ReplaceAll(doc, "| `Eval` | string | `nn` |", "| `Eval` | string | `"+all.DefaultSpec+"` |")
	var handshake, example []string
	for _, line := range strings.Split(serveScript(t, "uci\n"), "\n") {
		if strings.HasPrefix(line, "option ") {
			handshake = append(handshake, line)
		}
	}
	for _, line := range strings.Split(doc, "\n") {
		if l, ok := strings.CutPrefix(line, "< "); ok && strings.HasPrefix(l, "option name ") {
			example = append(example, l)
		}
	}
	if table := docTable(t, doc, "option"); !cmp.Equal(table, handshake) {
		t.Errorf("PROTOCOL.md's option table and the uci handshake differ (-doc +handshake):\n%s", cmp.Diff(table, handshake))
	}
	// The handshake section shows the first option only; the example
	// session after it shows them all.
	if len(example) < len(handshake) {
		t.Errorf("PROTOCOL.md's example session shows %d options, the handshake has %d", len(example), len(handshake))
	} else if tail := example[len(example)-len(handshake):]; !cmp.Equal(tail, handshake) {
		t.Errorf("PROTOCOL.md's example session and the uci handshake differ (-doc +handshake):\n%s", cmp.Diff(tail, handshake))
	}
	var hidden []string
	for _, o := range protocol.SessionOptions(testSession(t).Options()) {
		if o.Hidden() {
			hidden = append(hidden, o.String())
		}
	}
	experiments, err := os.ReadFile("../../docs/search-experiments.md")
	if err != nil {
		t.Fatal(err)
	}
	table := append(docTable(t, string(experiments), "experiment option"), docTable(t, doc, "hidden option")...)
	if !cmp.Equal(table, hidden) {
		t.Errorf("the hidden option tables (docs/search-experiments.md, PROTOCOL.md) and the hidden options differ (-doc +options):\n%s", cmp.Diff(table, hidden))
	}
}

// TestHiddenOptionsReachTheSearch sets the hidden options through the
// protocol and checks the engine's experiment settings.
func TestHiddenOptionsReachTheSearch(t *testing.T) {
	sess := testSession(t)
	eng := sess.Engine()
	out := serveScriptWith(t, sess, "setoption name ExpNoLMR value true\nsetoption name ExpLMRDepth value 5\n"+
		"setoption name ExpThreat value 2\nsetoption name ExpSingleReply value true\nsetoption name ExpLMRMoves value 65\nisready\n")
	if want := "info string error: setoption: option ExpLMRMoves: 65 is outside 0..64\nreadyok\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	if got, want := eng.Options().Tuning, (player.Tuning{NoLMR: true, LMRDepth: 5, ThreatPlies: 2, SingleReply: true}); got != want {
		t.Errorf("experiment settings %+v, want %+v", got, want)
	}
}
