#!/usr/bin/env bash
# check-elf.sh LIB ADDON [MACHINE]
#
# Checks a Linux library and its addon (glibc or musl, x64 or arm64; as
# built, or as packed by make dist) with readelf, which reads any ELF
# machine:
#   - with MACHINE (x86-64 or aarch64), both are ELF shared objects of it;
#   - LIB's dynamic symbol table defines exactly the functions of
#     include/fscache.h (build/exports.sh): nothing of Go's runtime or cgo
#     (crosscall2, x_cgo_*, _cgo_*), of the library's internals
#     (fscache_go_*) or of a C runtime;
#   - ADDON's defines napi_register_module_v1 and nothing but Node-API's
#     entry points (node_api_module_get_api_version_v1);
#   - every fscache_* symbol ADDON needs is one LIB exports.
# Prints what it checked; exits non-zero on the first failure.
set -euo pipefail
lib=$1 addon=$2 machine=${3:-}
fail() { echo "check-elf: $*" >&2; exit 1; }
. "$(dirname "$0")/check-binaries.sh"

# dynsyms FILE defined|undefined: the names of FILE's global and weak
# dynamic symbols, without version suffixes, sorted.
dynsyms() {
	readelf --dyn-syms -W "$1" | awk -v want="$2" '
		$1 ~ /^[0-9]+:$/ && NF >= 8 && $5 != "LOCAL" {
			name = $8; sub(/@.*/, "", name)
			if ((want == "defined") == ($7 != "UND")) print name
		}' | sort -u
}

for f in "$lib" "$addon"; do
	[ -f "$f" ] || fail "$f: no such file"
	type=$(readelf -hW "$f" | awk -F: '$1 ~ /^ *Type$/ {sub(/^ */, "", $2); print $2}')
	case $type in DYN*) ;; *) fail "$f: not a shared object (type '$type')" ;; esac
	if [ -n "$machine" ]; then
		got=$(readelf -hW "$f" | awk -F: '$1 ~ /^ *Machine$/ {sub(/^ */, "", $2); print $2}')
		case "$machine:$got" in
		x86-64:*X86-64* | aarch64:AArch64) ;;
		*) fail "$f: machine '$got', want $machine" ;;
		esac
	fi
done

want=$(header_functions "$(dirname "$0")/../include/fscache.h")
libexports=$(dynsyms "$lib" defined)
check_exports_exactly "$lib" "$want" "$libexports"

addonexports=$(dynsyms "$addon" defined)
check_addon_exports "$addon" "$addonexports"
needed=$(dynsyms "$addon" undefined | grep '^fscache_' || true)
notexported=$(comm -23 <(echo "$needed") <(echo "$libexports"))
[ -z "$needed" ] || [ -z "$notexported" ] || fail "$addon needs what $lib does not export: $notexported"

echo "check-elf${machine:+ $machine}: ok: $lib exports the $(echo "$want" | wc -l) functions of fscache.h and nothing else;" \
	"$addon exports $(echo $addonexports) only and takes $(echo "$needed" | grep -c . || true) fscache functions from it"
