#!/bin/sh
# Builds ffmpeg and ffprobe from the base's own Debian source package, with only the outside
# libraries svc uses, into $1 (a prefix: bin/, lib/), and writes $1/runtime-packages: the Debian
# packages that hold the shared libraries the build links, which the runtime stage installs.
#
# Why not Debian's ffmpeg package: it links about eighty libraries (flite, codec2, x265, SVT-AV1,
# rav1e, libplacebo, SDL, ...) for 215 MB of closure, where svc transcodes with x264 and remuxes
# (docs/2026-11-26-containers.md). Every decoder, demuxer, parser and filter of ffmpeg itself is
# kept, so whatever Debian's ffmpeg opens this one opens too; what goes is the outside encoders,
# the devices that draw or capture, and the outside decoders ffmpeg has its own of.
#
# Kept from outside (and why):
#   libx264             the software H.264 encoder of converted video and live pulls
#   libdav1d            AV1 decoding (ffmpeg's own AV1 decoder needs a hardware accelerator)
#   libzimg             the zscale filter: HDR sources tone-mapped to SDR
#   vaapi, libvpl,      the hardware H.264 encoders svc tries (h264_vaapi, h264_qsv, h264_nvenc)
#   nvenc
#   gnutls              https, rtmps and TLS inputs (live pulls, providers)
#   libsrt              srt:// live pulls
#   libxml2             DASH manifests; zlib, bzlib, lzma: compressed tracks and images
set -eu
prefix=${1:?usage: build-ffmpeg.sh <prefix>}

# The source of the ffmpeg this base's Debian ships (deb-src next to every deb line, both the
# one-line and the deb822 formats).
for list in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
  [ -f "$list" ] && sed -i -e '/^deb-src /d' -e 'p; s/^deb /deb-src /' "$list"
done
for list in /etc/apt/sources.list.d/*.sources; do
  [ -f "$list" ] && sed -i 's/^Types: deb$/Types: deb deb-src/' "$list"
done
apt-get update -q
# QSV through libvpl where this Debian's ffmpeg can use it (7.x: trixie; not bookworm's 5.1).
vpl=
apt-cache show libvpl-dev >/dev/null 2>&1 && vpl=libvpl-dev
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  build-essential dpkg-dev nasm pkgconf \
  libx264-dev libdav1d-dev libzimg-dev libva-dev $vpl libffmpeg-nvenc-dev \
  libgnutls28-dev libsrt-gnutls-dev libxml2-dev zlib1g-dev libbz2-dev liblzma-dev

mkdir -p /tmp/ffmpeg-source
cd /tmp/ffmpeg-source
# As root, apt cannot hand the download to its unprivileged user (a folder it cannot write).
apt-get source -q -o APT::Sandbox::User=root ffmpeg >/dev/null
cd ffmpeg-*/
qsv=
[ -n "$vpl" ] && ./configure --help | grep -q -- '--enable-libvpl' && qsv=--enable-libvpl

# --disable-autodetect: nothing the -dev packages above happen to pull in (X11, ALSA, SDL,
# Vulkan) is linked unless it is named here.
./configure \
  --prefix="$prefix" \
  --extra-version="$(dpkg-parsechangelog -S Version | sed 's/^[0-9]*://; s/^[^-]*-//')+svc" \
  --enable-gpl --enable-version3 \
  --enable-shared --disable-static \
  --disable-doc --disable-ffplay --disable-debug \
  --disable-autodetect \
  --enable-pthreads --enable-zlib --enable-bzlib --enable-lzma --enable-iconv \
  --enable-libx264 --enable-libdav1d --enable-libzimg \
  --enable-vaapi $qsv --enable-ffnvcodec --enable-nvenc \
  --enable-gnutls --enable-libsrt --enable-libxml2 \
  --extra-ldflags="-Wl,-rpath,$prefix/lib" \
  >/tmp/ffmpeg-configure.log 2>&1 || { tail -40 /tmp/ffmpeg-configure.log ffbuild/config.log >&2; exit 1; }
make -j"$(nproc)" >/tmp/ffmpeg-make.log 2>&1 || { tail -60 /tmp/ffmpeg-make.log >&2; exit 1; }
make install >/dev/null
rm -rf "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/share"
strip --strip-unneeded "$prefix/bin/"* "$prefix/lib/"*.so.*
mkdir -p "$prefix/share/doc/ffmpeg"
cp COPYING.GPLv3 COPYING.LGPLv3 LICENSE.md "$prefix/share/doc/ffmpeg/"

# The Debian packages of every shared library outside $prefix that the binaries need.
for file in "$prefix/bin/"* "$prefix/lib/"*.so.*; do
  ldd "$file" | awk '$3 ~ /^\// { print $3 }'
done | sort -u | grep -v "^$prefix/" | while read -r library; do
  dpkg -S "$(readlink -f "$library")" 2>/dev/null || dpkg -S "$library"
done | cut -d: -f1 | sort -u >"$prefix/runtime-packages"
echo "ffmpeg's runtime packages: $(tr '\n' ' ' <"$prefix/runtime-packages")" >&2
