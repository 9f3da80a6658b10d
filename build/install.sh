#!/bin/sh
# install.sh PREFIX LIBFILE VERSION [PCPREFIX]: installs the C library under
# PREFIX the way a C library ships:
#   lib/libfscache.so.VERSION           the library (soname libfscache.so.MAJOR)
#   lib/libfscache.so.MAJOR -> ...      what programs load
#   lib/libfscache.so -> ...            what `-lfscache` links
#   include/fscache.h
#   lib/pkgconfig/fscache.pc            prefix=PCPREFIX (default PREFIX;
#                                       '${pcfiledir}/../..' makes it relocatable)
#   share/doc/fscache/LICENSE
# install.sh --uninstall PREFIX VERSION removes exactly those files.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
if [ "$1" = "--uninstall" ]; then
	prefix=$2 version=$3 major=${3%%.*}
	rm -f "$prefix/lib/libfscache.so.$version" "$prefix/lib/libfscache.so.$major" "$prefix/lib/libfscache.so" \
		"$prefix/include/fscache.h" "$prefix/lib/pkgconfig/fscache.pc" "$prefix/share/doc/fscache/LICENSE"
	rmdir "$prefix/share/doc/fscache" 2>/dev/null || true
	exit 0
fi
prefix=$1 lib=$2 version=$3 pcprefix=${4:-$1}
major=${version%%.*}
install -d "$prefix/lib/pkgconfig" "$prefix/include" "$prefix/share/doc/fscache"
install -m 0755 "$lib" "$prefix/lib/libfscache.so.$version"
ln -sf "libfscache.so.$version" "$prefix/lib/libfscache.so.$major"
ln -sf "libfscache.so.$major" "$prefix/lib/libfscache.so"
install -m 0644 "$top/include/fscache.h" "$prefix/include/fscache.h"
install -m 0644 "$top/LICENSE" "$prefix/share/doc/fscache/LICENSE"
sed -e "s|@PREFIX@|$pcprefix|" -e "s|@VERSION@|$version|" "$here/fscache.pc.in" >"$prefix/lib/pkgconfig/fscache.pc"
chmod 0644 "$prefix/lib/pkgconfig/fscache.pc"
