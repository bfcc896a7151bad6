#!/usr/bin/env bash
# Builds nechecb's release files from one commit into a folder (default
# dist/): the nechecb binary for linux/amd64, linux/arm64, darwin/amd64,
# darwin/arm64 and windows/amd64; the CheckerBoard library for Linux
# (nechecb-cb.so, built with the host's C compiler); the 64- and 32-bit
# Windows DLLs (nechecb64.dll, nechecb32.dll) when mingw-w64's compilers are
# installed; and SHA256SUMS over all of them.
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
build() { # build NAME GOOS GOARCH CGO CC [go build flags...]
	local name=$1 goos=$2 goarch=$3 cgo=$4 cc=$5
	shift 5
	echo "building $name ($goos/$goarch)" >&2
	CGO_ENABLED=$cgo CC=$cc GOOS=$goos GOARCH=$goarch go build -ldflags="$ldflags" -o "$out/$name" "$@"
	files+=("$name")
}

for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64; do
	goos=${target%/*} goarch=${target#*/}
	ext=""
	[ "$goos" = windows ] && ext=.exe
	build "nechecb-$goos-$goarch$ext" "$goos" "$goarch" 0 "" ./cmd/nechecb
done

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
