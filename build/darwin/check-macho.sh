#!/usr/bin/env bash
# check-macho.sh ARCH LIB ADDON HEADER
#
# Checks the macOS binaries (libfscache.dylib and the addon, cross-built by
# build/mk/platforms.mk, as packed by make dist) without a Mac, with LLVM's tools:
#   - both are 64-bit Mach-O dylibs of ARCH (x64 or arm64);
#   - the library's install name is @rpath/libfscache.dylib, it exports the
#     functions HEADER declares and nothing else (its export trie, what dyld
#     binds and dlsym()s against, and its symbol table's external
#     definitions: build/darwin/macho-exports.mjs made them so), and it
#     needs nothing but libSystem (and, on arm64, CoreFoundation, which Go's
#     runtime/cgo links there);
#   - the addon exports napi_register_module_v1 and nothing but Node-API's
#     entry points, loads @rpath/libfscache.dylib through an @loader_path
#     rpath, takes every fscache_* symbol from it and leaves every napi_*
#     symbol to the host (flat namespace, as -undefined dynamic_lookup does);
#   - on arm64 both carry a code signature (an ad-hoc one: Apple silicon
#     refuses to run unsigned code); every page hash of a signature matches
#     the file (macho-exports.mjs --verify; node).
# Prints what it checked; exits non-zero on the first failure.
set -euo pipefail
arch=$1 lib=$2 addon=$3 header=$4
nm=${LLVM_NM:-llvm-nm} objdump=${LLVM_OBJDUMP:-llvm-objdump} node=${NODE:-node}
case $arch in
x64) cputype=X86_64 ;;
arm64) cputype=ARM64 ;;
*) echo "check-macho: unknown arch $arch" >&2; exit 2 ;;
esac
fail() { echo "check-macho $arch: $*" >&2; exit 1; }
. "$(dirname "$0")/../check-binaries.sh"

for f in "$lib" "$addon"; do
	hdr=$($objdump --macho --private-header "$f" | awk '$1 == "MH_MAGIC_64" {print $2, $5}')
	[ "$hdr" = "$cputype DYLIB" ] || fail "$f: want a 64-bit $cputype dylib, got '${hdr:-not Mach-O 64}'"
	if [ "$arch" = arm64 ]; then
		$objdump --macho --private-headers "$f" | grep -q 'cmd LC_CODE_SIGNATURE' || fail "$f: no code signature"
	fi
	"$node" "$(dirname "$0")/macho-exports.mjs" --verify "$f" >/dev/null || fail "$f: its code signature does not match it"
done

# trie FILE: the names of FILE's export trie; symtab FILE: its symbol
# table's external definitions; both without the leading underscore, sorted.
trie() { $objdump --macho --exports-trie "$1" | awk '$1 ~ /^0x/ {print $2}' | sed 's/^_//' | sort -u; }
symtab() { $nm -gU --just-symbol-name "$1" | sed 's/^_//' | sort -u; }

# The C ABI: the functions of the header, defined and exported, no more.
want=$(header_functions "$header")
exports=$(trie "$lib")
check_exports_exactly "$lib (export trie)" "$want" "$exports"
check_exports_exactly "$lib (symbol table)" "$want" "$(symtab "$lib")"
id=$($objdump --macho --dylib-id "$lib" | tail -n1)
[ "$id" = "@rpath/libfscache.dylib" ] || fail "$lib: install name $id"
deps=$($objdump --macho --dylibs-used "$lib" | tail -n +2 | awk '{print $1}' | grep -vx '@rpath/libfscache.dylib' | sort)
allowed="/usr/lib/libSystem.B.dylib"
[ "$arch" = arm64 ] && allowed=$(printf '%s\n%s' "/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation" "$allowed")
[ "$deps" = "$allowed" ] || fail "$lib needs: $deps"

# The initializers, in the order dyld runs them: Go's runtime first (go.o
# comes first in the link, and Mach-O has no initializer priorities), then
# the library's signal constructors. fscache.h's "Signals" says what that
# order means on macOS; if it ever changes, that text must change with it.
inits=$($objdump --macho -s --section=__DATA_CONST,__mod_init_func "$lib" | awk 'NF >= 3 && $1 ~ /^0x/ {print $3}' | tr '\n' ' ')
case "$inits" in
"__rt0_${arch/x64/amd64}_darwin_lib _fscache_signals_before_go _fscache_signals_after_go ") ;;
*) fail "$lib: initializers '$inits': not Go's then the library's, as fscache.h says" ;;
esac

# The addon.
addonexports=$(trie "$addon")
check_addon_exports "$addon (export trie)" "$addonexports"
check_addon_exports "$addon (symbol table)" "$(symtab "$addon")"
$objdump --macho --dylibs-used "$addon" | grep -q '^[[:space:]]*@rpath/libfscache.dylib ' || fail "$addon does not load @rpath/libfscache.dylib"
rpaths=$($objdump --macho --rpaths "$addon" | tail -n +2)
[ "$rpaths" = "@loader_path" ] || fail "$addon: rpaths '$rpaths', want @loader_path"
# Symbols bound with a flat namespace are left to the host (node).
counts=$($objdump --macho --bind --lazy-bind --weak-bind "$addon" |
	awk '$NF ~ /^_(napi|fscache)_/ {sub(/^_/, "", $NF); print $(NF-1), $NF}' | sort -u |
	check_binds "$addon" flat-namespace libfscache "$exports")
read -r napi nimported <<<"$counts"

echo "check-macho $arch: ok: the $(echo "$want" | wc -l) C functions of fscache.h exported by @rpath/libfscache.dylib, nothing else; addon exports $(echo $addonexports) only, $napi Node-API imports left to the host, $nimported taken from the library, rpath @loader_path$([ "$arch" = arm64 ] && echo ', both signed, every page hash right'); initializers Go's, then the library's"
