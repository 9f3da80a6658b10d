# check-binaries.sh - what build/darwin/check-macho.sh and
# build/windows/check-pe.sh both check of a cross-built library and its
# addon, whatever the object format. Sourced; the caller defines fail.

# header_functions HEADER: the fscache_* functions HEADER declares, one a
# line, sorted; fails when there are fewer than 8 (a header not read right).
header_functions() {
	local want
	want=$(grep -oE '\bfscache_[a-z_0-9]+\(' "$1" | tr -d '(' | sort -u)
	[ "$(echo "$want" | wc -l)" -ge 8 ] || fail "found only $(echo "$want" | wc -l) functions in $1"
	echo "$want"
}

# check_exported LIB WANT EXPORTS: every name of WANT (one a line) is in
# EXPORTS (one a line, sorted).
check_exported() {
	local missing
	missing=$(comm -23 <(echo "$2") <(echo "$3"))
	[ -z "$missing" ] || fail "$1 does not export: $missing"
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
