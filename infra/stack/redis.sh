# shellcheck shell=bash
# Redis component of the local stack. Sourced by infra/stack.sh (STACK_DIR, THROWAWAY, PORTS).

REDIS_DIR="$STACK_DIR/redis"
REDIS_PID="$REDIS_DIR/redis.pid"
REDIS_LOG="$REDIS_DIR/redis.log"
REDIS_PORT_VAR=SVC_STACK_REDIS_PORT

redis_running() { pidfile_alive "$REDIS_PID" redis-server; }

redis_ready() {
  [[ $(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null) == PONG ]]
}

redis_start() {
  local port=${PORTS[$REDIS_PORT_VAR]}
  command -v redis-server >/dev/null || die "redis-server not found: run infra/install.sh"
  ensure_port_free "$port" redis "$REDIS_PORT_VAR"
  mkdir -p "$REDIS_DIR/data"
  local persistence=()
  if [[ $THROWAWAY == 1 ]]; then
    persistence=(--save '' --appendonly no)
  fi
  # Runs in the foreground under spawn_daemon (rather than --daemonize) so that its pid is known at
  # once and a crash during start-up is noticed without waiting for the deadline.
  spawn_daemon "$REDIS_PID" "$REDIS_LOG" redis-server --bind 127.0.0.1 --port "$port" \
    --daemonize no --dir "$REDIS_DIR/data" --logfile '' "${persistence[@]}"
  wait_ready redis 30 "$REDIS_LOG" redis_running redis_ready "$port"
}

redis_stop() {
  local pid
  pid=$(read_pid "$REDIS_PID") || return 0
  # Plain SHUTDOWN saves only when save points are configured: the dev stack keeps its data, a
  # throwaway stack (no save points) writes nothing.
  if ! redis-cli -h 127.0.0.1 -p "${PORTS[$REDIS_PORT_VAR]:-0}" shutdown >/dev/null 2>&1 ||
    ! wait_pid_exit "$pid" redis-server 30; then
    stop_pid "$REDIS_PID" redis-server redis
  fi
  rm -f "$REDIS_PID"
}

redis_describe() {
  printf '127.0.0.1:%s  pid %s  log %s\n' "${PORTS[$REDIS_PORT_VAR]:-?}" "$(read_pid "$REDIS_PID" || echo -)" "$REDIS_LOG"
}
