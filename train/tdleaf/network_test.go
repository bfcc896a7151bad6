package tdleaf

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	tdnet "github.com/nechecb/nechecb/eval/tdleaf"
)

func TestInputsAndHidden(t *testing.T) {
	in, err := ParseInputs("men:0.2, kings")
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 2 || in[0].Name() != "men" || in[0].Scale != 0.2 || in[1].Name() != "kings" || in[1].Scale != 1 {
		t.Errorf("inputs %+v", in)
	}
	// FormatInputs writes scales to 4 significant digits.
	again, err := ParseInputs(FormatInputs(tdnet.DefaultInputs))
	if err != nil || !cmp.Equal(again, tdnet.DefaultInputs, cmpopts.EquateApprox(1e-3, 0)) {
		t.Errorf("the default inputs do not survive FormatInputs: %v %+v", err, again)
	}
	if h, err := ParseHidden("6, 3"); err != nil || !cmp.Equal(h, []int{6, 3}) {
		t.Errorf("hidden %v %v", h, err)
	}
	for _, bad := range []string{"wealth", "men:x", ""} {
		if _, err := ParseInputs(bad); err == nil {
			t.Errorf("ParseInputs(%q) accepted", bad)
		}
	}
	if _, err := ParseHidden("6,x"); err == nil {
		t.Error(`ParseHidden("6,x") accepted`)
	}
}

func TestOpenNetwork(t *testing.T) {
	path := filepath.Join(t.TempDir(), "net.txt")
	in, _ := ParseInputs("men,kings")
	n, err := OpenNetwork(path, in, []int{3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(n.Sizes, []int{2, 3, 1}) {
		t.Errorf("new network sizes %v", n.Sizes)
	}
	if err := n.WriteFile(path, "test"); err != nil {
		t.Fatal(err)
	}
	// An existing network is resumed whatever the shape asked for.
	back, err := OpenNetwork(path, tdnet.DefaultInputs, []int{6, 6}, 2)
	if err != nil || !cmp.Equal(back.Sizes, n.Sizes) {
		t.Errorf("resumed network: %v, sizes %v", err, back.Sizes)
	}
}
