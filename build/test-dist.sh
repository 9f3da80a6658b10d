#!/usr/bin/env bash
# test-dist.sh DIST VERSION BUN ARM64_NODE QEMU SYSROOT NODE22 BUN_OLD
#
# Installs the packages of `make dist` the way a user does, in temporary
# projects whose PATH holds only node, npm and bun (no Go, no C compiler),
# and runs build/smoke.mjs against them:
#   1. linux-x64: as `fscache-native` and as `@oh-my-pi/pi-natives` (npm alias of
#      the same tarball), in Node and in Bun; agent code written against
#      @oh-my-pi/pi-natives type-checks;
#   2. the overlay (fscache-pi-natives) installed as @oh-my-pi/pi-natives
#      with the real pi-natives from the npm registry, once per
#      bindings/pi-natives-overlay/agent-imports-*.json (an agent version and the
#      pi-natives it ships with): in Bun, every name that agent imports
#      resolves, ours are fscache's and the rest the real ones, a glob and a
#      pi-natives function run; in Node it fails as pi-natives itself does;
#      tsc resolves every name, types included, through its .d.ts;
#   3. the agent itself (the newest agent-imports-*.json's, from the npm
#      registry) with the overlay, both ways its README gives (a project's
#      `overrides`; the command's install/uninstall under a global install),
#      each with npm, Bun BUN_OLD (1.3.14, the oldest Bun the agent accepts)
#      and Bun BUN (the project's, the newest on the registry): the agent
#      loads the overlay (`omp grep` loads libfscache), then the real
#      pi-natives again;
#   4. a scripted omp session on BUN_OLD through the agent's own tools, the
#      real pi-natives against the overlay (build/omp-session/run.sh): what
#      the model receives is identical;
#   5. the omp package omp-fscache, packed (fscache-native bundled in it),
#      installed by that agent's `omp plugin install omp-fscache@file:<tgz>`
#      on BUN_OLD into a fresh HOME with an empty Bun cache and a registry
#      that cannot be reached; an omp session where a reread is the marker
#      under omp's [path#TAG], from the bundled engine
#      (build/omp-fscache-smoke.mjs); then `omp plugin uninstall`;
#   6. the pi package pi-fscache, packed, with pi from the npm registry, once
#      per pi line (1.6.0 on NODE22, 0.73.1 on node): loaded by that pi's own
#      extension loader, its read answers a reread with the marker, through
#      the installed engine;
#   7. linux-arm64: the same script under qemu with an arm64 Node;
#   8. the C SDK: a program built with nothing but
#      `cc example.c $(pkg-config --cflags --libs fscache)`, from the
#      archive and from `make install`-style PREFIX, then uninstalled.
#
# npm's downloads (pi-natives is 90-150 MB a version) are cached in
# $FSCACHE_CACHE/npm, Bun's in $FSCACHE_CACHE/bun-install.
set -euo pipefail
dist=$(realpath "$1") version=$2 bun=$3 armnode=$4 qemu=$(command -v "$5") sysroot=$6 node22=$7 bun_old=$8
bun_version=$("$bun" --version) bun_old_version=$("$bun_old" --version)
cache=${FSCACHE_CACHE:-$HOME/.cache/fscache}
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fscache-dist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

main_tgz=$dist/fscache-native-$version.tgz
x64_tgz=$dist/fscache-native-linux-x64-gnu-$version.tgz
arm_tgz=$dist/fscache-native-linux-arm64-gnu-$version.tgz

# A PATH with node, npm and bun only.
bin=$tmp/bin
mkdir -p "$bin"
ln -s "$(realpath "$(command -v node)")" "$bin/node"
ln -s "$(realpath "$(command -v npm)")" "$bin/npm"
ln -s "$(realpath "$bun")" "$bin/bun"
# The environment is emptied but for what npm needs to reach the registry
# (a CA bundle where the network needs one).
keep=()
for v in NODE_EXTRA_CA_CERTS SSL_CERT_FILE npm_config_cafile https_proxy HTTPS_PROXY http_proxy HTTP_PROXY no_proxy NO_PROXY; do
	if [ -n "${!v:-}" ]; then keep+=("$v=${!v}"); fi
