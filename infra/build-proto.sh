#!/usr/bin/env bash
# What `npm run build:proto` runs (and test.sh, dev.sh, bench.sh before tsc): generates the
# TypeScript types of proto/svc/v1/*.proto into gateways/grpc/gen/ (git-ignored) with
# proto-loader-gen-types, the generator bundled in @grpc/proto-loader (pure JS, from npm).
# The flags mirror LOADER_OPTIONS in gateways/grpc/proto.ts: the types describe the objects that
# loader produces at run time. Skipped when neither the protos nor the generator changed.
set -euo pipefail
SVC_LOG_TAG=proto
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$SVC_REPO_ROOT"

OUT=gateways/grpc/gen
FLAGS=(--longs=Number --enums=String --defaults --oneofs --includeComments --grpcLib=@grpc/grpc-js
  --importFileExtension=.js -I proto)
mapfile -t PROTOS < <(cd proto && find svc -name '*.proto' | LC_ALL=C sort)
((${#PROTOS[@]})) || die "no .proto files under proto/svc"

stamp=$(
  {
    printf '%s\n' "${FLAGS[@]}"
    node -p 'require("@grpc/proto-loader/package.json").version'
    for file in "${PROTOS[@]}"; do printf '%s\n' "$file" && cat "proto/$file"; done
  } | sha256sum | cut -d' ' -f1
)
if [[ -f $OUT/.stamp && $(cat "$OUT/.stamp") == "$stamp" ]]; then
  exit 0
fi

log "generating TypeScript for ${#PROTOS[@]} proto files into $OUT/"
staging=$(mktemp -d "$OUT.XXXXXX")
trap 'rm -rf "$staging"' EXIT
npx --no-install proto-loader-gen-types "${FLAGS[@]}" -O "$staging" "${PROTOS[@]}" >/dev/null
printf '%s\n' "$stamp" >"$staging/.stamp"
rm -rf "$OUT"
mv "$staging" "$OUT"
trap - EXIT
