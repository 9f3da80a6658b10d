#!/bin/sh
# Fetch the reference addon: `npm pack @oh-my-pi/pi-natives@VERSION` into a temp dir, keep only
# package/native/pi_natives.linux-x64-modern.node at DEST, delete the (~150 MB) tarball.
#   fetch-reference.sh VERSION DEST [SHA256]
set -eu
version=$1
dest=$2
want=${3:-}
npm=${NPM:-npm}
member=package/native/pi_natives.linux-x64-modern.node

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fscache-ref.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "conformance: fetching @oh-my-pi/pi-natives@$version (npm pack, ~150 MB) ..." >&2
(cd "$tmp" && "$npm" pack --silent --cache "$tmp/npm-cache" --pack-destination "$tmp" "@oh-my-pi/pi-natives@$version" >/dev/null)
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
