package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// exportNames reads the names of a DLL's export table from objdump -p.
func exportNames(t *testing.T, objdump, dll string) []string {
	t.Helper()
	out, err := exec.Command(objdump, "-p", dll).CombinedOutput()
	if err != nil {
		t.Fatalf("%s -p: %v\n%s", objdump, err, out)
	}
	text := string(out)
	i := strings.Index(text, "[Ordinal/Name Pointer] Table")
	if i < 0 {
		t.Fatalf("%s -p %s shows no export name table:\n%s", objdump, dll, text)
	}
	var names []string
	entry := regexp.MustCompile(`^\s*\[\s*\d+\]\s+(\S+)\s*$`)
	for _, line := range strings.Split(text[i:], "\n")[1:] {
		m := entry.FindStringSubmatch(line)
		if m == nil {
			break
		}
		names = append(names, m[1])
	}
	t.Logf("%s exports: %s", filepath.Base(dll), strings.Join(names, " "))
	return names
}

// TestWindowsDLLsExportTheAPI cross-compiles the 64-bit and 32-bit DLLs
// with mingw-w64 and checks that CheckerBoard finds getmove,
// enginecommand and enginename under those plain names. (Running them
// needs Windows: Debian's Wine lacks a DLL the Go runtime loads.)
func TestWindowsDLLsExportTheAPI(t *testing.T) {
	for _, c := range []struct{ arch, prefix string }{
		{"amd64", "x86_64-w64-mingw32"},
		{"386", "i686-w64-mingw32"},
	} {
		t.Run(c.arch, func(t *testing.T) {
			cc, err := exec.LookPath(c.prefix + "-gcc")
			if err != nil {
				t.Skipf("no %s-gcc: install Debian's gcc-mingw-w64 packages to build the windows/%s DLL", c.prefix, c.arch)
			}
			objdump, err := exec.LookPath(c.prefix + "-objdump")
			if err != nil {
				t.Skipf("no %s-objdump", c.prefix)
			}
			dll := filepath.Join(t.TempDir(), "nechecb-"+c.arch+".dll")
			cmd := exec.Command(goTool(), "build", "-buildmode=c-shared", "-o", dll, ".")
			cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "GOOS=windows", "GOARCH="+c.arch, "CC="+cc)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("building the windows/%s DLL: %v\n%s", c.arch, err, out)
			}
			names := exportNames(t, objdump, dll)
			for _, want := range []string{"getmove", "enginecommand", "enginename"} {
				if !slices.Contains(names, want) {
					t.Errorf("windows/%s DLL does not export %q (exports %q)", c.arch, want, names)
				}
			}
			// The DLL pins itself (shim.c): a Go library must not be unloaded.
			if out, _ := exec.Command(objdump, "-p", dll).Output(); !strings.Contains(string(out), "GetModuleHandleExA") {
				t.Errorf("windows/%s DLL does not import GetModuleHandleExA, so it cannot pin itself", c.arch)
			}
			for _, n := range names {
				if strings.ContainsAny(n, "@_") && !strings.HasPrefix(n, "nechecb_") {
					t.Errorf("windows/%s DLL exports a decorated name %q", c.arch, n)
				}
			}
		})
	}
}
