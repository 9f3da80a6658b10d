#!/usr/bin/env bash
# check-pe.sh ARCH DLL ADDON HEADER
#
# Checks the Windows binaries (fscache.dll and the addon, cross-built by
# build/mk/platforms.mk) with LLVM's tools, for the architecture that cannot be run
# here (arm64) as well as the one that can:
#   - both are PE/COFF images of ARCH (x64 or arm64);
#   - the DLL exports the functions HEADER declares and nothing else (not
#     the fscache_go_* of cgo: build/windows/extld.sh) and imports only
#     KERNEL32 and msvcrt (nothing that would have to be shipped beside it);
#   - the addon exports napi_register_module_v1 and nothing but Node-API's
#     entry points, takes its Node-API functions
#     from the host (NODE.EXE, node-api-headers' def file), every fscache_*
#     function from fscache.dll (all of them exported by it), and needs
#     nothing else but KERNEL32 and msvcrt.
# Prints what it checked; exits non-zero on the first failure.
set -euo pipefail
arch=$1 dll=$2 addon=$3 header=$4
objdump=${LLVM_OBJDUMP:-llvm-objdump}
case $arch in
x64) format=coff-x86-64 ;;
arm64) format=coff-arm64 ;;
*) echo "check-pe: unknown arch $arch" >&2; exit 2 ;;
esac
fail() { echo "check-pe $arch: $*" >&2; exit 1; }
. "$(dirname "$0")/../check-binaries.sh"

# imports FILE: "DLL symbol" lines; exports FILE: symbol lines.
imports() {
	$objdump -p "$1" | awk '/DLL Name:/ {dll = toupper($3); next} dll != "" && /^ +[0-9]+ +[A-Za-z_]/ && NF == 2 {print dll, $2} /^Export Table:/ {dll = ""}'
}
exports() {
	$objdump -p "$1" | awk '/^Export Table:/ {on = 1; next} on && /^ +[0-9]+ +0x[0-9a-f]+ +/ {print $3}' | sort -u
}

for f in "$dll" "$addon"; do
	got=$($objdump -f "$f" | awk '/file format/ {print $NF}')
	[ "$got" = "$format" ] || fail "$f: want $format, got '${got:-not PE}'"
done

want=$(header_functions "$header")
dllexports=$(exports "$dll")
check_exports_exactly "$dll" "$want" "$dllexports"
dlldeps=$(imports "$dll" | awk '{print $1}' | sort -u | tr '\n' ' ')
[ "$dlldeps" = "KERNEL32.DLL MSVCRT.DLL " ] || fail "$dll imports from: $dlldeps"

addonexports=$(exports "$addon")
check_addon_exports "$addon" "$addonexports"
addondeps=$(imports "$addon" | awk '{print $1}' | sort -u | tr '\n' ' ')
[ "$addondeps" = "FSCACHE.DLL KERNEL32.DLL MSVCRT.DLL NODE.EXE " ] || fail "$addon imports from: $addondeps"
counts=$(imports "$addon" | check_binds "$addon" NODE.EXE FSCACHE.DLL "$dllexports")
read -r napi nimported <<<"$counts"

echo "check-pe $arch: ok: the $(echo "$want" | wc -l) C functions of fscache.h exported by fscache.dll, nothing else (imports: KERNEL32, msvcrt); addon exports $(echo $addonexports) only, $napi Node-API imports from NODE.EXE, $nimported from fscache.dll"