done
run() { env -i "${keep[@]}" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" PATH="$bin" npm_config_cache="$cache/npm" "$@"; }
for tool in go cc gcc; do
	if run sh -c "command -v $tool" >/dev/null 2>&1; then echo "test-dist: $tool is on the test PATH" >&2; exit 1; fi
done

# project DIR PLATFORM_TGZ [npm flags]: a project depending on fscache under
# both names. npm picks the platform package from the main package's
# optionalDependencies, as for a user; an override points that dependency
# at its tarball (npm would fetch it from the registry by version otherwise).
project() {
	local dir=$1 plat=$2 platname
	shift 2
	platname=$(basename "$plat" "-$version.tgz")
	mkdir -p "$dir"
	cat >"$dir/package.json" <<-EOF
	{
	  "name": "fscache-dist-test",
	  "private": true,
	  "type": "module",
	  "dependencies": {
	    "fscache-native": "file:$main_tgz",
	    "@oh-my-pi/pi-natives": "file:$main_tgz"
	  },
	  "overrides": { "$platname": "file:$plat" }
	}
	EOF
	cp "$here/smoke.mjs" "$dir/"
	(cd "$dir" && run npm install --no-audit --no-fund --loglevel=error "$@")
}

echo "== linux-x64: Node and Bun, as fscache-native and as @oh-my-pi/pi-natives"
project "$tmp/x64" "$x64_tgz"
test -f "$tmp/x64/node_modules/fscache-native-linux-x64-gnu/fscache.linux-x64-gnu.node"
for name in fscache-native @oh-my-pi/pi-natives; do
	(cd "$tmp/x64" && run node smoke.mjs "$name" && run bun smoke.mjs "$name")
done

echo "== agent code importing @oh-my-pi/pi-natives type-checks against the installed package"
sed 's/from "fscache-native"/from "@oh-my-pi\/pi-natives"/' "$top/bindings/node/test/agent-usage.ts" >"$tmp/x64/agent.ts"
cat >"$tmp/x64/tsconfig.json" <<EOF
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true,
    "noEmit": true, "skipLibCheck": false, "types": ["node"], "lib": ["ES2022", "DOM"],
    "typeRoots": ["$top/bindings/node/node_modules/@types"]
  },
  "files": ["agent.ts"]
}
EOF
(cd "$tmp/x64" && run node "$top/bindings/node/node_modules/typescript/bin/tsc" -p tsconfig.json)
echo "typecheck ok"

echo "== the overlay as @oh-my-pi/pi-natives, over the real pi-natives, for the agent's imports"
overlay_tgz=$dist/fscache-pi-natives-$version.tgz
for list in "$top"/bindings/pi-natives-overlay/agent-imports-*.json; do
	pin=$(node -p "require('$list').piNatives")
	dir=$tmp/overlay-$pin
	mkdir -p "$dir"
	cat >"$dir/package.json" <<-EOF
	{
	  "name": "fscache-overlay-test",
	  "private": true,
	  "type": "module",
	  "dependencies": {
	    "@oh-my-pi/pi-natives": "file:$overlay_tgz",
	    "@oh-my-pi/pi-natives-real": "npm:@oh-my-pi/pi-natives@$pin"
	  },
	  "overrides": {
	    "fscache-native": "file:$main_tgz",
	    "fscache-native-linux-x64-gnu": "file:$x64_tgz"
	  }
	}
	EOF
	cp "$top/bindings/pi-natives-overlay/smoke.mjs" "$dir/"
	(cd "$dir" && run npm install --no-audit --no-fund --loglevel=error)
	test "$(node -p "require('$dir/node_modules/@oh-my-pi/pi-natives-real/package.json').version")" = "$pin"
	(cd "$dir" && run bun smoke.mjs "$list" && run node smoke.mjs "$list")
	(cd "$dir" && run node smoke.mjs "$list" --emit-ts agent.ts)
	cat >"$dir/tsconfig.json" <<-EOF
	{
	  "compilerOptions": {
	    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true,
	    "noEmit": true, "skipLibCheck": true, "types": []
	  },
	  "files": ["agent.ts"]
	}
	EOF
	(cd "$dir" && run node "$top/bindings/node/node_modules/typescript/bin/tsc" -p tsconfig.json)
	echo "overlay typecheck ok: pi-natives $pin"
