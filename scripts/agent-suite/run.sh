#!/usr/bin/env bash
# run.sh GIT_DIR REV WORKDIR: the coding agent's own tests, with the real
# pi-natives and with fscache's overlay in its place, compared per test.
#
#   GIT_DIR   a bare git directory of the oh-my-pi monorepo (the search tool's
#             `fetch` of a snapshot gives one under /work/.mirror/)
#   REV       a tag or commit of it, e.g. v14.9.9, v17.3.5 or v18.0.0
#   WORKDIR   outside this repository, e.g. /work/agent-run/v18.0.0
#
# Steps (each done once; delete WORKDIR/<step> to redo it):
#   src/            the tree of REV (export.mjs), then `bun install --ignore-scripts`
#                   and the generated sources tests import (gen:tool-views,
#                   generate-docs-index). The files the snapshot lacks are
#                   listed in src/.missing; one matched by FILL_MISSING is
#                   taken from the newest commit of REV's history whose
#                   version the snapshot has (src/.filled: path, commit);
#                   every run stops (exit 2) when one of the others is not
#                   matched by ALLOW_MISSING, naming them
#   published/      npm install of @oh-my-pi/pi-natives@<PI_NATIVES, default
#                   the version of REV's packages/natives>: its linux-x64
#                   addon is copied into src/packages/natives/native/, which
#                   has none (installed again when PI_NATIVES changes)
#   side-overlay/   npm install of dist/fscache-pi-natives-*.tgz as
#                   @oh-my-pi/pi-natives (its @oh-my-pi/pi-natives-real the
#                   same version), its @oh-my-pi/pi-natives-real then
#                   pointed at src/packages/natives
#   tests.txt       the test files that exercise glob, fuzzyFind, grep,
#                   invalidateFsScanCache, listWorkspace (select.mjs)
#                   (every listed file must be in src/, or the run stops)
#   results/<side>/ one `bun test` per file and side, with a timeout, JUnit report
# then compare.mjs prints per-file, per-side counts, every difference and the
# file failures (a file that did not load, timed out or wrote no report), and
# its exit status is run.sh's: 0 both sides ran every file with the same
# outcome for every test, 1 differences, 3 none but files failed on both sides.
#
# node_modules/@oh-my-pi/pi-natives is pointed at one side, then the other,
# and is left pointing at the workspace's packages/natives (the real side).
#
# Environment: BUN (default: this repository's bindings/node bun), DIST (the
# directory of `make dist`, default dist/), TEST_TIMEOUT (seconds per test
# file, default 300), FILES (a file of test paths instead of tests.txt),
# SIDES (default "real overlay"), PI_NATIVES (the published pi-natives
# version whose addon both sides run, default REV's own: v18.0.0's 18.0.0 is
# not on the registry, so PI_NATIVES=18.0.3), FILL_MISSING (shell patterns,
# space-separated, of the files the snapshot lacks to take from REV's
# history, default none: v18.0.0 needs packages/catalog/src/models.json),
# ALLOW_MISSING (shell patterns, space-separated, of the files the snapshot
# may lack: default "assets/* crates/*", the README's images and the Rust
# sources, which the run does not read; "" to allow none).
# Needs node, npm and git. Not run by CI; its self-test, run.test.mjs, is.
set -euo pipefail
[[ $# -eq 3 ]] || { sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2; }
git_dir=$(realpath "$1") rev=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bun=${BUN:-$top/bindings/node/node_modules/.bin/bun}
dist=$(realpath "${DIST:-$top/dist}")
timeout_s=${TEST_TIMEOUT:-300}
sides=${SIDES:-real overlay}
mkdir -p "$work"
work=$(realpath "$work")
case "$work/" in "$top/"*) echo "run.sh: WORKDIR must be outside the repository" >&2; exit 2 ;; esac
[[ -x "$bun" ]] || { echo "run.sh: no bun at $bun (make node-deps, or set BUN)" >&2; exit 2; }
bun=$(realpath "$bun") # it runs in other directories: BUN may be relative
overlay_tgz=$(ls "$dist"/fscache-pi-natives-*.tgz 2>/dev/null | head -1)
[[ -n "$overlay_tgz" ]] || { echo "run.sh: no overlay tarball in $dist: run make dist" >&2; exit 2; }
version=$(basename "$overlay_tgz" .tgz); version=${version#fscache-pi-natives-}
src=$work/src
# The agent's scripts and some of its tests run `bun` by name.
mkdir -p "$work/bin"
ln -sfn "$bun" "$work/bin/bun"
export PATH=$work/bin:$PATH

# 1. The tree and its dependencies.
if [[ ! -f $src/.exported || ! -f $src/.missing ]]; then
	rm -rf "$src"
	node "$here/export.mjs" "$git_dir" "$rev" "$src" --missing "$src/.missing"
	touch "$src/.exported"
fi
# The files the snapshot lacks (export.mjs skipped them): a test importing one
# fails to load on both sides (v18.0.0's snapshot lacks
# packages/catalog/src/models.json), so the run stops unless each is filled
# (FILL_MISSING: its newest version in REV's history that the snapshot has,
# listed in src/.filled with its commit) or allowed (ALLOW_MISSING).
matches() { # FILE PATTERN...: does FILE match one of the shell patterns?
	local f=$1 pat
	shift
	for pat in "$@"; do
		# shellcheck disable=SC2053 # $pat is a pattern
		[[ $f == $pat ]] && return 0
	done
	return 1
}
read -ra allow_missing <<<"${ALLOW_MISSING-assets/* crates/*}"
read -ra fill_missing <<<"${FILL_MISSING-}"
touch "$src/.filled"
lacking=()
while IFS= read -r f; do
	[[ -n $f ]] || continue
	if grep -qxF "$f" <(cut -f1 "$src/.filled"); then continue; fi
	if matches "$f" ${fill_missing[@]+"${fill_missing[@]}"}; then
		from=
		for c in $(git --git-dir="$git_dir" log --format=%H "$rev" -- "$f"); do
			blob=$(git --git-dir="$git_dir" rev-parse --verify -q "$c:$f") || continue
			if git --git-dir="$git_dir" cat-file -e "$blob" 2>/dev/null; then from=$c; break; fi
		done
		if [[ -n $from ]]; then
			mkdir -p "$(dirname "$src/$f")"
			git --git-dir="$git_dir" cat-file blob "$blob" >"$src/$f"
			printf '%s\t%s\n' "$f" "$from" >>"$src/.filled"
			echo "run.sh: $f (not in the snapshot at $rev) taken from $from, $(git --git-dir="$git_dir" log -1 --format='%ad: %s' --date=short "$from")"
			continue
		fi
		echo "run.sh: FILL_MISSING: no version of $f before $rev is in the snapshot" >&2
	fi
	matches "$f" ${allow_missing[@]+"${allow_missing[@]}"} || lacking+=("$f")
done <"$src/.missing"
if [[ ${#lacking[@]} -gt 0 ]]; then
	{
		echo "run.sh: $rev's tree has files the snapshot in $git_dir lacks (snapshots leave out files of 4 MiB and more), not allowed by ALLOW_MISSING (\"${ALLOW_MISSING-assets/* crates/*}\"):"
		printf '  %s\n' "${lacking[@]}"
		echo "run.sh: stopping: a test that reads one of them would fail to load on both sides. Use a GIT_DIR that has them (and delete $src), take an earlier version of them from the snapshot (FILL_MISSING), or allow them in ALLOW_MISSING."
	} >&2
	exit 2
fi
if [[ ! -f $src/.installed ]]; then
	(cd "$src" && "$bun" install --ignore-scripts)
	# Generated sources the tests import: the HTML export's tool views (17.x
	# on), the docs index (14.x; later versions generate it themselves).
	for script in gen:tool-views generate-docs-index; do
		if grep -q "\"$script\"" "$src/packages/coding-agent/package.json"; then
			(cd "$src/packages/coding-agent" && "$bun" run "$script")
		fi
	done
	touch "$src/.installed"
fi
tree_natives=$(node -p "require('$src/packages/natives/package.json').version")
natives=${PI_NATIVES:-$tree_natives}
[[ $natives =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || { echo "run.sh: PI_NATIVES wants a version, got \"$natives\"" >&2; exit 2; }
if [[ $natives == "$tree_natives" ]]; then
	echo "run.sh: $rev, pi-natives $natives, bun $("$bun" --version), fscache overlay $version"
else
	echo "run.sh: $rev, pi-natives $natives (PI_NATIVES; $rev's packages/natives is $tree_natives), bun $("$bun" --version), fscache overlay $version"
fi

# 2. The two sides. The tree's packages/natives has the JavaScript of REV but
# no addon (it is built from Rust): the published addon of the same version
# (or of PI_NATIVES) is copied into it. (pi-natives' loader checks the
# addon's version sentinel only outside a workspace: 18.x's loads an addon of
# another version from packages/natives/native/.) Side "real" is that package, as the workspace links it;
# side "overlay" is the overlay package, its @oh-my-pi/pi-natives-real
# pointed at that same package. Both sides run REV's own pi-natives JavaScript
# and the same addon; only glob & co. differ.
side_install() { # DIR PACKAGE_JSON (installed again when PACKAGE_JSON changes)
	if [[ ! -f $1/.installed || $(cat "$1/package.json") != "$2" ]]; then
		rm -rf "$1" && mkdir -p "$1"
		printf '%s\n' "$2" >"$1/package.json"
		(cd "$1" && npm install --no-audit --no-fund --loglevel=error) || {
			echo "run.sh: npm install in $1 failed: is @oh-my-pi/pi-natives@$natives on the registry? (PI_NATIVES picks another version)" >&2
			exit 2
		}
		touch "$1/.installed"
	fi
}
side_install "$work/published" "{\"name\":\"published\",\"private\":true,\"dependencies\":{\"@oh-my-pi/pi-natives\":\"$natives\"}}"
addons=$(find "$work/published/node_modules/@oh-my-pi" -name 'pi_natives.linux-x64*.node')
[[ -n $addons ]] || { echo "run.sh: no linux-x64 addon in the published pi-natives $natives" >&2; exit 1; }
cp $addons "$src/packages/natives/native/"
side_install "$work/side-overlay" "{\"name\":\"side-overlay\",\"private\":true,
  \"dependencies\":{\"@oh-my-pi/pi-natives\":\"file:$overlay_tgz\",\"@oh-my-pi/pi-natives-real\":\"npm:@oh-my-pi/pi-natives@$natives\"},
  \"overrides\":{\"fscache-native\":\"file:$dist/fscache-native-$version.tgz\",\"fscache-native-linux-x64-gnu\":\"file:$dist/fscache-native-linux-x64-gnu-$version.tgz\"}}"
rm -rf "$work/side-overlay/node_modules/@oh-my-pi/pi-natives-real"
ln -s "$src/packages/natives" "$work/side-overlay/node_modules/@oh-my-pi/pi-natives-real"

link=$src/node_modules/@oh-my-pi/pi-natives
point_at() { # SIDE
	rm -rf "$link"
	if [[ $1 == real ]]; then
		ln -s ../../packages/natives "$link"
	else
		ln -s "$work/side-overlay/node_modules/@oh-my-pi/pi-natives" "$link"
	fi
	# What the agent's packages now load: fscache's glob (cacheStats) or not.
	local got
	got=$(cd "$src/packages/coding-agent" && "$bun" -e 'const m = await import("@oh-my-pi/pi-natives"); console.log(typeof m.cacheStats === "function" ? "overlay" : "real", Object.keys(m).length, typeof m.visibleWidth === "function" && m.visibleWidth("ab", 8) === 2 ? "addon-ok" : "addon-missing")')
	echo "run.sh: side $1: @oh-my-pi/pi-natives is $got"
	[[ $got == "$1 "*" addon-ok" ]] || { echo "run.sh: expected the $1 side with its addon, got $got" >&2; exit 1; }
}

# 3. The tests.
tests=${FILES:-$work/tests.txt}
if [[ -z ${FILES:-} ]]; then
	node "$here/select.mjs" "$src" --why >"$work/tests-why.txt"
	cut -f1 "$work/tests-why.txt" >"$tests"
fi
echo "run.sh: $(wc -l <"$tests") test files (list: $tests)"
absent=()
while read -r line; do
	file=${line%%$'\t'*}
	[[ -z $file || -f $src/$file ]] || absent+=("$file")
done <"$tests"
if [[ ${#absent[@]} -gt 0 ]]; then
	{
		echo "run.sh: test files in $tests that are not in $src:"
		printf '  %s\n' "${absent[@]}"
	} >&2
	exit 2
fi

# 4. Each file on each side, alone, with a timeout (a hang is recorded).
for side in $sides; do
	point_at "$side"
	out=$work/results/$side
	rm -rf "$out"
	mkdir -p "$out" "$work/home-$side"
	while read -r line; do
		file=${line%%$'\t'*}
		[[ -n $file ]] || continue
		pkg=${file%%/test/*} rel=${file#*/test/}
		mkdir -p "$(dirname "$out/$file")"
		rc=0
		(cd "$src/$pkg" && HOME=$work/home-$side timeout -k 10 "$timeout_s" "$bun" test "./test/$rel" \
			--reporter=junit --reporter-outfile="$out/$file.xml") </dev/null >"$out/$file.log" 2>&1 || rc=$?
		if [[ $rc -eq 124 || $rc -eq 137 ]]; then echo timeout >"$out/$file.status"; else echo "rc=$rc" >"$out/$file.status"; fi
		printf '%-8s %-70s %s\n' "$side" "$file" "$(cat "$out/$file.status")"
	done <"$tests"
done
point_at real

# 5. The comparison, of every listed file: a file without a result on a side
# counts as a failure there. compare.mjs's exit status is the run's.
rc=0
node "$here/compare.mjs" "$work/results" "$tests" | tee "$work/compare.txt" || rc=$?
exit $rc
