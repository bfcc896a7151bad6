// Package version owns nechecb's version string, stamped from the build
// (debug.ReadBuildInfo: the module version and the VCS revision), so that
// the binary and the CheckerBoard library report the same one.
package version

import (
	"regexp"
	"runtime/debug"
	"strings"
)

// devVersion is the version of a binary built without a module version
// (go build in a checkout reports "(devel)"), before the VCS revision is added.
const devVersion = "0.1.0-dev"

// String is the engine's version, from the build: what the protocol
// handshakes (`id name`, Hub `id version=`), the usage text, `nechecb
// version` and the CheckerBoard library's name report.
var String = func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return devVersion
	}
	return Of(info)
}()

// pseudoRevision matches the end of a Go pseudo-version,
// v0.0.0-20261123045808-efdc9e54e1ae, which already names the revision.
var pseudoRevision = regexp.MustCompile(`-\d{14}-([0-9a-f]{12})$`)

// Of builds the version from the build information: the main
// module's version (devVersion when it is "(devel)" or empty), then
// "+REVISION" (12 hex digits of vcs.revision) unless the version already
// names it, then "-dirty" when vcs.modified says the tree had changes.
func Of(info *debug.BuildInfo) string {
	v := strings.TrimSuffix(info.Main.Version, "+dirty") // Go's own mark; -dirty is added below
	if v == "" || v == "(devel)" {
		v = devVersion
	}
	var revision string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(revision) > 12 {
		revision = revision[:12]
	}
	if m := pseudoRevision.FindStringSubmatch(v); revision != "" && (m == nil || m[1] != revision) {
		v += "+" + revision
	}
	if modified {
		v += "-dirty"
	}
	return v
}

// Report describes the build for `nechecb version`: the version, then the
// module's path and version, then the commit with its time (and whether the
// tree had uncommitted changes), then the Go toolchain and platform. A build
// without VCS information (-buildvcs=false, as some machines set in GOFLAGS,
// or a build outside a git checkout) says so on the commit line instead of
// leaving a bare version.
func Report(info *debug.BuildInfo) string {
	if info == nil {
		return "nechecb " + devVersion + "\nno build information in this binary\n"
	}
	var b strings.Builder
	b.WriteString("nechecb " + Of(info) + "\n")
	b.WriteString("module " + info.Main.Path + " " + cmpOr(info.Main.Version, "(devel)") + "\n")
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		b.WriteString("commit " + rev)
		if t := settings["vcs.time"]; t != "" {
			b.WriteString(" (" + t + ")")
		}
		if settings["vcs.modified"] == "true" {
			b.WriteString(", built with uncommitted changes")
		}
		b.WriteString("\n")
	} else {
		b.WriteString("commit unknown: built without VCS information (-buildvcs=false, or not in a git checkout)\n")
	}
	b.WriteString(info.GoVersion)
	if goos, goarch := settings["GOOS"], settings["GOARCH"]; goos != "" {
		b.WriteString(" " + goos + "/" + goarch)
	}
	b.WriteString("\n")
	return b.String()
}

// cmpOr returns s, or alt when s is empty.
func cmpOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
