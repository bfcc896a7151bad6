package version

import (
	"runtime/debug"
	"strings"
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

// TestReport: `nechecb version` names the module version and the commit,
// and says so when the build carried no VCS information.
func TestReport(t *testing.T) {
	const rev = "efdc9e54e1aee52dfd79f894f446c0ed091b4a52"
	withVCS := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/nechecb/nechecb", Version: "v0.0.0-20261123045808-efdc9e54e1ae"},
		Settings: []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "arm64"}, {Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-11-23T04:58:08Z"}, {Key: "vcs.modified", Value: "false"}}}
	want := "nechecb v0.0.0-20261123045808-efdc9e54e1ae\nmodule github.com/nechecb/nechecb v0.0.0-20261123045808-efdc9e54e1ae\n" +
		"commit " + rev + " (2026-11-23T04:58:08Z)\ngo1.26.8 linux/arm64\n"
	if got := Report(withVCS); got != want {
		t.Errorf("Report with VCS information:\n%s\nwant:\n%s", got, want)
	}
	noVCS := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/nechecb/nechecb", Version: "(devel)"}}
	if got := Report(noVCS); !strings.Contains(got, "nechecb "+devVersion+"\nmodule github.com/nechecb/nechecb (devel)\ncommit unknown: built without VCS information") {
		t.Errorf("Report without VCS information:\n%s", got)
	}
}
