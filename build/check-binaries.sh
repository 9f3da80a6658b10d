# check-binaries.sh - what build/check-elf.sh, build/darwin/check-macho.sh
# and build/windows/check-pe.sh all check of a library and its addon,
# whatever the object format. Sourced; the caller defines fail.

# header_functions HEADER: the fscache_* functions HEADER declares, one a
# line, sorted (build/exports.sh's list, which fails on a header it cannot
# read right). HEADER must be include/fscache.h, the one exports.sh reads.
header_functions() {
	local here want
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	[ "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" = "$(dirname "$here")/include/fscache.h" ] ||
		fail "header_functions: $1 is not $(dirname "$here")/include/fscache.h"
	want=$("$here/exports.sh" list lib) || fail "build/exports.sh list lib failed"
	echo "$want"
}

# addon_entry_points: what an addon may export (Node-API's entry points),
# one a line, sorted.
addon_entry_points() {
	"$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/exports.sh" list addon | sort
}

# check_exported LIB WANT EXPORTS: every name of WANT (one a line) is in
# EXPORTS (one a line, sorted).
check_exported() {
	local missing
	missing=$(comm -23 <(echo "$2") <(echo "$3"))
	[ -z "$missing" ] || fail "$1 does not export: $(echo $missing)"
}

# check_exports_exactly LIB WANT EXPORTS: EXPORTS (one a line, sorted) is
# WANT, no name missing and none more (Go's runtime, cgo, the library's
# internals, a C runtime's helpers all stay inside).
check_exports_exactly() {
	local extra
	check_exported "$1" "$2" "$3"
	extra=$(comm -13 <(echo "$2") <(echo "$3"))
	[ -z "$extra" ] || fail "$1 exports more than it should ($(echo "$extra" | wc -l) names): $(echo $extra | cut -c1-600)"
}

# check_addon_exports ADDON EXPORTS: the addon exports napi_register_module_v1
# and nothing but Node-API's entry points (addon_entry_points).
check_addon_exports() {
	local extra
	echo "$2" | grep -qx napi_register_module_v1 || fail "$1 does not export napi_register_module_v1"
	extra=$(comm -13 <(addon_entry_points) <(echo "$2"))
	[ -z "$extra" ] || fail "$1 exports more than Node-API's entry points ($(echo "$extra" | wc -l) names): $(echo $extra | cut -c1-600)"
}

# check_binds ADDON HOST LIB EXPORTS: stdin holds the addon's imports as
# "provider symbol" lines. Every napi_* symbol must come from HOST and HOST
# must give nothing but Node-API (at least 10 functions); every fscache_*
# symbol must come from LIB, which must export it (EXPORTS, one a line,
# sorted). Prints the number of Node-API imports and the number of fscache
# functions taken from LIB. Call it in $(...): fail then exits the
# subshell, and set -e carries that to the script.
check_binds() {
	local addon=$1 host=$2 lib=$3 exports=$4 binds bad napi imported notexported
	binds=$(cat)
	bad=$(echo "$binds" | awk -v host="$host" -v lib="$lib" '($2 ~ /^napi_/ && $1 != host) || ($2 ~ /^fscache_/ && $1 != lib) || ($1 == host && $2 !~ /^(napi|node_api)_/)')
	[ -z "$bad" ] || fail "$addon imports wrongly: $bad"
	napi=$(echo "$binds" | awk -v host="$host" '$1 == host' | wc -l)
	[ "$napi" -ge 10 ] || fail "$addon: only $napi Node-API imports from the host"
	imported=$(echo "$binds" | awk -v lib="$lib" '$1 == lib {print $2}' | sort -u)
	notexported=$(comm -23 <(echo "$imported") <(echo "$exports"))
	[ -z "$notexported" ] || fail "$addon imports what $lib does not export: $notexported"
	echo "$napi $(echo "$imported" | wc -l)"
}
