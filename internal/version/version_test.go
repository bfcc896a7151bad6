package version

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	const rev = "efdc9e54e1aee52dfd79f894f446c0ed091b4a52"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"no module version, no VCS", "", nil, devVersion},
		{"go build in a checkout without VCS stamping", "(devel)", nil, devVersion},
		{"devel with a clean revision", "(devel)", vcs("false"), devVersion + "+efdc9e54e1ae"},
		{"devel with changes", "(devel)", vcs("true"), devVersion + "+efdc9e54e1ae-dirty"},
		{"go install of a release", "v1.2.0", nil, "v1.2.0"},
		{"a tagged checkout", "v1.2.0", vcs("false"), "v1.2.0+efdc9e54e1ae"},
		{"a tagged checkout with changes", "v1.2.0+dirty", vcs("true"), "v1.2.0+efdc9e54e1ae-dirty"},
		{"a pseudo-version names the revision once", "v0.0.0-20261123045808-efdc9e54e1ae", vcs("false"), "v0.0.0-20261123045808-efdc9e54e1ae"},
		{"a pseudo-version with changes", "v0.0.0-20261123045808-efdc9e54e1ae+dirty", vcs("true"), "v0.0.0-20261123045808-efdc9e54e1ae-dirty"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/nechecb/nechecb", Version: tc.version}, Settings: tc.settings}
		if got := Of(info); got != tc.want {
			t.Errorf("%s: Of(%q, %v) = %q, want %q", tc.name, tc.version, tc.settings, got, tc.want)
		}
	}
}