done

echo "== the agent with the overlay, the README's two ways, with npm, Bun $bun_old_version (the oldest the agent accepts) and Bun $bun_version"
# The agent ($agent_version) and the real pi-natives from the npm registry,
# the overlay and fscache from the tarballs, as
# bindings/pi-natives-overlay/README.md says: a project's `overrides`, and
# the command (cli.mjs install/uninstall) under an agent installed globally
# (`npm install -g` with a prefix, `bun install -g` with BUN_INSTALL). Each
# install is checked the README's way (the agent's pi-natives has cacheStats;
# `omp grep` loads libfscache) and a glob runs through the agent's resolution.
# Bun's downloads are cached in $cache/bun-install.
overlay_named_tgz=$dist/pi-natives-overlay-$version.tgz
# The newest agent of bindings/pi-natives-overlay/agent-imports-*.json, with the
# pi-natives it depends on.
agent_list=$(ls "$top"/bindings/pi-natives-overlay/agent-imports-*.json | sort -V | tail -1)
agent_version=$(node -p "require('$agent_list').version")
agent_natives=$(node -p "require('$agent_list').piNatives")
export BUN_INSTALL_CACHE_DIR=$cache/bun-install
keep+=("BUN_INSTALL_CACHE_DIR=$BUN_INSTALL_CACHE_DIR")
omp_home=$tmp/omp-home
mkdir -p "$omp_home"
# The command, from the unpacked tarball (it copies the overlay from there).
mkdir -p "$tmp/overlay-cli"
tar -xzf "$overlay_tgz" -C "$tmp/overlay-cli" --strip-components=1
cli=$tmp/overlay-cli/cli.mjs
# A PATH whose bun is Bun $bun_old_version (node and npm as before).
bin_old=$tmp/bin-old
mkdir -p "$bin_old"
ln -s "$(realpath "$(command -v node)")" "$bin_old/node"
ln -s "$(realpath "$(command -v npm)")" "$bin_old/npm"
ln -s "$(realpath "$bun_old")" "$bin_old/bun"
# runp PATHDIR [NAME=VALUE...] CMD...: run with that PATH (and the environment
# of run, plus those variables).
runp() { local p=$1; shift; env -i "${keep[@]}" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" PATH="$p" npm_config_cache="$cache/npm" "$@"; }
# agent_natives_is DIR PATHDIR overlay|real: which pi-natives the agent under
# DIR (a project, or the directory of a global install) loads, the README's
# check; a glob through it; and, for the overlay, `omp grep` (the agent's CLI,
# run by that PATH's bun) finds a line and loads libfscache.
agent_natives_is() {
	local dir=$1 p=$2 want=$3 omp
	(cd "$dir" && runp "$p" bun -e '
		const agent = require("path").dirname(Bun.resolveSync("@oh-my-pi/pi-coding-agent/package.json", "."));
		const m = await import(Bun.resolveSync("@oh-my-pi/pi-natives", agent));
		const side = typeof m.cacheStats === "function" ? "overlay" : "real";
		if (side !== process.argv[1]) throw new Error(`the agent loads the ${side} pi-natives, not the ${process.argv[1]}`);
		const r = await m.glob({ pattern: "*.json", path: agent });
		if (!r.matches.some((x) => x.path === "package.json")) throw new Error("glob");' "$want")
	if [ "$want" = real ]; then echo "  $dir: the agent loads the real pi-natives"; return; fi
	omp=$(cd "$dir" && runp "$p" bun -p 'require("path").resolve(Bun.resolveSync("@oh-my-pi/pi-coding-agent/package.json", "."), "..", require(Bun.resolveSync("@oh-my-pi/pi-coding-agent/package.json", ".")).bin.omp)')
	printf 'TODO find me\n' >"$tmp/grep-me.txt"
	local out
	out=$(cd "$tmp" && env -i "${keep[@]}" HOME="$omp_home" TMPDIR="${TMPDIR:-/tmp}" PATH="$p" LD_DEBUG=files bun "$omp" grep 'TODO find' grep-me.txt 2>&1)
	grep -q 'TODO find me' <<<"$out" || { echo "omp grep under $dir found nothing:"; tail -20 <<<"$out"; return 1; } >&2
	grep -q 'calling init:.*libfscache' <<<"$out" || { echo "omp grep under $dir did not load libfscache" >&2; return 1; }
	echo "  $dir: the agent loads the overlay (omp grep too)"
}
# The installers: name, PATH, command for a project, command for a global install.
matrix_start=$SECONDS
for pm in npm bun-old bun-new; do
	case $pm in
	npm) p=$bin; inst=(npm install --no-audit --no-fund --loglevel=error) ;;
	bun-old) p=$bin_old; inst=(bun install) ;;
	bun-new) p=$bin; inst=(bun install) ;;
	esac
	step=$SECONDS
	dir=$tmp/omp-project-$pm
	mkdir -p "$dir"
	cat >"$dir/package.json" <<-EOF
	{
	  "name": "omp-project",
	  "private": true,
	  "dependencies": {
	    "@oh-my-pi/pi-coding-agent": "$agent_version",
	    "@oh-my-pi/pi-natives-real": "npm:@oh-my-pi/pi-natives@$agent_natives"
	  },
	  "overrides": {
	    "@oh-my-pi/pi-natives": "file:$overlay_named_tgz",
	    "fscache-native": "file:$main_tgz",
	    "fscache-native-linux-x64-gnu": "file:$x64_tgz"
	  }
	}
	EOF
	(cd "$dir" && runp "$p" "${inst[@]}" >"$tmp/install.log" 2>&1) || { cat "$tmp/install.log"; echo "$pm: the README's project install failed" >&2; exit 1; }
	test "$(node -p "require('$dir/node_modules/@oh-my-pi/pi-natives-real/package.json').version")" = "$agent_natives"
	test "$(node -p "require('$dir/node_modules/@oh-my-pi/pi-coding-agent/package.json').version")" = "$agent_version"
	agent_natives_is "$dir" "$p" overlay
	echo "$pm: project (overrides) ok in $((SECONDS - step)) s"

	step=$SECONDS
	g=$tmp/omp-global-$pm
	mkdir -p "$g"
	if [ "$pm" = npm ]; then
		genv=(npm_config_prefix="$g" BUN_INSTALL="$g/no-bun")
		runp "$p" "${genv[@]}" npm install -g --no-audit --no-fund --loglevel=error "@oh-my-pi/pi-coding-agent@$agent_version" >"$tmp/install.log" 2>&1 ||
			{ cat "$tmp/install.log"; exit 1; }
		gdir=$g/lib
		cli_runtime=node
	else
		genv=(BUN_INSTALL="$g")
		runp "$p" "${genv[@]}" bun install -g "@oh-my-pi/pi-coding-agent@$agent_version" >"$tmp/install.log" 2>&1 ||
			{ cat "$tmp/install.log"; exit 1; }
		gdir=$g/install/global
		cli_runtime=bun
	fi
	agent_natives_is "$gdir" "$p" real
	(cd "$tmp" && runp "$p" "${genv[@]}" "$cli_runtime" "$cli" install --from "$dist")
	(cd "$tmp" && runp "$p" "${genv[@]}" "$cli_runtime" "$cli" status) | grep -q '^overlay:'
	agent_natives_is "$gdir" "$p" overlay
	(cd "$tmp" && runp "$p" "${genv[@]}" "$cli_runtime" "$cli" uninstall)
	agent_natives_is "$gdir" "$p" real
	left=$(find "$gdir" -path '*/node_modules/@oh-my-pi/pi-natives-real' -o -path '*/node_modules/fscache-native*' -prune)
	test -z "$left" || { echo "$pm: uninstall left $left" >&2; exit 1; }
	echo "$pm: global install, the command's install/uninstall ($cli_runtime cli.mjs) ok in $((SECONDS - step)) s"
