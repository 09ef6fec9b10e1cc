#!/bin/sh
# Removes from the production node_modules what the image's platform never loads:
# - the Temporal core bridge ships a native library for five platforms (about 37 MB each) and
#   loads one, and the Rust sources it was built from (about 11 MB);
# - sharp installs its libvips for glibc, for musl and as WebAssembly (about 47 MB) and, on a
#   glibc Linux with a native build, loads the first;
# - packages ship their TypeScript sources and declarations, source maps and documents (about
#   60 MB), which Node.js never loads (a stack trace through a dependency shows its JavaScript).
set -eu

find node_modules -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' -o -name '*.md' -o -name '*.markdown' \) \
  ! -iname 'licen[cs]e*' ! -iname 'copying*' ! -iname 'notice*' -delete
case "$(uname -m)" in
  x86_64) triple=x86_64-unknown-linux-gnu sharp=linux-x64 ;;
  aarch64) triple=aarch64-unknown-linux-gnu sharp=linux-arm64 ;;
  *) exit 0 ;;
esac

bridge=node_modules/@temporalio/core-bridge
rm -rf "$bridge/sdk-core" "$bridge/src" "$bridge/bridge-macros" "$bridge/Cargo.toml" "$bridge/Cargo.lock"
releases=$bridge/releases
if [ -d "$releases/$triple" ]; then
  for platform in "$releases"/*; do
    [ "$(basename "$platform")" = "$triple" ] || rm -rf "$platform"
  done
elif [ -d "$releases" ]; then
  echo "prune-dependencies.sh: no $triple in $releases; keeping all" >&2
fi

img=node_modules/@img
if [ -d "$img/sharp-$sharp" ] && [ -d "$img/sharp-libvips-$sharp" ]; then
  for package in "$img"/*; do
    case "$(basename "$package")" in
      "sharp-$sharp" | "sharp-libvips-$sharp" | colour) ;;
      *) rm -rf "$package" ;;
    esac
  done
elif [ -d "$img" ]; then
  echo "prune-dependencies.sh: no sharp-$sharp in $img; keeping all" >&2
fi
