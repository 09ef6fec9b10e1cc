#!/bin/sh
# Installs, from Debian's packages, what an image stage needs and its base image lacks:
#   runtime: Node.js (unless the base has it, as the official Node.js images do), tini, and the
#            shared libraries of the ffmpeg built in the image (the packages named in
#            $FFMPEG_PREFIX/runtime-packages; deploy/image/build-ffmpeg.sh);
#   build:   npm (the official Node.js images have it; Debian's nodejs does not).
# Without documentation or translations (deploy/image/dpkg-slim.cfg; docs/2026-11-26-containers.md).
# A base that already has everything (a prepared local base) needs no network here.
set -eu
here=$(dirname "$0")
wanted=
case "${1:?usage: install-packages.sh runtime|build}" in
  runtime)
    command -v node >/dev/null || wanted="nodejs"
    wanted="$wanted tini ca-certificates $(cat "${FFMPEG_PREFIX:?FFMPEG_PREFIX names where ffmpeg is}/runtime-packages")"
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

cp "$here/dpkg-slim.cfg" /etc/dpkg/dpkg.cfg.d/svc-slim
apt-get update -q
# shellcheck disable=SC2086 # a list of package names
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
# The downloaded packages and apt's caches (about 200 MB): a minimal Debian base, unlike Debian's
# official images, does not clean them after each install.
apt-get clean
rm -rf /var/lib/apt/lists/*
# What a base other than svc's own (deploy/image/dpkg-slim.cfg) brought of them; deleting them
# here hides them but leaves them in that base's layer.
find /usr/share/doc -mindepth 1 ! -type d ! -name copyright -delete
find /usr/share/doc -mindepth 1 -type d -empty -delete
rm -rf /usr/share/man/* /usr/share/info/* /usr/share/locale/* /usr/share/lintian/*
