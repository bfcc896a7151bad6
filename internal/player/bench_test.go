package player

import (
	"strings"
	"testing"
)

func TestBench(t *testing.T) {
	var out strings.Builder
	nodes, _, err := Bench(&out, 2, 1, "material", Plain)
	if err != nil || nodes == 0 || !strings.Contains(out.String(), "nodes ") {
		t.Errorf("bench to depth 2: %d nodes, %v\n%s", nodes, err, out.String())
	}
	if _, _, err := Bench(&out, 2, 1, "nosuchkind", Play); err == nil || !strings.Contains(err.Error(), "nosuchkind") {
		t.Errorf("an unknown evaluator: %v", err)
	}
}
