# shellcheck shell=bash
# NATS component of the local stack: one server with JetStream. Sourced by infra/stack.sh.

NATS_DIR="$STACK_DIR/nats"
NATS_PID="$NATS_DIR/nats-server.pid"
NATS_LOG="$NATS_DIR/nats-server.log"
NATS_PORT_VAR=SVC_STACK_NATS_PORT
NATS_MONITOR_PORT_VAR=SVC_STACK_NATS_MONITOR_PORT

nats_running() { pidfile_alive "$NATS_PID" nats-server; }

# Ready when the monitor reports healthy (JetStream included) and the client port greets a
# client with INFO, which is what every NATS client waits for first.
nats_ready() {
  local port=$1 monitor_port=$2
  [[ $(http_status "$monitor_port" /healthz) == 200 ]] || return 1
  (
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    IFS= read -r -t 2 greeting <&3 || exit 1
    [[ $greeting == INFO* ]]
  ) 2>/dev/null
}

nats_start() {
  local port=${PORTS[$NATS_PORT_VAR]} monitor_port=${PORTS[$NATS_MONITOR_PORT_VAR]}
  [[ -x $NATS_SERVER_BIN ]] || die "nats-server $NATS_SERVER_VERSION is not built: run infra/install.sh"
  ensure_port_free "$port" nats "$NATS_PORT_VAR"
  ensure_port_free "$monitor_port" "nats monitor" "$NATS_MONITOR_PORT_VAR"
  mkdir -p "$NATS_DIR"
  # JetStream keeps its streams and KV buckets in $NATS_DIR/jetstream (the server adds that name).
  # A server_name that survives a restart lets actor hosts prove a crashed peer's connection
  # gone after one too (actors/runtime/liveness-probe.ts); without it the name is a new random id.
  spawn_daemon "$NATS_PID" "$NATS_LOG" "$NATS_SERVER_BIN" -a 127.0.0.1 -p "$port" \
    -m "$monitor_port" -js -sd "$NATS_DIR" --server_name "svc-nats-$port"
  wait_ready nats 30 "$NATS_LOG" nats_running nats_ready "$port" "$monitor_port"
}

nats_stop() { stop_pid "$NATS_PID" nats-server nats 30; }

nats_describe() {
  printf '127.0.0.1:%s  monitor http://127.0.0.1:%s  pid %s  log %s\n' "${PORTS[$NATS_PORT_VAR]:-?}" \
    "${PORTS[$NATS_MONITOR_PORT_VAR]:-?}" "$(read_pid "$NATS_PID" || echo -)" "$NATS_LOG"
}
