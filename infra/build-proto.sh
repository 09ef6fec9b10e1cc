#!/usr/bin/env bash
# What `npm run build:proto` runs (and build.sh, test.sh, dev.sh, bench.sh before tsc):
#   1. the .proto files generated from the contracts (proto/svc/v1/room.proto and events.proto)
#      and their field lock (proto/svc/v1/fields.lock.json), by gateways/grpc/schema/ compiled
#      alone (it imports only the contracts). Locally the checked-in copies are rewritten when the contracts changed
#      (the change shows in git as a diff to review and commit); in CI (CI=true, or --check) a
#      stale copy fails the build. Skipped while the generator's inputs are unchanged;
#   2. the TypeScript types of every proto/svc/v1/*.proto into gateways/grpc/gen/ (git-ignored)
#      with proto-loader-gen-types, the generator bundled in @grpc/proto-loader (pure JS, from
#      npm). The flags mirror LOADER_OPTIONS in gateways/grpc/proto.ts: the types describe the
#      objects that loader produces at run time. Skipped when neither the protos nor the generator
#      changed.
set -euo pipefail
SVC_LOG_TAG=proto
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/stamps.sh
source "$SVC_REPO_ROOT/infra/lib/stamps.sh"
cd "$SVC_REPO_ROOT"

check=0
[[ ${1:-} == --check || ${CI:-} == true ]] && check=1

# 1. .proto files from the contracts.
GENERATOR_TSCONFIG=gateways/grpc/schema/tsconfig.generate.json
GENERATOR_OUT=dist/proto-generate
GENERATOR_STAMP=$GENERATOR_OUT.stamp
generator_inputs() {
  # What the generator's last compile read (the contracts it imports), and what it reads and writes.
  tsbuildinfo_sources "$GENERATOR_OUT/.tsbuildinfo"
  find proto -type f
  printf '%s\n' "$GENERATOR_TSCONFIG" tsconfig.json package-lock.json infra/build-proto.sh
}
digest() { mapfile -t inputs < <(generator_inputs) && files_digest "${inputs[@]}"; }
if ! stamp_matches "$GENERATOR_STAMP" "$check $(digest)"; then
  rm -f "$GENERATOR_STAMP"
  npx --no-install tsc -p "$GENERATOR_TSCONFIG"
  args=("$SVC_REPO_ROOT")
  ((check)) && args+=(--check)
  node "$GENERATOR_OUT/gateways/grpc/schema/main.js" "${args[@]}" | while read -r line; do log "$line"; done
  write_stamp "$GENERATOR_STAMP" "$check $(digest)"
fi

# 2. TypeScript types of every .proto file.
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
