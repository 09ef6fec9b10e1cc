#!/usr/bin/env bash
# Builds the local stand-ins for the dependency images deploy/compose.yaml names (README.md
# beside this file says why and how they differ), tagged with those names.
# Usage: bash deploy/local-images/build.sh [base image]   (default: the local Debian base)
set -euo pipefail
SVC_LOG_TAG=local-images
# shellcheck source=../../infra/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../infra/lib/common.sh"
# shellcheck source=../../infra/lib/podman.sh
source "$SVC_REPO_ROOT/infra/lib/podman.sh"
cd "$SVC_REPO_ROOT/deploy/local-images"

require_podman
base=${1:-}
if [[ -z $base ]]; then
  ensure_local_base_image
  base=$LOCAL_BASE_IMAGE
fi
[[ -x $NATS_SERVER_BIN && -x $TEMPORAL_BIN && -x $LIVEKIT_SERVER_BIN ]] || die "nats-server, temporal and livekit-server are not built yet: run bash infra/install.sh"

context=$(mktemp -d)
trap 'rm -rf "$context" "$context.log"' EXIT

# stand_in <folder> <tag> [binary to put in the context]
stand_in() {
  local folder=$1 tag=$2 binary=${3:-}
  rm -rf "${context:?}"/* && cp -a "$folder/." "$context/"
  [[ -z $binary ]] || cp "$binary" "$context/"
  log "building $tag (stand-in, from $folder/)"
  podman build --format docker --network host --build-arg "BASE_IMAGE=$base" --tag "$tag" "$context" >"$context.log" 2>&1 ||
    fail_with_log "building $tag failed" "$context.log"
}

stand_in postgres docker.io/library/postgres:17
stand_in redis docker.io/library/redis:8
stand_in nats "docker.io/library/nats:${NATS_SERVER_VERSION#v}-alpine" "$NATS_SERVER_BIN"
stand_in temporal "docker.io/temporalio/temporal:${TEMPORAL_CLI_VERSION#v}" "$TEMPORAL_BIN"
stand_in livekit "docker.io/livekit/livekit-server:$LIVEKIT_SERVER_VERSION" "$LIVEKIT_SERVER_BIN"
