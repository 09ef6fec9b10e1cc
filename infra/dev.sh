#!/usr/bin/env bash
# What `npm run dev` runs: the whole service on this machine, on a local stack that outlives it.
#   1. install what is missing   2. build what changed (infra/build.sh)   3. start the stack in
#   .svc/stack (with Temporal UI)   4. make .svc/secrets.env once   5. migrate   6. run `svc serve`
#   (all roles in one process) while Vite rebuilds the web client on every change under web/
#   (reload the page). With nothing changed, steps 1-5 take a few seconds.
# Ctrl-C stops the service; the stack keeps running for the next start. `npm run stack:stop`
# stops it; deleting .svc/ resets everything.
set -euo pipefail
SVC_LOG_TAG=dev
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$SVC_REPO_ROOT"

SVC_STATE_DIR="$SVC_REPO_ROOT/.svc"
SECRETS_FILE="$SVC_STATE_DIR/secrets.env"

bash infra/install.sh
bash infra/build.sh

# The dev stack always lives in .svc/stack, keeps its data, and has the Temporal UI, whatever a
# test-oriented shell may have set. These settings go to stack.sh only, not to the service.
STACK_DIR="$SVC_STATE_DIR/stack"
SVC_STACK_DIR=$STACK_DIR SVC_STACK_THROWAWAY=0 SVC_STACK_TEMPORAL_HEADLESS=0 bash infra/stack.sh start

# Secrets are generated once and kept, so sessions, tokens and stored credentials survive restarts.
if [[ ! -s $SECRETS_FILE ]]; then
  log "generating development secrets into $SECRETS_FILE"
  mkdir -p "$SVC_STATE_DIR"
  staging=$(mktemp "$SECRETS_FILE.XXXXXX") # mode 600 from the start
  # The dev service manages over its Unix socket, where a management token is not allowed.
  if ! node dist/cli/main.js secrets generate --output env | grep -v '^SVC_MANAGEMENT_TOKEN=' >"$staging" ||
    ! grep -q '^SVC_[A-Z0-9_]*=.' "$staging"; then
    rm -f "$staging"
    die "svc secrets generate did not produce secrets"
  fi
  chmod 600 "$staging"
  mv "$staging" "$SECRETS_FILE"
fi

set -a
# shellcheck source=/dev/null
source "$STACK_DIR/stack.env"
# shellcheck source=/dev/null
source "$SECRETS_FILE"
set +a
export SVC_DATA_DIR="$SVC_STATE_DIR/data"
# Prometheus metrics and the detailed /health/ready are only on this listener, not the public port.
export SVC_METRICS_LISTEN=${SVC_METRICS_LISTEN:-127.0.0.1:9464}
mkdir -p "$SVC_DATA_DIR"

log "migrating the database"
node --enable-source-maps dist/cli/main.js migrate

# Rebuilds dist/web-client on every change under web/ (from the first change on: the build above
# is current); it is in this shell's process group, so Ctrl-C stops it with the service.
node infra/watch-web.mjs &

log "starting svc; Ctrl-C stops it, the stack keeps running (stop it with: npm run stack:stop)"
exec node --enable-source-maps dist/cli/main.js serve
