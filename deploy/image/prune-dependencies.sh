#!/bin/sh
# Removes from the production node_modules what the image's platform never loads: the Temporal
# core bridge ships a native library for five platforms (about 37 MB each) and loads one.
set -eu
releases=node_modules/@temporalio/core-bridge/releases
[ -d "$releases" ] || exit 0
case "$(uname -m)" in
  x86_64) keep=x86_64-unknown-linux-gnu ;;
  aarch64) keep=aarch64-unknown-linux-gnu ;;
  *) exit 0 ;;
esac
[ -d "$releases/$keep" ] || { echo "prune-dependencies.sh: no $keep in $releases; keeping all" >&2; exit 0; }
for platform in "$releases"/*; do
  [ "$(basename "$platform")" = "$keep" ] || rm -rf "$platform"
done
