#!/bin/sh
# Installs, from Debian's packages, what an image stage needs and its base image lacks:
#   runtime: Node.js (unless the base has it, as the official Node.js images do), ffmpeg, tini;
#   build:   npm (the official Node.js images have it; Debian's nodejs does not).
# Without documentation, translations or Mesa's drivers (below; docs/2026-11-26-containers.md).
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

# Manuals, documentation and translations are never read in a container; licences are kept.
cat >/etc/dpkg/dpkg.cfg.d/svc-slim <<'SLIM'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
SLIM

apt-get update -q

# ffmpeg's device library (libavdevice: SDL, OpenGL) depends on Mesa's Gallium drivers, which
# depend on LLVM and Z3: about 195 MB that a server never loads (no binary svc runs links them;
# SDL and libglvnd only dlopen them to draw on a screen). An empty package of the same name and
# version stands in for the drivers, so apt does not pull them. An image derived from this one
# that needs Mesa's drivers (AMD VAAPI through mesa-va-drivers) reinstalls the real package:
# `apt-mark unhold mesa-libgallium && apt-get install --reinstall mesa-libgallium`.
stand_in() {
  version=$(apt-cache policy "$1" | awk '/Candidate:/ { print $2 }')
  case "$version" in '' | '(none)') return 0 ;; esac
  dir=$(mktemp -d)
  mkdir "$dir/DEBIAN"
  printf '%s\n' "Package: $1" "Version: $version" "Architecture: $(dpkg --print-architecture)" \
    "Multi-Arch: same" "Maintainer: svc image <nobody@localhost>" \
    "Description: empty stand-in for $1 (svc's image draws nothing)" >"$dir/DEBIAN/control"
  dpkg-deb --build --root-owner-group "$dir" "$dir.deb" >/dev/null
  dpkg -i "$dir.deb" >/dev/null
  rm -rf "$dir" "$dir.deb"
  # The archive's package has the same version but other contents: apt would take it instead.
  apt-mark hold "$1" >/dev/null
}
case "$missing" in *ffmpeg*) stand_in mesa-libgallium ;; esac

# shellcheck disable=SC2086 # a list of package names
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
# The downloaded packages and apt's caches (about 200 MB): a minimal Debian base, unlike Debian's
# official images, does not clean them after each install.
apt-get clean
rm -rf /var/lib/apt/lists/*
# What the base image brought of them before the exclusions above.
find /usr/share/doc -mindepth 1 ! -type d ! -name copyright -delete
find /usr/share/doc -mindepth 1 -type d -empty -delete
rm -rf /usr/share/man/* /usr/share/info/* /usr/share/locale/* /usr/share/lintian/*
