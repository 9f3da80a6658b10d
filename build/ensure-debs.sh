#!/bin/sh
# ensure-debs.sh PKG...: installs the Debian packages that are missing, with
# one `apt-get update` first (as root; with sudo otherwise). Used by the
# Makefile so a fresh machine needs no manual step.
set -eu
missing=""
for p in "$@"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "fscache: installing Debian packages:$missing" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
