//go:build !js

package gui

import (
	"context"
	"errors"
	"fmt"
	"go/version"
	"os"
	"os/exec"
	"strings"
	"time"
)

// simdToolchain is the Go that builds the wasm with SIMD: from Go 1.27,
// simd/archsimd offers WebAssembly's 128-bit vectors under
// GOEXPERIMENT=simd. The go command fetches it from the module proxy
// (GOTOOLCHAIN) the first time and keeps it in the module cache.
const simdToolchain = "go1.27.3"

// toolchainWait bounds the time given to get simdToolchain (a download
// the first time); past it, the plain build is made.
const toolchainWait = 3 * time.Minute

// wasmBuild is how the export builds nechecb.wasm: by which Go, with or
// without SIMD.
type wasmBuild struct {
	goroot  string   // the Go's root, which holds its wasm_exec.js
	version string   // its version, as go env GOVERSION says it
	env     []string // what the build adds to the environment
	simd    bool     // built with GOEXPERIMENT=simd
	why     string   // why not, for a plain build
}

// String says which build it is.
func (b wasmBuild) String() string {
	if b.simd {
		return fmt.Sprintf("built by %s with GOEXPERIMENT=simd (WebAssembly SIMD)", b.version)
	}
	return fmt.Sprintf("plain build by %s, without SIMD (%s)", b.version, b.why)
}

// chooseWasmBuild decides how to build the wasm from the checkout at src:
// with SIMD by the go on PATH when it is Go 1.27 or later, else by
// toolchain (the export's: simdToolchain) through GOTOOLCHAIN, else
// (GOTOOLCHAIN=local or path, which fetch no toolchain, or that Go could
// not be had within toolchainWait)
// plainly by the go on PATH, with the reason. It fails only when the go
// on PATH cannot say its version.
func chooseWasmBuild(goCmd, src, toolchain string) (wasmBuild, error) {
	local, err := goEnv(goCmd, src, nil, time.Minute)
	if err != nil {
		return wasmBuild{}, err
	}
	simdEnv := []string{"GOEXPERIMENT=" + withExperiment(os.Getenv("GOEXPERIMENT"), "simd")}
	if version.Compare(local.version, "go1.27") >= 0 {
		local.env, local.simd = simdEnv, true
		return local, nil
	}
	if gt := os.Getenv("GOTOOLCHAIN"); gt == "local" || gt == "path" || strings.HasSuffix(gt, "+path") {
		local.why = fmt.Sprintf("GOTOOLCHAIN=%s fetches no toolchain and keeps %s, which has no WebAssembly SIMD", gt, local.version)
		return local, nil
	}
	pin := []string{"GOTOOLCHAIN=" + toolchain}
	simd, err := goEnv(goCmd, src, pin, toolchainWait)
	if err == nil && simd.version != toolchain {
		err = fmt.Errorf("GOTOOLCHAIN=%s ran %s", toolchain, simd.version)
	}
	if err != nil {
		local.why = fmt.Sprintf("%s, for WebAssembly SIMD, could not be had: %v", toolchain, err)
		return local, nil
	}
	simd.env, simd.simd = append(pin, simdEnv...), true
	return simd, nil
}

// goEnv asks the go command, run in src with env added, for its root and
// version, giving it wait.
func goEnv(goCmd, src string, env []string, wait time.Duration) (wasmBuild, error) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, goCmd, "env", "GOROOT", "GOVERSION")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return wasmBuild{}, fmt.Errorf("go env took over %v", wait)
	}
	if err != nil {
		// The last line says why (the ones before: what it tried).
		msg := strings.TrimSpace(stderr.String())
		msg = msg[strings.LastIndex(msg, "\n")+1:]
		if msg == "" {
			msg = err.Error()
		}
		return wasmBuild{}, errors.New(msg)
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 {
		return wasmBuild{}, fmt.Errorf("go env GOROOT GOVERSION answered %q", out)
	}
	return wasmBuild{goroot: lines[0], version: lines[1]}, nil
}

// withExperiment adds exp to a GOEXPERIMENT list.
func withExperiment(list, exp string) string {
	for _, e := range strings.Split(list, ",") {
		if e == exp {
			return list
		}
	}
	if list == "" {
		return exp
	}
	return list + "," + exp
}
