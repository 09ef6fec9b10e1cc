#!/usr/bin/env bash
# Installs what building, testing and running svc locally need, and only what is missing:
#   - Debian packages: the PostgreSQL server, Redis, Chromium, ffmpeg, nginx, mpv (svc watch) and the rest of
#     DEBIAN_PACKAGES in versions.sh (apt-get, with sudo when not root);
#   - nats-server, the Temporal CLI, grpcurl (for the gRPC tests) and LiveKit's server (the SFU) at the versions pinned in
#     infra/versions.sh, built with `go install` into ${SVC_CACHE_DIR:-~/.cache/svc}/bin/<name>-<version>/ (outside the clone);
#   - with --containers (npm test, the benchmarks, npm run image): MediaMTX (the RTSP server of the
#     pulled-livestream tests, built from its module), podman and debootstrap
#     (DEBIAN_CONTAINER_PACKAGES), Caddy (for the reverse-proxy tests, built like the above),
#     Jaeger (the trace test's backend, built as a tool of a throwaway module) and
#     podman-compose from PyPI, into ${SVC_CACHE_DIR:-~/.cache/svc}/venv/podman-compose-<version>/;
#   - Node dependencies (`npm ci`) when node_modules is missing or was installed from another
#     package-lock.json (or Node.js ABI): a digest of both is kept in node_modules/.svc-installed.
# Safe to run any number of times; a run with nothing to do takes about a second.
set -euo pipefail
SVC_LOG_TAG=install
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/stamps.sh
source "$SVC_REPO_ROOT/infra/lib/stamps.sh"

check_node() {
  command -v node >/dev/null || die "Node.js >= $NODE_MIN_VERSION is required and not on PATH"
  local have
  have=$(node -p 'process.versions.node')
  version_at_least "$have" "$NODE_MIN_VERSION" || die "Node.js $have is too old: svc needs >= $NODE_MIN_VERSION"
}

