#!/usr/bin/env bash
# Runs one benchmark program against a throwaway stack like the tests do, but with a durable
# PostgreSQL (fsync and synchronous commit on), so figures include what commits cost:
#   infra/bench.sh <name> [args...]     e.g. `npm run bench:settings`
# <name> is dist/bench/<name>.js; `settings` is dist/bench/settings-propagation.js, `soak` dist/bench/soak/main.js.
# BENCH_PROF_DIR=<dir>: the benchmark and the svc processes it starts write V8 CPU profiles there.
set -euo pipefail
SVC_LOG_TAG=bench
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/throwaway-stack.sh
source "$SVC_REPO_ROOT/infra/lib/throwaway-stack.sh"
cd "$SVC_REPO_ROOT"

name=${1:-}
[[ -n $name ]] || die "usage: infra/bench.sh <name> [args...]"
shift
case $name in
settings) program=dist/bench/settings-propagation.js ;;
soak) program=dist/bench/soak/main.js ;;
*) program=dist/bench/$name.js ;;
esac

scrub_svc_environment
bash infra/install.sh --containers
bash infra/build.sh
[[ -f $program ]] || die "no benchmark program $program (compiled from bench/*.ts)"

# Benchmarks holding many sockets (bench:realtime opens 10,000 at once) need more descriptors
# than a default soft limit of 1024: raise it to the hard limit, which the processes inherit.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || log "warning: could not raise the open-file limit above $(ulimit -n)"

throwaway_stack_up durable
# bench:containers starts the Compose stack with the podman-compose install.sh installed.
export SVCTEST_PODMAN_COMPOSE=$PODMAN_COMPOSE_BIN
# bench:live-pull pulls RTSP from a MediaMTX (built by install.sh).
export SVCTEST_MEDIAMTX=$MEDIAMTX_BIN
# bench:tracing exports to a Jaeger of its own (built by install.sh --containers).
export SVCTEST_JAEGER=$JAEGER_BIN
log "running $program against the stack in $SVCTEST_STACK_DIR"
status=0
env -u SVC_CACHE_DIR node ${BENCH_PROF_DIR:+--cpu-prof --cpu-prof-dir=$BENCH_PROF_DIR} --enable-source-maps "$program" "$@" || status=$?
exit "$status"