done
echo "the README's ways: npm, Bun $bun_old_version, Bun $bun_version x overrides, global: ok in $((SECONDS - matrix_start)) s"

echo "== a scripted omp session on Bun $bun_old_version: the real pi-natives against the overlay"
# build/omp-session/: the agent's own glob, grep, read and write tools and its
# workspace tree, driven by pi-ai's mock model, in trees whose mtimes are
# 1 s, 1 ms and 100 µs apart. The real side is the global Bun install (the
# real pi-natives again after uninstall), the overlay side the Bun project.
step=$SECONDS
FSCACHE_OMP_SESSION_OUT=${FSCACHE_OMP_SESSION_OUT:-$top/build/out/omp-session} \
	"$top/build/omp-session/run.sh" "$bun_old" "$tmp/omp-global-bun-old/install/global" "$tmp/omp-project-bun-old" "$tmp/omp-session"
echo "omp session ok in $((SECONDS - step)) s"

echo "== the omp package omp-fscache, packed, by omp's plugin installer on Bun $bun_old_version"
# As a user adds it (bindings/omp-fscache/README.md): the agent's own
# `omp plugin install omp-fscache@file:<tgz>`, which runs `bun install` in
# ~/.omp/plugins, on Bun $bun_old_version (the agent from the global Bun install
# above, the real pi-natives since the command's uninstall). The tarball
# carries fscache-native and its platform packages: the install runs with
# an empty Bun cache and a registry that refuses connections, so any lookup
# fails it. Then an omp session (build/omp-fscache-smoke.mjs) and
# `omp plugin uninstall`.
step=$SECONDS
omp_tgz=$dist/omp-fscache-$version.tgz
tar -xzOf "$omp_tgz" package/package.json | node -e 'const p = JSON.parse(require("fs").readFileSync(0, "utf8")), b = p.bundleDependencies ?? []; if (p.dependencies || p.devDependencies || !b.includes("fscache-native") || !b.includes("fscache-native-linux-x64-gnu")) { console.error("omp-fscache packed with dependencies " + JSON.stringify(p.dependencies) + ", bundleDependencies " + JSON.stringify(b)); process.exit(1); }'
gdir=$tmp/omp-global-bun-old/install/global
omp=$(cd "$gdir" && runp "$bin_old" bun -p 'require("path").resolve(Bun.resolveSync("@oh-my-pi/pi-coding-agent/package.json", "."), "..", require(Bun.resolveSync("@oh-my-pi/pi-coding-agent/package.json", ".")).bin.omp)')
ohome=$tmp/omp-fscache-home
mkdir -p "$ohome" "$tmp/omp-fscache-bun-cache"
# runo CMD...: with HOME $ohome, Bun $bun_old_version first on PATH, no registry, an empty Bun cache.
runo() {
	env -i "${keep[@]}" HOME="$ohome" TMPDIR="${TMPDIR:-/tmp}" PATH="$bin_old" BUN_INSTALL_CACHE_DIR="$tmp/omp-fscache-bun-cache" \
		BUN_CONFIG_REGISTRY=http://127.0.0.1:9/ npm_config_registry=http://127.0.0.1:9/ "$@"
}
(cd "$tmp" && runo bun "$omp" plugin install "omp-fscache@file:$omp_tgz") >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; echo "omp plugin install omp-fscache@file:$omp_tgz failed" >&2; exit 1; }
grep -q "Installed omp-fscache@$version" "$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }
test -d "$ohome/.omp/plugins/node_modules/omp-fscache/node_modules/fscache-native" && test ! -L "$ohome/.omp/plugins/node_modules/omp-fscache"
cp "$here/omp-fscache-smoke.mjs" "$gdir/"
(cd "$gdir" && runo bun omp-fscache-smoke.mjs) || { rm -f "$gdir/omp-fscache-smoke.mjs"; exit 1; }
rm -f "$gdir/omp-fscache-smoke.mjs"
(cd "$tmp" && runo bun "$omp" plugin uninstall omp-fscache) >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
test ! -e "$ohome/.omp/plugins/node_modules/omp-fscache" || { echo "omp plugin uninstall left omp-fscache" >&2; exit 1; }
echo "omp-fscache packed: installed, a session, uninstalled in $((SECONDS - step)) s"

