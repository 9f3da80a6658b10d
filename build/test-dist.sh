#!/usr/bin/env bash
# test-dist.sh DIST VERSION BUN ARM64_NODE QEMU SYSROOT NODE22
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
#   3. the overlay's command (fscache-pi-natives install/uninstall) under a
#      stand-in for an installed agent: the agent loads the overlay, then the
#      real pi-natives again;
#   4. the pi package pi-fscache, packed, with pi from the npm registry, once
#      per pi line (1.6.0 on NODE22, 0.73.1 on node): loaded by that pi's own
#      extension loader, its read answers a reread with the marker, through
#      the installed engine;
#   5. linux-arm64: the same script under qemu with an arm64 Node;
#   6. the C SDK: a program built with nothing but
#      `cc example.c $(pkg-config --cflags --libs fscache)`, from the
#      archive and from `make install`-style PREFIX, then uninstalled.
#
# npm's downloads (pi-natives is 90-150 MB a version) are cached in
# $FSCACHE_CACHE/npm.
set -euo pipefail
dist=$(realpath "$1") version=$2 bun=$3 armnode=$4 qemu=$(command -v "$5") sysroot=$6 node22=$7
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

echo "== fscache-pi-natives install/uninstall: the overlay put under an installed agent and taken away"
# A stand-in for an installed @oh-my-pi/pi-coding-agent: a package of that
# name depending on the real pi-natives, installed (copied) into a project as
# npm -g would.
stub=$tmp/agent-stub
mkdir -p "$stub" "$tmp/agent-global/cli"
pin=$(node -p "require('$(ls "$top"/bindings/pi-natives-overlay/agent-imports-*.json | sort -V | tail -1)').piNatives")
cat >"$stub/package.json" <<-EOF
{ "name": "@oh-my-pi/pi-coding-agent", "version": "0.0.0-stub", "type": "module", "main": "index.js",
  "dependencies": { "@oh-my-pi/pi-natives": "$pin" } }
EOF
echo 'export * as natives from "@oh-my-pi/pi-natives";' >"$stub/index.js"
stub_tgz=$(cd "$stub" && run npm pack --silent --pack-destination "$tmp" | tail -1)
cat >"$tmp/agent-global/package.json" <<-EOF
{ "name": "agent-global", "private": true, "dependencies": { "@oh-my-pi/pi-coding-agent": "file:$tmp/$stub_tgz" } }
EOF
(cd "$tmp/agent-global" && run npm install --no-audit --no-fund --loglevel=error)
tar -xzf "$overlay_tgz" -C "$tmp/agent-global/cli"
cli=$tmp/agent-global/cli/package/cli.mjs
agent=$tmp/agent-global/node_modules/@oh-my-pi/pi-coding-agent
check_agent() { # overlay|real: which pi-natives the agent loads; it works either way
	(cd "$tmp/agent-global" && run bun -e '
		const { natives } = await import("@oh-my-pi/pi-coding-agent");
		const side = typeof natives.cacheStats === "function" ? "overlay" : "real";
		if (side !== process.argv[1]) throw new Error(`the agent loads the ${side} pi-natives, not the ${process.argv[1]}`);
		if (natives.visibleWidth("héllo", 8) !== 5) throw new Error("visibleWidth");
		const r = await natives.glob({ pattern: "*.json", path: "." });
		if (!r.matches.some((m) => m.path === "package.json")) throw new Error("glob");
		console.log(`the agent loads the ${side} pi-natives: ok`);' "$1")
}
check_agent real
(cd "$tmp/agent-global" && run node "$cli" install --agent "$agent" --from "$dist")
test -f "$tmp/agent-global/node_modules/@oh-my-pi/pi-natives-real/package.json"
check_agent overlay
(cd "$tmp/agent-global" && run node "$cli" status --agent "$agent") | grep -q '^overlay:'
(cd "$tmp/agent-global" && run node "$cli" uninstall --agent "$agent")
check_agent real
test ! -e "$tmp/agent-global/node_modules/@oh-my-pi/pi-natives-real"
test ! -e "$tmp/agent-global/node_modules/fscache-native"
echo "install/uninstall ok"

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
