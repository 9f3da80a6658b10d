#!/bin/sh
# Fetch the reference addon: `npm pack @oh-my-pi/pi-natives@VERSION` into a temp dir, keep only
# package/native/pi_natives.linux-x64-modern.node at DEST, delete the (~150 MB) tarball.
#   fetch-reference.sh VERSION DEST [SHA256]
set -eu
version=$1
dest=$2
want=${3:-}
npm=${NPM:-npm}
# PKG and MEMBER name another package and tarball member (the 18.2.3 reference lives in
# @oh-my-pi/pi-natives-linux-x64, at package/pi_natives.linux-x64-modern.node).
pkg=${PKG:-@oh-my-pi/pi-natives}
member=${MEMBER:-package/native/pi_natives.linux-x64-modern.node}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fscache-ref.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "conformance: fetching $pkg@$version (npm pack, ~85-150 MB) ..." >&2
(cd "$tmp" && "$npm" pack --silent --cache "$tmp/npm-cache" --pack-destination "$tmp" "$pkg@$version" >/dev/null)
tgz=$(ls "$tmp"/*.tgz)
tar -xzf "$tgz" -C "$tmp" "$member"
rm -f "$tgz"
if [ -n "$want" ]; then
  got=$(sha256sum "$tmp/$member" | cut -d' ' -f1)
  if [ "$got" != "$want" ]; then
    echo "conformance: sha256 mismatch for $member: got $got, want $want" >&2
    exit 1
  fi
fi
mkdir -p "$(dirname "$dest")"
mv "$tmp/$member" "$dest.part"
mv "$dest.part" "$dest"
echo "conformance: reference cached at $dest" >&2
