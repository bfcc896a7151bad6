package cli

import (
	"flag"
	"slices"
	"testing"
)

func TestFlagValue(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dir", "x", "--mode", "improved"}, "improved"},
		{[]string{"-mode=improved", "--dir", "x"}, "improved"},
		{[]string{"--dir", "mode"}, "faithful"},
		{[]string{"--mode"}, "faithful"},
		{nil, "faithful"},
	} {
		if got := FlagValue(tc.args, "mode", "faithful"); got != tc.want {
			t.Errorf("FlagValue(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestListFlags(t *testing.T) {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	var specs Repeated
	names := NameList{"g1"}
	var rates RateList
	fs.Var(&specs, "vs", "")
	fs.Var(&names, "ladder", "")
	fs.Var(&rates, "rates", "")
	if err := fs.Parse([]string{"--vs", "a", "--vs", "b c", "--ladder", " g1, heuristic ,", "--rates", "0.5, 2,"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(specs, Repeated{"a", "b c"}) || !slices.Equal(names, NameList{"g1", "heuristic"}) || !slices.Equal(rates, RateList{0.5, 2}) {
		t.Errorf("read %q, %q, %v", specs, names, rates)
	}
	if names.String() != "g1,heuristic" || rates.String() != "0.5,2" || specs.String() != "a, b c" {
		t.Errorf("written %q, %q, %q", names.String(), rates.String(), specs.String())
	}
	if err := fs.Set("ladder", ""); err != nil || len(names) != 0 {
		t.Errorf("an empty --ladder: %v, %q", err, names)
	}
	if err := fs.Set("rates", "0.1,x"); err == nil {
		t.Error("a rate that is not a number was taken")
	}
}

func TestModes(t *testing.T) {
	if got := Modes(3, 3); got != "" {
		t.Errorf("equal defaults: %q", got)
	}
	if got := Modes(false, true); got != " (faithful false, improved true)" {
		t.Errorf("different defaults: %q", got)
	}
}

func TestAssignments(t *testing.T) {
	var a Assignments
	for _, v := range []string{" Hash =64", "Eval=neche:x.txt#last", "BookFile="} {
		if err := a.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	want := Assignments{{"Hash", "64"}, {"Eval", "neche:x.txt#last"}, {"BookFile", ""}}
	if !slices.Equal(a, want) {
		t.Errorf("read %q, want %q", a, want)
	}
	for _, bad := range []string{"Hash", "=3", " =3"} {
		if err := a.Set(bad); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
}

func TestSetExcept(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.String("out", "", "")
	fs.String("remark", "", "")
	fs.Int("epochs", 1, "")
	fs.Bool("resume", false, "")
	if err := fs.Parse([]string{"--out", "o", "--epochs=3", "--resume"}); err != nil {
		t.Fatal(err)
	}
	if got := SetExcept(fs, "out", "remark"); !slices.Equal(got, []string{"--epochs", "--resume"}) {
		t.Errorf("SetExcept gives %v, want [--epochs --resume]", got)
	}
	if got := SetExcept(fs, "out", "epochs", "resume"); len(got) != 0 {
		t.Errorf("with every set flag allowed: %v, want none", got)
	}
}
