# shellcheck shell=bash
# A throwaway stack for one test or benchmark run (PostgreSQL, Redis, NATS, Temporal, LiveKit): a
# fresh temp dir, free ports, Temporal headless, and no durability unless asked for. Sourced by
# test.sh and bench.sh after lib/common.sh.
#
# Harness contract (test/harness/stack.ts): private PostgreSQL clusters that tests start live in
# "$SVCTEST_STACK_DIR"/private-pg-*/ and private-nats-*/, private LiveKit clusters in private-sfu-*/
# (their nodes in private-sfu-*/node-*/), and `npm run soak` keeps its whole stack in
# private-soak-*/; they are stopped here too, in case a test or the soak never got to.

# scrub_svc_environment: the tests' environment must not depend on the developer's shell, so every
# SVC_* and SVCTEST_* variable goes, except SVC_CACHE_DIR (where the infra scripts find binaries).
scrub_svc_environment() {
  local name
  for name in $(compgen -e); do
    if [[ ($name == SVC_* || $name == SVCTEST_*) && $name != SVC_CACHE_DIR ]]; then
      unset "$name"
    fi
  done
}

THROWAWAY_STACK_DIR=

throwaway_stack_down() {
  [[ -n $THROWAWAY_STACK_DIR && -d $THROWAWAY_STACK_DIR ]] || return 0
  # A second Ctrl-C must not cut the clean-up short and leave servers behind; the stop commands
  # inherit the ignored signals.
  trap '' INT TERM
  local private
  # A cluster's nodes before the Redis they keep their rooms in.
  for private in "$THROWAWAY_STACK_DIR"/private-pg-*/ "$THROWAWAY_STACK_DIR"/private-nats-*/ "$THROWAWAY_STACK_DIR"/private-sfu-*/node-*/ \
    "$THROWAWAY_STACK_DIR"/private-sfu-*/ "$THROWAWAY_STACK_DIR"/private-soak-*/; do
    [[ -d $private ]] || continue
    SVC_STACK_DIR=$private bash "$SVC_REPO_ROOT/infra/stack.sh" stop 2>/dev/null ||
      log "warning: could not stop the private server in $private"
  done
  SVC_STACK_DIR=$THROWAWAY_STACK_DIR bash "$SVC_REPO_ROOT/infra/stack.sh" stop ||
    log "warning: could not stop the stack in $THROWAWAY_STACK_DIR"
  rm -rf "$THROWAWAY_STACK_DIR"
  THROWAWAY_STACK_DIR=
}

# throwaway_stack_up [durable]: starts the stack, exports SVCTEST_*, and stops and deletes it when the
# calling script exits, however it exits. `durable` keeps fsync and synchronous commits on, as in
# production: benchmarks use it so a commit costs what it really costs.
throwaway_stack_up() {
  local throwaway=1
  [[ ${1:-} == durable ]] && throwaway=0
  THROWAWAY_STACK_DIR=$(mktemp -d "${TMPDIR:-/tmp}/svc-stack.XXXXXX")
  # mktemp makes it private to us; the postgres user (when we are root) must be able to enter it.
  chmod 755 "$THROWAWAY_STACK_DIR"
  trap throwaway_stack_down EXIT
  # On a signal, exit so that the EXIT trap runs; 128+n is the conventional status.
  trap 'exit 130' INT
  trap 'exit 143' TERM

  SVC_STACK_DIR=$THROWAWAY_STACK_DIR SVC_STACK_THROWAWAY=$throwaway SVC_STACK_TEMPORAL_HEADLESS=1 \
    bash "$SVC_REPO_ROOT/infra/stack.sh" start

  # stack.env holds the svc startup configuration; the tests get the same addresses as SVCTEST_*.
  local SVC_DATABASE_URL SVC_REDIS_URL SVC_NATS_URL SVC_TEMPORAL_ADDRESS SVC_TEMPORAL_UI_URL
  local SVC_SFU_URL SVC_SFU_PUBLIC_URL SVC_SFU_API_KEY SVC_SFU_API_SECRET
  # shellcheck source=/dev/null
  source "$THROWAWAY_STACK_DIR/stack.env"
  export SVCTEST_PG_URL=$SVC_DATABASE_URL
  export SVCTEST_REDIS_URL=$SVC_REDIS_URL
  export SVCTEST_NATS_URL=$SVC_NATS_URL
  export SVCTEST_TEMPORAL_ADDRESS=$SVC_TEMPORAL_ADDRESS
  export SVCTEST_SFU_URL=$SVC_SFU_URL
  export SVCTEST_SFU_PUBLIC_URL=$SVC_SFU_PUBLIC_URL
  export SVCTEST_SFU_API_KEY=$SVC_SFU_API_KEY
  export SVCTEST_SFU_API_SECRET=$SVC_SFU_API_SECRET
  export SVCTEST_STACK_DIR=$THROWAWAY_STACK_DIR
  export SVCTEST_REPO=$SVC_REPO_ROOT
}
