#!/usr/bin/env bash
# build/omp-session/run.sh BUN REAL_DIR OVERLAY_DIR WORK
#
# A scripted oh-my-pi session (session.mjs) run by BUN twice: in REAL_DIR, a
# directory whose node_modules holds @oh-my-pi/pi-coding-agent with the real
# @oh-my-pi/pi-natives, and in OVERLAY_DIR, the same agent with the overlay
# installed as @oh-my-pi/pi-natives (bindings/pi-natives-overlay/README.md);
# then compare.mjs: every tool result the model received and the system
# prompt's workspace tree, per mtime spacing (1 s, 1 ms, 100 µs), must be
# identical. Exits 1 and prints each difference when they are not.
#
# make test-dist runs it (build/test-dist.sh: REAL_DIR is a `bun install -g`
# of the agent, OVERLAY_DIR a project installed with the README's
# `overrides`, BUN Bun 1.3.14). By hand, against any two such installs:
#
#   build/omp-session/run.sh ~/.cache/fscache/bun-1.3.14/node_modules/.bin/bun \
#       /path/to/real-project /path/to/overlay-project /tmp/omp-session
#
# WORK holds the trees and the agent's files (both sides use the same paths);
# the recordings and the comparison are written to $FSCACHE_OMP_SESSION_OUT
# (default WORK): real.json, overlay.json, compare.txt. The sessions run with
# HOME in WORK and a PATH of BUN alone.
set -euo pipefail
if [ $# -ne 4 ]; then
	sed -n '2,/^set /p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
bun=$(realpath "$1") real=$(realpath "$2") overlay=$(realpath "$3") work=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
work=$(realpath "$work")
out=${FSCACHE_OMP_SESSION_OUT:-$work}
mkdir -p "$out" "$work/bin" "$work/home"
ln -sf "$bun" "$work/bin/bun"

# side NAME DIR: the session from DIR (where the agent resolves), recorded in
# $out/NAME.json; the tree and agent directories are rebuilt under the same
# path each time.
side() {
	local name=$1 dir=$2 start=$SECONDS
	cp "$here/session.mjs" "$dir/omp-session.mjs"
	rm -rf "$work/trees"
	(cd "$dir" && env -i HOME="$work/home" TMPDIR="${TMPDIR:-/tmp}" PATH="$work/bin" \
		bun omp-session.mjs "$out/$name.json" "$work/trees")
	rm -f "$dir/omp-session.mjs"
	echo "omp-session: the $name side in $((SECONDS - start)) s"
}
side real "$real"
side overlay "$overlay"
node "$here/compare.mjs" "$out/real.json" "$out/overlay.json" | tee "$out/compare.txt"
exit "${PIPESTATUS[0]}"