echo "== the pi package pi-fscache, packed, beside pi from the npm registry"
# Its dependency fscache-native comes from the packed tarballs (overrides),
# pi from the registry at the version the package is tested with, on each
# line's Node; pi's own resource loader loads the installed package (as
# after `pi install npm:pi-fscache`), whose read answers a reread with the
# marker, from the installed engine (no checkout on the way).
pi_tgz=$dist/pi-fscache-$version.tgz
# The packed package carries its one runtime dependency and nothing of the
# tests: no node_modules, no devDependencies (issue 49: a test host in the
# package's node_modules shadowed the pi that loaded it).
if tar -tzf "$pi_tgz" | grep -q node_modules; then echo "$pi_tgz carries node_modules" >&2; exit 1; fi
tar -xzOf "$pi_tgz" package/package.json | node -e 'const p = JSON.parse(require("fs").readFileSync(0, "utf8")); if (p.devDependencies || Object.keys(p.dependencies ?? {}).join() !== "fscache-native") { console.error("pi-fscache packed with dependencies " + JSON.stringify(p.dependencies) + ", devDependencies " + JSON.stringify(p.devDependencies)); process.exit(1); }'
# pi_line NAME NODE: the package beside pi NAME (at the tests' pin, test/hosts/package.json).
pi_line() {
	local name=$1 node=$2 pin dir
	pin=$(node -p "require('$top/bindings/pi-fscache/test/hosts/package.json').dependencies['$name']")
	dir=$tmp/pi-${name##*/}-$pin
	mkdir -p "$dir/bin"
	ln -s "$(realpath "$node")" "$dir/bin/node"
	ln -s "$(realpath "$(command -v npm)")" "$dir/bin/npm"
	cat >"$dir/package.json" <<-EOF
	{
	  "name": "fscache-pi-test",
	  "private": true,
	  "type": "module",
	  "dependencies": {
	    "pi-fscache": "file:$pi_tgz",
	    "$name": "$pin"
	  },
	  "overrides": {
	    "fscache-native": "file:$main_tgz",
	    "fscache-native-linux-x64-gnu": "file:$x64_tgz"
	  }
	}
	EOF
	# --ignore-scripts: some of pi's dependencies run install scripts through sh,
	# which this PATH does not have (ours have none).
	(cd "$dir" && env -i "${keep[@]}" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" PATH="$dir/bin" npm_config_cache="$cache/npm" \
		npm install --no-audit --no-fund --loglevel=error --ignore-scripts)
	test ! -L "$dir/node_modules/fscache-native"
	printf 'hello\nworld\n' >"$dir/hello.txt"
	cp "$here/pi-smoke.mjs" "$dir/"
	(cd "$dir" && env -i "${keep[@]}" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" PATH="$dir/bin" node pi-smoke.mjs "$name")
}
pi_line @earendil-works/pi-coding-agent "$node22"
pi_line @mariozechner/pi-coding-agent "$(command -v node)"

echo "== linux-arm64: the arm64 package under qemu with an arm64 Node"
project "$tmp/arm64" "$arm_tgz" --os=linux --cpu=arm64 --libc=glibc
test -f "$tmp/arm64/node_modules/fscache-native-linux-arm64-gnu/fscache.linux-arm64-gnu.node"
for name in fscache-native @oh-my-pi/pi-natives; do
	(cd "$tmp/arm64" && run "$qemu" -L "$sysroot" "$armnode" smoke.mjs "$name")
done

echo "== C: a program built from pkg-config alone"
sdk=$tmp/sdk
mkdir -p "$sdk"
tar -xzf "$dist/fscache-$version-linux-x64.tar.gz" -C "$sdk"
pcdir=$sdk/fscache-$version-linux-x64/lib/pkgconfig
test "$(PKG_CONFIG_PATH=$pcdir pkg-config --modversion fscache)" = "$version"
# shellcheck disable=SC2046
cc -o "$tmp/example" "$here/example.c" $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs fscache)
"$tmp/example" "$here" | grep -q '"path":"example.c"'
readelf -d "$tmp/example" | grep -q "NEEDED.*libfscache.so.${version%%.*}"
echo "sdk ok"

prefix=$tmp/prefix
"$here/install.sh" "$prefix" "$top/build/out/libfscache.so" "$version"
# shellcheck disable=SC2046
cc -o "$tmp/example2" "$here/example.c" $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs fscache)
"$tmp/example2" "$here" | grep -q "fscache $version"
"$here/install.sh" --uninstall "$prefix" "$version"
left=$(find "$prefix" -type f -o -type l)
test -z "$left" || { echo "uninstall left: $left" >&2; exit 1; }
echo "install/uninstall ok"
echo "test-dist: all passed"
