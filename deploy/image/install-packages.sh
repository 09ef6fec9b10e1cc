#!/bin/sh
# Installs, from Debian's packages, what an image stage needs and its base image lacks:
#   runtime: Node.js (unless the base has it, as the official Node.js images do), ffmpeg, tini;
#   build:   npm (the official Node.js images have it; Debian's nodejs does not).
# A base that already has everything (a prepared local base) needs no network here.
set -eu
wanted=
case "${1:?usage: install-packages.sh runtime|build}" in
  runtime)
    command -v node >/dev/null || wanted="nodejs"
    wanted="$wanted ffmpeg tini ca-certificates"
    ;;
  build)
    command -v npm >/dev/null || wanted="npm"
    ;;
  *) echo "install-packages.sh: unknown stage $1" >&2; exit 2 ;;
esac
missing=
for package in $wanted; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing="$missing $package"
done
[ -n "$missing" ] || exit 0
echo "installing Debian packages:$missing" >&2
apt-get update -q
# shellcheck disable=SC2086 # a list of package names
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
rm -rf /var/lib/apt/lists/*
