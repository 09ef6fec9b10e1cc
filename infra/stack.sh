#!/usr/bin/env bash
# The local stack: PostgreSQL, Redis, NATS (JetStream), Temporal and LiveKit (the SFU) on
# 127.0.0.1, with data, logs and pid files under one directory.
#
#   infra/stack.sh start|stop|status [postgres|redis|nats|temporal|livekit ...]  (default: all five)
#   infra/stack.sh promote postgres   (a PostgreSQL pair: the standby becomes the primary)
#
# Environment:
#   SVC_STACK_DIR                 where everything lives (default <repo>/.svc/stack)
#   SVC_STACK_<NAME>_PORT         PG, REDIS, NATS, NATS_MONITOR, TEMPORAL, TEMPORAL_UI,
#                                 TEMPORAL_HTTP, TEMPORAL_METRICS, LIVEKIT, LIVEKIT_RTC_TCP,
#                                 LIVEKIT_RTC_UDP; unset ones are picked free on first start and
#                                 kept in $SVC_STACK_DIR/ports.env
#   SVC_STACK_NATS_NODES=3        NATS as a three-node cluster (default 1; see infra/stack/nats.sh)
#   SVC_STACK_PG_STANDBY=1        PostgreSQL as a primary and a streaming standby (infra/stack/postgres.sh)
#   SVC_STACK_THROWAWAY=1         no durability (fsync off, no Redis snapshots): test stacks
#   SVC_STACK_TEMPORAL_HEADLESS=1 Temporal without its Web UI
#   SVC_STACK_LIVEKIT_*           LiveKit's Redis and API key (see infra/stack/livekit.sh)
#
# `start` waits until each component answers and writes $SVC_STACK_DIR/stack.env, the svc startup
# configuration (SVC_DATABASE_URL, ..., SVC_SFU_API_SECRET: it is readable by its owner only) for
# this stack. Starting a running component or stopping a stopped one does nothing.
set -euo pipefail
SVC_LOG_TAG=stack
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# LiveKit after Redis, which it keeps its rooms in.
COMPONENTS=(postgres redis nats temporal livekit)

usage() {
  echo "usage: infra/stack.sh start|stop|status [${COMPONENTS[*]}]" >&2
  echo "       infra/stack.sh promote postgres" >&2
  exit 2
}

