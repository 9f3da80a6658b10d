#!/bin/sh
# deleteat-overlay.sh GOROOT OUTDIR: writes OUTDIR/overlay.json, a `go build
# -overlay` file for the Go test binaries run under wine, and the one file
# it replaces: GOROOT's internal/syscall/windows/at_windows.go with
# STATUS_NOT_IMPLEMENTED added to the statuses on which Deleteat falls back
# from FileDispositionInformationEx (Windows 10 1607 and later) to the older
# FileDispositionInformation.
#
# Why: wine 8.0 (Debian 12) does not implement FileDispositionInformationEx
# and answers STATUS_NOT_IMPLEMENTED, a status on which Go does not fall
# back, so every os.Remove / os.RemoveAll fails there ("unlinkat ...:
# Invalid function"), and every test's t.TempDir() cleanup with it. Windows
# itself never answers so. Used for the tests under wine only: the shipped
# DLL and addon are built without it.
# The replacement is named at_windows.go.txt, not .go: it lies in the
# module's tree (build/out/), where gofmt and go vet ./... must not see it.
set -eu
goroot=$1 out=$2
src=$goroot/src/internal/syscall/windows/at_windows.go
mkdir -p "$out"
sed 's|^\([[:space:]]*\)STATUS_NOT_SUPPORTED:\(.*\)$|\1STATUS_NOT_SUPPORTED,\2\n\1NTStatus(0xC0000002): // STATUS_NOT_IMPLEMENTED: wine 8.0 (build/windows/deleteat-overlay.sh)|' \
	"$src" >"$out/at_windows.go.txt"
if ! grep -q 'NTStatus(0xC0000002)' "$out/at_windows.go.txt"; then
	echo "deleteat-overlay.sh: $src has no 'STATUS_NOT_SUPPORTED:' case to extend; update this script for this Go version" >&2
	exit 1
fi
printf '{"Replace":{"%s":"%s"}}\n' "$src" "$(realpath "$out")/at_windows.go.txt" >"$out/overlay.json"
