#!/usr/bin/env bash
# Builds nechecb's release files from one commit into a folder (default
# dist/): the nechecb binary for linux/amd64, linux/arm64, darwin/amd64,
# darwin/arm64 and windows/amd64; the CheckerBoard library for Linux
# (nechecb-cb.so, built with the host's C compiler); the 64- and 32-bit
# Windows DLLs (nechecb64.dll, nechecb32.dll) when mingw-w64's compilers are
# installed; and SHA256SUMS over all of them. The arm64 files are built by
# Go 1.27 with GOEXPERIMENT=simd, for the net's NEON kernels, when that Go
# can be had; the script ends by naming each file's kernels.
#
#   scripts/release.sh [COMMIT] [OUTDIR]      (COMMIT defaults to HEAD)
#
# The files are built from a fresh clone of the commit, not from the working
# tree, so uncommitted changes never reach a release and Go stamps the
# module version (the commit's tag, or a pseudo-version naming it) and the
# commit into every file: `nechecb version` prints them. -trimpath and
# -buildid= keep the build folder out of the files, so building the same
# commit twice with the same Go gives the same bytes (compare SHA256SUMS).
set -euo pipefail
cd "$(dirname "$0")/.."

commit=$(git rev-parse --verify "${1:-HEAD}^{commit}")
out=$(mkdir -p "${2:-dist}" && cd "${2:-dist}" && pwd)
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT

git clone --quiet --shared --no-checkout "$(git rev-parse --path-format=absolute --git-common-dir)" "$src"
git -C "$src" -c advice.detachedHead=false checkout --quiet "$commit"
cd "$src"

# GOFLAGS may carry -buildvcs=false (some machines set it); the release
# wants the commit stamped. GOTOOLCHAIN=local: the Go named here builds it.
export GOFLAGS="-trimpath -buildvcs=true" GOTOOLCHAIN=local
ldflags="-s -w -buildid="

files=()
goenv=() # more environment for the go command of the next build
build() { # build NAME GOOS GOARCH CGO CC [go build flags...]
	local name=$1 goos=$2 goarch=$3 cgo=$4 cc=$5
	shift 5
	echo "building $name ($goos/$goarch)" >&2
	env "${goenv[@]}" CGO_ENABLED=$cgo CC=$cc GOOS=$goos GOARCH=$goarch go build -ldflags="$ldflags" -o "$out/$name" "$@"
	files+=("$name")
}

# The neural net's kernels (eval/nn): AVX2 assembly on amd64 with any Go;
# NEON on arm64 only when built by Go 1.27 with GOEXPERIMENT=simd
# (simd/archsimd), which the go command fetches from the module proxy.
# Where that Go cannot be had, the arm64 files get the plain-Go kernels.
neon=(GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd)
if ! env "${neon[@]}" go version >/dev/null 2>&1; then
	echo "go1.27.3 cannot be had: the arm64 files get the plain-Go kernels" >&2
	neon=()
fi

for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64; do
	goos=${target%/*} goarch=${target#*/}
	ext=""
	[ "$goos" = windows ] && ext=.exe
	goenv=()
	[ "$goarch" = arm64 ] && goenv=("${neon[@]}")
	build "nechecb-$goos-$goarch$ext" "$goos" "$goarch" 0 "" ./cmd/nechecb
done
goenv=()

# The CheckerBoard library is cgo: the Linux one (the test harness's) with
# the host compiler, the Windows DLLs with mingw-w64 where it is installed.
if [ "$(go env GOOS)" = linux ] && command -v "$(go env CC)" >/dev/null; then
	build nechecb-cb-linux-$(go env GOARCH).so linux "$(go env GOARCH)" 1 "$(go env CC)" -buildmode=c-shared ./cmd/nechecb-cb
	rm -f "$out/nechecb-cb-linux-$(go env GOARCH).h"
else
	echo "skipping the Linux CheckerBoard library: no Linux C compiler" >&2
fi
for dll in "nechecb64.dll amd64 x86_64-w64-mingw32-gcc" "nechecb32.dll 386 i686-w64-mingw32-gcc"; do
	read -r name goarch cc <<<"$dll"
	if command -v "$cc" >/dev/null; then
		build "$name" windows "$goarch" 1 "$cc" -buildmode=c-shared ./cmd/nechecb-cb
		rm -f "$out/${name%.dll}.h"
	else
		echo "skipping $name: $cc (mingw-w64) is not installed" >&2
	fi
done

cd "$out"
sha256sum "${files[@]}" >SHA256SUMS
echo "release of $commit in $out:" >&2
ls -l "${files[@]}" SHA256SUMS >&2

# Which net kernels each nechecb file runs, read from its build
# information (the Go that built it and its GOEXPERIMENT).
echo "net kernels (nechecb version names them on the machine itself):" >&2
for f in "${files[@]}"; do
	case $f in nechecb-cb-*) continue ;; nechecb-*-*) ;; *) continue ;; esac
	info=$(go version -m "$f")
	gover=$(head -1 <<<"$info" | awk '{print $2}')
	case $f in
	*-amd64*) kernels="AVX2 (plain Go on a CPU without it)" ;;
	*-arm64*) if grep -q "GOEXPERIMENT=.*simd" <<<"$info"; then kernels=NEON; else kernels="plain Go"; fi ;;
	*) kernels="plain Go" ;;
	esac
	echo "  $f: $kernels, built by $gover" >&2
done
