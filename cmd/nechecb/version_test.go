package main

import (
	"debug/buildinfo"
	"strings"
	"testing"

	buildversion "github.com/nechecb/nechecb/internal/version"

	"github.com/nechecb/nechecb/internal/testbin"
)

// TestVersionFromBuild checks that a built binary reports the version its
// own build information gives, in `nechecb version` (with the kernels
// line, the same in this test's build) and in both protocol handshakes.
func TestVersionFromBuild(t *testing.T) {
	bin := testbin.Build(t)
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	want := buildversion.Of(info)
	if status, stdout, stderr := runBinary(t, bin, "version"); status != 0 || stdout != buildversion.Report(info)+kernelsLine() ||
		!strings.HasPrefix(stdout, "nechecb "+want+"\n") || stderr != "" {
		t.Errorf("nechecb version: status %d, stdout %q, stderr %q; want %q", status, stdout, stderr, buildversion.Report(info)+kernelsLine())
	}
	for _, tc := range []struct{ input, line string }{
		{"uci\n", "id name nechecb " + want + "\n"},
		{"hub\n", "id name=nechecb version=" + want + " "},
	} {
		if status, stdout, stderr := runBinaryInput(t, bin, tc.input, "protocol"); status != 0 || !strings.Contains(stdout, tc.line) {
			t.Errorf("%q: status %d, stderr %q; the handshake does not hold %q:\n%s", tc.input, status, stderr, tc.line, stdout)
		}
	}
}
