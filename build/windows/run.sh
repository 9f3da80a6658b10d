#!/bin/sh
# run.sh PROGRAM ARGS... - runs a Windows x64 program under wine64, headless,
# in fscache's test set-up. `make wine-prefix` copies this script to
# build/out/windows/run.sh, beside the prefix it uses:
#
#   WINEPREFIX   build/out/windows/prefix (never ~/.wine), reporting Windows 10;
#                its system32 holds the bcryptprimitives.dll stand-in
#                (build/windows/bcryptprimitives.c) that Go's runtime
#                needs and Debian 12's wine 8.0 lacks
#   WINEPATH     build/out/win32-x64, so programs find fscache.dll
#   no display   DISPLAY unset, WINEDEBUG=-all; the .NET and HTML installers
#                are turned off (WINEDLLOVERRIDES)
#
# Standard output and error go through files: under wine, Node cannot open a
# Unix pipe as its stdout (EBADF). They are copied out when the program ends;
# the exit status is the program's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)  # run from build/out/windows/
[ -f "$here/prefix/.fscache-ready" ] || { echo "run.sh: no wine prefix; run make wine-prefix first" >&2; exit 2; }
[ $# -ge 1 ] || { echo "usage: run.sh PROGRAM [ARGS...]" >&2; exit 2; }
unset DISPLAY WAYLAND_DISPLAY
export WINEPREFIX="$here/prefix" WINEARCH=win64 WINEDEBUG="${WINEDEBUG:--all}"
export WINEDLLOVERRIDES="mscoree,mshtml=;bcryptprimitives=n"
export WINEPATH="Z:$(echo "$top/build/out/win32-x64" | tr / '\\')${WINEPATH:+;$WINEPATH}"
wine=${WINE:-/usr/lib/wine/wine64}
out=$(mktemp "${TMPDIR:-/tmp}/fscache-wine.XXXXXX")
err=$(mktemp "${TMPDIR:-/tmp}/fscache-wine.XXXXXX")
trap 'rm -f "$out" "$err"' EXIT
rc=0
"$wine" "$@" <"${RUN_STDIN:-/dev/null}" >"$out" 2>"$err" || rc=$?
cat "$out"
cat "$err" >&2
exit "$rc"
