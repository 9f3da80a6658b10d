#!/bin/sh
# extld.sh DEF CC [ARGS...]: Go's external linker for the Windows DLLs
# (go build -ldflags '"-extld=build/windows/extld.sh DEF CC"'): runs CC with
# Go's arguments, DEF in place of the export file Go's linker writes.
#
# For -buildmode=c-shared on Windows, Go's linker writes export_file.def,
# every cgo //export of the program (capi's fscache_go_*, which only the C
# wrappers of capi/exports.c call), and passes it to the C linker, which
# exports them all. DEF (build/exports.sh def lib) lists the functions of
# include/fscache.h: the DLL exports those and nothing else. Every other
# run (Go probing the linker's flags) passes through unchanged.
set -eu
def=$1
shift
[ -f "$def" ] || { echo "extld.sh: no $def" >&2; exit 2; }
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	case $a in
	*/export_file.def | export_file.def) a=$def ;;
	esac
	set -- "$@" "$a"
	n=$((n - 1))
done
exec "$@"