action=${1:-}
[[ $action == start || $action == stop || $action == status || $action == promote ]] || usage
shift
selected=("$@")
((${#selected[@]})) || selected=("${COMPONENTS[@]}")
for component in "${selected[@]}"; do
  [[ " ${COMPONENTS[*]} " == *" $component "* ]] || usage
done
[[ $action != promote || "${selected[*]}" == postgres ]] || usage

STACK_DIR=${SVC_STACK_DIR:-$SVC_REPO_ROOT/.svc/stack}
# One spelling of the path for every call (a LiveKit node is told from another by its config
# file's path, which the components derive from it when sourced below).
[[ $action != start ]] || mkdir -p "$STACK_DIR"
if [[ -d $STACK_DIR ]]; then STACK_DIR=$(cd "$STACK_DIR" && pwd -P); fi
THROWAWAY=${SVC_STACK_THROWAWAY:-0}
HEADLESS=${SVC_STACK_TEMPORAL_HEADLESS:-0}
PORTS_FILE="$STACK_DIR/ports.env"
STACK_ENV_FILE="$STACK_DIR/stack.env"

# libpq settings from the caller's shell must not point our checks at another server.
unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGPASSWORD PGPASSFILE PGSERVICE PGSERVICEFILE \
  PGOPTIONS PGSSLMODE PGTARGETSESSIONATTRS

declare -A PORT_VARS=(
  [postgres]=SVC_STACK_PG_PORT
  [redis]=SVC_STACK_REDIS_PORT
  [nats]="SVC_STACK_NATS_PORT SVC_STACK_NATS_MONITOR_PORT"
  [temporal]="SVC_STACK_TEMPORAL_PORT SVC_STACK_TEMPORAL_UI_PORT SVC_STACK_TEMPORAL_HTTP_PORT SVC_STACK_TEMPORAL_METRICS_PORT"
  [livekit]="SVC_STACK_LIVEKIT_PORT SVC_STACK_LIVEKIT_RTC_TCP_PORT SVC_STACK_LIVEKIT_RTC_UDP_PORT"
)
# PERSISTED: ports.env as found. PORTS: what this run uses (env overrides for started components).
declare -A PERSISTED=() PORTS=()

load_persisted_ports() {
  [[ -f $PORTS_FILE ]] || return 0
  local name value
  while IFS='=' read -r name value; do
    [[ $name =~ ^SVC_STACK_[A-Z0-9_]+_PORT$ && $value =~ ^[0-9]+$ ]] || continue
    PERSISTED[$name]=$value
    PORTS[$name]=$value
  done <"$PORTS_FILE"
}

# Environment first, then ports.env, then free ports picked now (all at once, so distinct).
resolve_ports_for_start() {
  local component name missing=()
  for component in "${selected[@]}"; do
    for name in ${PORT_VARS[$component]}; do
      if [[ -n ${!name:-} ]]; then
        if ! [[ ${!name} =~ ^[0-9]+$ ]] || ((${!name} < 1 || ${!name} > 65535)); then
          die "$name=${!name} is not a port"
        fi
        PORTS[$name]=${!name}
      elif [[ -z ${PORTS[$name]:-} ]]; then
        missing+=("$name")
      fi
    done
  done
  if ((${#missing[@]})); then
    local picked i=0
    read -r -a picked <<<"$(free_ports "${#missing[@]}")"
    ((${#picked[@]} == ${#missing[@]})) || die "could not pick free ports"
    for name in "${missing[@]}"; do
      PORTS[$name]=${picked[i]}
      i=$((i + 1))
    done
  fi
  local duplicate
  duplicate=$(printf '%s\n' "${PORTS[@]}" | sort | uniq -d | head -n 1)
  [[ -z $duplicate ]] || die "port $duplicate is given to two components (see SVC_STACK_*_PORT and $PORTS_FILE)"
}

write_ports_file() {
  local name
  {
    echo "# Ports of the stack in this directory, chosen on its first start (infra/stack.sh)."
    for name in $(printf '%s\n' "${!PORTS[@]}" | sort); do
      echo "$name=${PORTS[$name]}"
    done
  } >"$PORTS_FILE.tmp"
  mv "$PORTS_FILE.tmp" "$PORTS_FILE"
}

# ensure_port_free <port> <label> <variable>: called before starting a component.
ensure_port_free() {
  if port_in_use "$1"; then
    die "port $1 for $2 is taken by another program; set $3 to another port, or delete $PORTS_FILE to pick new ones"
  fi
}

# A running component keeps the ports it started with; asking for others must not go unnoticed.
check_running_ports() {
  local component=$1 name
  for name in ${PORT_VARS[$component]}; do
    if [[ -n ${PERSISTED[$name]:-} && ${PERSISTED[$name]} != "${PORTS[$name]}" ]]; then
      die "$component is running with $name=${PERSISTED[$name]}, not ${PORTS[$name]}: stop it first to change ports"
    fi
  done
}

write_stack_env() {
  local ui_url=
  # Readable by its owner only: it holds the SFU's API secret.
  (umask 077 && : >"$STACK_ENV_FILE.tmp")
  {
    echo "# Startup configuration of svc for the stack in $STACK_DIR (written by infra/stack.sh start)."
    if [[ -n ${PORTS[SVC_STACK_PG_PORT]:-} ]]; then
      echo "export SVC_DATABASE_URL=$(postgres_url)"
    fi
    if [[ -n ${PORTS[SVC_STACK_REDIS_PORT]:-} ]]; then
      echo "export SVC_REDIS_URL=redis://127.0.0.1:${PORTS[SVC_STACK_REDIS_PORT]}"
    fi
    if [[ -n ${PORTS[SVC_STACK_NATS_PORT]:-} ]]; then
      echo "export SVC_NATS_URL=$(nats_urls)"
      # One copy of each bucket per node: a cluster survives the loss of any one.
      echo "export SVC_NATS_REPLICAS=$NATS_NODES"
    fi
    if [[ -n ${PORTS[SVC_STACK_TEMPORAL_PORT]:-} ]]; then
      echo "export SVC_TEMPORAL_ADDRESS=127.0.0.1:${PORTS[SVC_STACK_TEMPORAL_PORT]}"
      if ! temporal_headless && [[ -n ${PORTS[SVC_STACK_TEMPORAL_UI_PORT]:-} ]]; then
        ui_url=http://127.0.0.1:${PORTS[SVC_STACK_TEMPORAL_UI_PORT]}
      fi
      echo "export SVC_TEMPORAL_UI_URL=$ui_url"
    fi
    # The service signs LiveKit's access tokens with the node's key; browsers open the same port.
    if [[ -n ${PORTS[SVC_STACK_LIVEKIT_PORT]:-} ]] && livekit_read_key; then
      echo "export SVC_SFU_URL=http://127.0.0.1:${PORTS[SVC_STACK_LIVEKIT_PORT]}"
      echo "export SVC_SFU_PUBLIC_URL=ws://127.0.0.1:${PORTS[SVC_STACK_LIVEKIT_PORT]}"
      echo "export SVC_SFU_API_KEY=$LIVEKIT_API_KEY"
      echo "export SVC_SFU_API_SECRET=$LIVEKIT_API_SECRET"
    fi
  } >"$STACK_ENV_FILE.tmp"
  mv "$STACK_ENV_FILE.tmp" "$STACK_ENV_FILE"
}

# Serialises start and stop on one stack dir. Every daemon is started with descriptor 9 closed,
# so the lock is released when this script exits.
take_lock() {
  command -v flock >/dev/null || return 0
  exec 9>"$STACK_DIR/.lock"
  flock -w 300 9 || die "another infra/stack.sh is still working on $STACK_DIR"
}

for component in "${COMPONENTS[@]}"; do
  # shellcheck source=/dev/null
  source "$SVC_REPO_ROOT/infra/stack/$component.sh"
done

case $action in
start)
  # The postgres user must be able to pass through the stack dir to reach its cluster.
  if is_root; then chmod a+x "$STACK_DIR"; fi
  take_lock
  load_persisted_ports
  resolve_ports_for_start
  for component in "${selected[@]}"; do
    if "${component}_running"; then check_running_ports "$component"; fi
  done
  write_ports_file
  for component in "${selected[@]}"; do
    if "${component}_running"; then
      log "$component already running"
    else
      log "starting $component"
      "${component}_start"
      log "$component ready: $("${component}_describe")"
    fi
  done
  write_stack_env
  ;;
stop)
  if [[ ! -d $STACK_DIR ]]; then
    log "nothing to stop in $STACK_DIR"
    exit 0
  fi
  take_lock
  load_persisted_ports
  # Reverse start order.
  for ((i = ${#selected[@]} - 1; i >= 0; i--)); do
    component=${selected[i]}
    # A cluster with some nodes down still has the others to stop.
    if "${component}_running" || { declare -F "${component}_any_running" >/dev/null && "${component}_any_running"; }; then
      "${component}_stop"
      log "$component stopped"
    else
      log "$component already stopped"
    fi
  done
  ;;
promote)
  [[ -d $STACK_DIR ]] || die "no stack in $STACK_DIR"
  take_lock
  load_persisted_ports
  postgres_promote
  ;;
status)
  [[ ! -d $STACK_DIR ]] || load_persisted_ports
  echo "stack dir $STACK_DIR"
  for component in "${selected[@]}"; do
    if [[ -d $STACK_DIR ]] && "${component}_running"; then
      printf '%-9s running  %s\n' "$component" "$("${component}_describe")"
    else
      printf '%-9s stopped\n' "$component"
    fi
  done
  ;;
esac
