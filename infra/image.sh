#!/usr/bin/env bash
# What `npm run image` runs: builds svc's container image ($SVC_IMAGE, default
# localhost/svc:<version>) from the Containerfile with podman.
#   --base <image>   build on that image (e.g. docker.io/library/node:22-trixie-slim, the
#                    Containerfile's default) instead of the local Debian base;
#   --dependencies   also build the local stand-ins for the images deploy/compose.yaml names for
#                    PostgreSQL, Redis, NATS, Temporal and LiveKit (deploy/local-images/; for machines that
#                    reach no registry, like the one svc is developed on).
# Without --base, the image is built on a Debian trixie base made here from Debian's packages
# (debootstrap), because this machine reaches no container registry; the Containerfile is the same.
# A second run reuses the base and podman's layer cache.
set -euo pipefail
SVC_LOG_TAG=image
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/podman.sh
source "$SVC_REPO_ROOT/infra/lib/podman.sh"
cd "$SVC_REPO_ROOT"

base=
dependencies=false
while (($#)); do
  case $1 in
    --base) base=${2:?--base needs an image}; shift 2 ;;
    --dependencies) dependencies=true; shift ;;
    *) die "unknown argument $1 (see infra/image.sh)" ;;
  esac
done

require_podman
if [[ -z $base ]]; then
  ensure_local_base_image
  base=$LOCAL_BASE_IMAGE
fi

# --format docker keeps HEALTHCHECK (the OCI format has no field for it); --network host lets
# apt-get and npm reach their registries from machines where only the host's network does.
# Machines whose traffic passes a TLS-inspecting proxy (this one does) trust its CA in the system
# bundle; npm in the build gets that bundle as a build secret, which stays out of the image.
build() {
  local secret=()
  [[ ! -s $CA_BUNDLE ]] || secret=(--secret "id=ca-certificates,src=$CA_BUNDLE")
  podman build --format docker --network host "${secret[@]}" --build-arg "BASE_IMAGE=$base" "$@"
}
CA_BUNDLE=${SVC_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}

started=$(date +%s)
build_log="$SVC_CACHE_DIR/images/build.log"
mkdir -p "$(dirname "$build_log")"
log "building $SVC_IMAGE on $base (log: $build_log)"
build --tag "$SVC_IMAGE" --file Containerfile . >"$build_log" 2>&1 || fail_with_log "building $SVC_IMAGE failed" "$build_log"
log "built $SVC_IMAGE in $(($(date +%s) - started)) s: $(podman image inspect --format '{{.Size}}' "$SVC_IMAGE" | awk '{printf "%.0f MB", $1 / 1e6}')"

if $dependencies; then
  bash infra/install.sh --containers >/dev/null
  bash deploy/local-images/build.sh "$base"
fi
