#!/usr/bin/env bash
# What `npm test` runs: install what is missing, compile, lint, then run ava against a throwaway
# stack (PostgreSQL, Redis, NATS, Temporal, LiveKit on free ports) that is removed afterwards; last, build
# the container images (npm run image -- --dependencies) and run the deployment tests.
# Arguments go to ava: `npm test -- dist/test/config/` runs only those files, and prepares only
# what they need (the previous release, the shared browser, the images).
set -euo pipefail
SVC_LOG_TAG="test"
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/throwaway-stack.sh
source "$SVC_REPO_ROOT/infra/lib/throwaway-stack.sh"
cd "$SVC_REPO_ROOT"

# timed <what> <command...>: runs it and says how long it took (where a run's minutes go).
timed() {
  local what=$1 started=$SECONDS
  shift
  local code=0
  "$@" || code=$?
  log "$what: $((SECONDS - started)) s"
  return "$code"
}

scrub_svc_environment
bash infra/install.sh --containers
timed "build" bash infra/build.sh
log "linting (eslint)"
# ESLint keeps what it found per file, by content, in a cache of this checkout's own: a second run
# lints only the files that changed (a clean clone, as in CI, lints everything). Type-aware rules
# can change their verdict on an unchanged file when a file it imports changes; SVC_LINT_FULL=1
# lints everything.
lint_cache="$SVC_CACHE_DIR/eslint/$(printf '%s' "$SVC_REPO_ROOT" | md5sum | cut -c1-12)"
if [[ ${SVC_LINT_FULL:-0} == 1 ]]; then rm -rf "$lint_cache"; fi
timed "lint" npx eslint --cache --cache-strategy content --cache-location "$lint_cache" .
# The test files the arguments select, as paths under dist/test (all of them when no argument
# names a file, folder or glob: `npm test -- --match '*sync*'` runs ava over every file).
selected_files() {
  local arg named=false
  for arg in "$@"; do
    [[ $arg == -* ]] && continue
    arg=${arg#./}
    arg=${arg%%:[0-9]*} # ava's file.js:12 line selection
    if [[ -d $arg ]]; then
      named=true
      find "$arg" -name '*.test.js'
    elif [[ $arg == *.js || $arg == *'*'* ]]; then
      named=true
      compgen -G "$arg" || true
    fi
  done
  $named || find dist/test -name '*.test.js'
}
selection=$(selected_files "$@")
selects() { grep -q "^$1" <<<"$selection"; }

# The rolling-upgrade test runs the previous release beside this build: built once into
# ~/.cache/svc/releases/<sha> (minutes the first time, nothing after), before the stack is up.
# A failure here is reported by that test, with the reason, rather than stopping the run.
if selects dist/test/upgrade/; then
  log "preparing the previous release (test/upgrade/previous-release)"
  node dist/test/upgrade/prepare-previous-release.js || log "warning: the previous release could not be built; the rolling-upgrade test will fail"
fi

throwaway_stack_up
log "running ava against the stack in $SVCTEST_STACK_DIR"
status=0
# The gRPC tests call the API with a stock client too (built by install.sh).
export SVCTEST_GRPCURL=$GRPCURL_BIN
# The documented Caddyfile runs in front of the gateways too; the Compose test starts the stack
# with podman-compose (both built or installed by install.sh).
export SVCTEST_CADDY=$CADDY_BIN
export SVCTEST_PODMAN_COMPOSE=$PODMAN_COMPOSE_BIN
# The pulled-livestream tests publish RTSP to a real MediaMTX (built by install.sh).
export SVCTEST_MEDIAMTX=$MEDIAMTX_BIN
# The trace test exports to and queries a real Jaeger (built by install.sh --containers).
export SVCTEST_JAEGER=$JAEGER_BIN
# The browser tests share one Chromium per set of flags (test/web/e2e/browser-keeper.ts), stopped
# with the stack; its stdin is a pipe from this script, so it ends even if this script is killed.
if selects dist/test/web/e2e/; then
  keeper_url=$SVCTEST_STACK_DIR/browsers.url keeper_log=$SVCTEST_STACK_DIR/browsers.log
  exec {keeper_stdin}> >(exec node dist/test/web/e2e/browser-keeper.js "$keeper_url" >"$keeper_log" 2>&1)
  keeper_pid=$!
  trap 'kill "$keeper_pid" 2>/dev/null || true; throwaway_stack_down' EXIT
  keeper_alive() { kill -0 "$keeper_pid" 2>/dev/null; }
  keeper_ready() { [[ -s $keeper_url ]]; }
  wait_ready "the shared browser keeper" 30 "$keeper_log" keeper_alive keeper_ready
  SVCTEST_BROWSERS_URL=$(<"$keeper_url")
  export SVCTEST_BROWSERS_URL
fi
# The deployments need the image (built here, on a cached base; a second run reuses its layers)
# and the stand-ins for the images the Compose file names.
build_images() {
  bash infra/image.sh --dependencies && return 0
  log "error: building the images failed; the container tests did not run"
  return 1
}
if [[ $# -gt 0 ]]; then
  if ! selects dist/test/containers/ || build_images; then
    env -u SVC_CACHE_DIR npx ava "$@" || status=$?
  else
    status=1
  fi
else
  # The browser tests (Chromium with fake devices, ffmpeg, coturn) run after the rest, two files
  # at a time: beside three other suites on a 2-core machine, their 30 s waits for playback and
  # call events ran out.
  mapfile -t suites < <(find dist/test -name '*.test.js' -not -path 'dist/test/web/e2e/*' -not -path 'dist/test/containers/*' | sort)
  timed "server tests" env -u SVC_CACHE_DIR npx ava "${suites[@]}" || status=$?
  # The two heaviest browser files run one after the other after them, each alone: the transcode
  # file (three pages decoding while the transcoder encodes an HEVC source into two rungs) and
  # the SFU call (twelve pages each sending a camera). Beside another browser file they take both
  # cores: its waits ran out, and the other file's room host missed its lease.
  alone=(dist/test/web/e2e/{transcode,call}.test.js)
  mapfile -t browser_suites < <(find dist/test/web/e2e -name '*.test.js' | grep -v -x -F "${alone[@]/#/-e}" | sort)
  timed "browser tests" env -u SVC_CACHE_DIR npx ava --concurrency 2 "${browser_suites[@]}" || status=$?
  timed "browser tests (transcode, call, each alone)" env -u SVC_CACHE_DIR npx ava --concurrency 1 "${alone[@]}" || status=$?
  # Last, the deployments: the image, the Compose stack and the Kubernetes manifests, one at a time.
  if timed "images" build_images; then
    timed "deployment tests" env -u SVC_CACHE_DIR npx ava --concurrency 1 'dist/test/containers/*.test.js' || status=$?
  else
    status=1
  fi
fi
exit "$status"