debian_package_installed() {
  [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

containers=false
[[ ${1:-} == --containers ]] && containers=true

install_system_packages() {
  if ! command -v dpkg-query >/dev/null; then
    # Not Debian: the binaries have to come from the system's own packages.
    pg_bindir >/dev/null || die "PostgreSQL server binaries (initdb, pg_ctl) not found; install PostgreSQL $POSTGRES_MAJOR or set SVC_PG_BINDIR"
    command -v redis-server >/dev/null || die "redis-server not found; install Redis"
    return 0
  fi
  local missing=() package
  local wanted=("${DEBIAN_PACKAGES[@]}")
  ! $containers || wanted+=("${DEBIAN_CONTAINER_PACKAGES[@]}")
  for package in "${wanted[@]}"; do
    debian_package_installed "$package" || missing+=("$package")
  done
  ((${#missing[@]})) || return 0

  local sudo=()
  is_root || sudo=(sudo)
  log "installing Debian packages: ${missing[*]}"
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

find_go() {
  if command -v go >/dev/null; then
    command -v go
  elif [[ -x /usr/local/go/bin/go ]]; then
    echo /usr/local/go/bin/go
  else
    return 1
  fi
}

# build_go_binary <module> <version> <target path> [name go install gives it]
build_go_binary() {
  local module=$1 version=$2 target=$3 built=${4:-}
  [[ -x $target ]] && return 0
  local go
  go=$(find_go) || die "Go is needed once to build $module@$version (into $target); install it from go.dev/dl"
  local folder name staging
  folder=$(dirname "$target")
  name=$(basename "$target")
  [[ -n $built ]] || built=$name
  mkdir -p "$(dirname "$folder")"
  # Build into a staging folder and move into place at the end, so an interrupted build never
  # leaves something that a later run would take for a finished binary.
  staging=$(mktemp -d "$folder.building.XXXXXX")
  log "building $module@$version (once; cached in $folder)"
  # Outside any module, `go install pkg@version` builds exactly the versions in that module's go.mod.
  if ! (cd "$staging" && GOBIN="$staging" GOFLAGS=-mod=mod "$go" install "$module@$version"); then
    rm -rf "$staging"
    die "building $module@$version failed"
  fi
  mkdir -p "$folder"
  mv "$staging/$built" "$target"
  rm -rf "$staging"
  log "built $target"
}

# build_go_tool <package> <version> <target path>: for programs whose go.mod has replace
# directives, which `go install pkg@version` refuses. A throwaway module requires it as a tool
# (`go get -tool`, which resolves the versions its go.mod pins where the replaces allow) and
# builds it; staged and moved into place like build_go_binary.
build_go_tool() {
  local package=$1 version=$2 target=$3
  [[ -x $target ]] && return 0
  local go
  go=$(find_go) || die "Go is needed once to build $package@$version (into $target); install it from go.dev/dl"
  local folder name staging started
  folder=$(dirname "$target")
  name=$(basename "$target")
  mkdir -p "$(dirname "$folder")"
  staging=$(mktemp -d "$folder.building.XXXXXX")
  log "building $package@$version (once, a few minutes; cached in $folder)"
  started=$SECONDS
  # `go get` lists every module it adds (hundreds): kept in a file, shown only when it fails.
  if ! (cd "$staging" && "$go" mod init svc-build/"$name" >/dev/null 2>&1 && "$go" get -tool "$package@$version" >get.log 2>&1 && "$go" build -o "$staging/$name" "$package"); then
    [[ -f $staging/get.log ]] && tail -n 40 "$staging/get.log" >&2
    rm -rf "$staging"
    die "building $package@$version failed"
  fi
  mkdir -p "$folder"
  mv "$staging/$name" "$target"
  rm -rf "$staging"
  log "built $target in $((SECONDS - started)) s"
}

# build_mediamtx <target path>: MediaMTX, whose module `go install` cannot build (its go:generate
# steps write internal/core/VERSION and fetch hls.js for its HLS page from GitHub). The module is
# downloaded from the Go module proxy, the version file written and the HLS page's script left
# empty (svc's tests use its RTSP server only), then built; staged and moved into place like
# build_go_binary.
build_mediamtx() {
  local target=$1
  [[ -x $target ]] && return 0
  local go
  go=$(find_go) || die "Go is needed once to build $MEDIAMTX_MODULE@$MEDIAMTX_VERSION (into $target); install it from go.dev/dl"
  local folder staging dir
  folder=$(dirname "$target")
  mkdir -p "$(dirname "$folder")"
  staging=$(mktemp -d "$folder.building.XXXXXX")
  log "building $MEDIAMTX_MODULE@$MEDIAMTX_VERSION (once; cached in $folder)"
  if ! dir=$(cd "$staging" && GOFLAGS=-mod=mod "$go" mod download -json "$MEDIAMTX_MODULE@$MEDIAMTX_VERSION" | node -e 'let s="";process.stdin.on("data",(c)=>(s+=c)).on("end",()=>process.stdout.write(JSON.parse(s).Dir))'); then
    rm -rf "$staging"
    die "downloading $MEDIAMTX_MODULE@$MEDIAMTX_VERSION failed"
  fi
  cp -r "$dir" "$staging/src"
  chmod -R u+w "$staging/src"
  printf '%s\n' "$MEDIAMTX_VERSION" >"$staging/src/internal/core/VERSION"
  printf '/* hls.js is not embedded: svc runs MediaMTX for RTSP only */\n' >"$staging/src/internal/servers/hls/hls.min.js"
  if ! (cd "$staging/src" && GOFLAGS=-mod=mod "$go" build -o "$staging/mediamtx" .); then
    rm -rf "$staging"
    die "building $MEDIAMTX_MODULE@$MEDIAMTX_VERSION failed"
  fi
  mkdir -p "$folder"
  mv "$staging/mediamtx" "$target"
  rm -rf "$staging"
  log "built $target"
}

# podman-compose from PyPI, into a virtual environment of its own in the cache.
install_podman_compose() {
  [[ -x $PODMAN_COMPOSE_BIN ]] && return 0
  command -v python3 >/dev/null || die "Python 3 is needed once to install podman-compose $PODMAN_COMPOSE_VERSION from PyPI"
  local venv
  venv=$(dirname "$(dirname "$PODMAN_COMPOSE_BIN")")
  log "installing podman-compose $PODMAN_COMPOSE_VERSION from PyPI (once; into $venv)"
  rm -rf "$venv.building"
  python3 -m venv "$venv.building" || die "python3 -m venv failed (on Debian: apt-get install python3-venv)"
  "$venv.building/bin/pip" install --quiet --disable-pip-version-check "podman-compose==$PODMAN_COMPOSE_VERSION" || die "pip install podman-compose failed"
  rm -rf "$venv"
  mv "$venv.building" "$venv"
  # The scripts of a virtual environment name its path; the move changed it.
  sed -i "s|$venv.building|$venv|g" "$venv"/bin/*
}

# What node_modules was installed from: the lockfile's content and the Node.js ABI and platform
# (native addons are built for them). A checkout or a pull that leaves the lockfile's content as
# it was does not reinstall, whatever it did to its modification time.
node_modules_digest() {
  printf '%s %s\n' "$(files_digest package-lock.json)" "$(node -p '`abi-${process.versions.modules}-${process.platform}-${process.arch}`')"
}

install_node_modules() {
  cd "$SVC_REPO_ROOT"
  local stamp=node_modules/.svc-installed digest reason=
  digest=$(node_modules_digest)
  if [[ ! -d node_modules ]]; then
    reason="node_modules is missing"
  elif [[ -f $stamp ]]; then
    stamp_matches "$stamp" "$digest" || reason="package-lock.json or the Node.js version changed"
  elif [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    # Installed before this stamp existed: npm's own record of the install is all there is to go by.
    reason="package-lock.json is newer than node_modules"
  fi
  if [[ -n $reason ]]; then
    log "installing npm packages ($reason): npm ci"
    npm ci
  fi
  if [[ -n $reason || ! -f $stamp ]]; then write_stamp "$stamp" "$digest"; fi
}

check_node
install_system_packages
pg_bindir >/dev/null || die "PostgreSQL server binaries not found after installing packages; set SVC_PG_BINDIR"
build_go_binary "$NATS_SERVER_MODULE" "$NATS_SERVER_VERSION" "$NATS_SERVER_BIN"
build_go_binary "$TEMPORAL_CLI_MODULE" "$TEMPORAL_CLI_VERSION" "$TEMPORAL_BIN"
build_go_binary "$GRPCURL_MODULE" "$GRPCURL_VERSION" "$GRPCURL_BIN"
# LiveKit's command package is cmd/server: `go install` names the binary `server`.
build_go_binary "$LIVEKIT_SERVER_MODULE" "$LIVEKIT_SERVER_VERSION" "$LIVEKIT_SERVER_BIN" server
if $containers; then
  # Only the tests and benchmarks run it: `npm run dev` does not wait for its build.
  build_mediamtx "$MEDIAMTX_BIN"
  build_go_binary "$CADDY_MODULE" "$CADDY_VERSION" "$CADDY_BIN"
  build_go_tool "$JAEGER_MODULE" "$JAEGER_VERSION" "$JAEGER_BIN"
  install_podman_compose
fi
install_node_modules
log "ready: PostgreSQL in $(pg_bindir), redis-server, nats-server $NATS_SERVER_VERSION, temporal $TEMPORAL_CLI_VERSION, grpcurl $GRPCURL_VERSION, livekit-server $LIVEKIT_SERVER_VERSION,$($containers && printf ' mediamtx %s, caddy %s, jaeger %s, podman, podman-compose %s,' "$MEDIAMTX_VERSION" "$CADDY_VERSION" "$JAEGER_VERSION" "$PODMAN_COMPOSE_VERSION") node_modules"
