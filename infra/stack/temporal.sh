# shellcheck shell=bash
# Temporal component of the local stack: `temporal server start-dev` with a SQLite file, and its
# Web UI unless headless. Sourced by infra/stack.sh (STACK_DIR, HEADLESS, PORTS).

TEMPORAL_DIR="$STACK_DIR/temporal"
TEMPORAL_PID="$TEMPORAL_DIR/temporal.pid"
TEMPORAL_LOG="$TEMPORAL_DIR/temporal.log"
# Records whether the running server has a UI, for stack.env and status.
TEMPORAL_HEADLESS_MARK="$TEMPORAL_DIR/headless"
TEMPORAL_PORT_VAR=SVC_STACK_TEMPORAL_PORT
TEMPORAL_UI_PORT_VAR=SVC_STACK_TEMPORAL_UI_PORT
TEMPORAL_HTTP_PORT_VAR=SVC_STACK_TEMPORAL_HTTP_PORT
TEMPORAL_METRICS_PORT_VAR=SVC_STACK_TEMPORAL_METRICS_PORT
# A substring of the server's command line, to tell it from a recycled pid.
TEMPORAL_PROCESS_MATCH='server start-dev'
# The review workflows' custom search attributes (workflows/ids.ts), so the UI can filter on
# them from the first start; a worker also registers them in a namespace that lacks them.
TEMPORAL_SEARCH_ATTRIBUTES=(SvcReviewKind=Keyword SvcReviewMode=Keyword SvcReviewSubject=Keyword SvcReviewState=Keyword)

temporal_running() { pidfile_alive "$TEMPORAL_PID" "$TEMPORAL_PROCESS_MATCH"; }

temporal_headless() { [[ -f $TEMPORAL_HEADLESS_MARK && $(<"$TEMPORAL_HEADLESS_MARK") == 1 ]]; }

temporal_ready() {
  local port=$1 ui_port=$2 health
  # The developer's Temporal CLI profile or TEMPORAL_* variables must not change what is checked.
  health=$("$TEMPORAL_BIN" operator cluster health --address "127.0.0.1:$port" \
    --command-timeout 3s --disable-config-file --disable-config-env 2>/dev/null) || return 1
  [[ $health == *SERVING* ]] || return 1
  [[ -z $ui_port ]] || port_in_use "$ui_port"
}

temporal_start() {
  local port=${PORTS[$TEMPORAL_PORT_VAR]} ui_port=${PORTS[$TEMPORAL_UI_PORT_VAR]}
  local http_port=${PORTS[$TEMPORAL_HTTP_PORT_VAR]} metrics_port=${PORTS[$TEMPORAL_METRICS_PORT_VAR]}
  [[ -x $TEMPORAL_BIN ]] || die "temporal CLI $TEMPORAL_CLI_VERSION is not built: run infra/install.sh"
  ensure_port_free "$port" temporal "$TEMPORAL_PORT_VAR"
  ensure_port_free "$http_port" "temporal http" "$TEMPORAL_HTTP_PORT_VAR"
  ensure_port_free "$metrics_port" "temporal metrics" "$TEMPORAL_METRICS_PORT_VAR"
  mkdir -p "$TEMPORAL_DIR"

  local args=(server start-dev --ip 127.0.0.1 --port "$port" --http-port "$http_port"
    --metrics-port "$metrics_port" --db-filename "$TEMPORAL_DIR/temporal.db")
  local attribute
  for attribute in "${TEMPORAL_SEARCH_ATTRIBUTES[@]}"; do
    args+=(--search-attribute "$attribute")
  done
  local ready_ui_port=
  if [[ $HEADLESS == 1 ]]; then
    args+=(--headless)
  else
    ensure_port_free "$ui_port" "temporal ui" "$TEMPORAL_UI_PORT_VAR"
    args+=(--ui-port "$ui_port")
    ready_ui_port=$ui_port
  fi
  printf '%s\n' "$HEADLESS" >"$TEMPORAL_HEADLESS_MARK"
  spawn_daemon "$TEMPORAL_PID" "$TEMPORAL_LOG" "$TEMPORAL_BIN" "${args[@]}"
  wait_ready temporal 120 "$TEMPORAL_LOG" temporal_running temporal_ready "$port" "$ready_ui_port"
}

temporal_stop() { stop_pid "$TEMPORAL_PID" "$TEMPORAL_PROCESS_MATCH" temporal 30; }

temporal_describe() {
  local ui=headless
  temporal_headless || ui="ui http://127.0.0.1:${PORTS[$TEMPORAL_UI_PORT_VAR]:-?}"
  printf '127.0.0.1:%s  %s  pid %s  log %s\n' "${PORTS[$TEMPORAL_PORT_VAR]:-?}" "$ui" \
    "$(read_pid "$TEMPORAL_PID" || echo -)" "$TEMPORAL_LOG"
}
