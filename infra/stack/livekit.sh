# shellcheck shell=bash
# LiveKit component of the local stack: the SFU that carries screen shares, cameras and voice past
# the mesh (docs/2026-11-29-sfu-deployment.md). Sourced by infra/stack.sh (STACK_DIR, PORTS).
#
# One node, HTTP/WebSocket signalling and its API on 127.0.0.1, ICE over one muxed UDP port and
# one TCP port (the fallback for networks that drop UDP), candidates on loopback only. Rooms are
# kept in the stack's Redis on a database of their own, as a multi-node deployment keeps them, so
# a second node pointed at the same Redis (test/fixtures/livekit.ts) joins the cluster.
#
# Environment, besides the ports (SVC_STACK_LIVEKIT_PORT, _RTC_TCP_PORT, _RTC_UDP_PORT):
#   SVC_STACK_LIVEKIT_REDIS       host:port of the Redis the node shares rooms through (default:
#                                 this stack's Redis)
#   SVC_STACK_LIVEKIT_REDIS_DB    its database number (default 1; svc itself uses 0)
#   SVC_STACK_LIVEKIT_API_KEY, SVC_STACK_LIVEKIT_API_SECRET
#                                 the API key to accept; default: one generated on the first start
#                                 and kept in livekit/api-key.env (a cluster's nodes share one)
#   SVC_STACK_LIVEKIT_PLI_THROTTLE  the least time between key frames a receiver's loss may ask of
#                                 a publisher's layer, e.g. 10s (default: LiveKit's, 0.5-1 s);
#                                 bench:sfu's receivers that never decode ask once a second

LIVEKIT_DIR="$STACK_DIR/livekit"
LIVEKIT_PID="$LIVEKIT_DIR/livekit-server.pid"
LIVEKIT_LOG="$LIVEKIT_DIR/livekit-server.log"
LIVEKIT_CONFIG="$LIVEKIT_DIR/livekit.yaml"
LIVEKIT_KEY_FILE="$LIVEKIT_DIR/api-key.env"
LIVEKIT_PORT_VAR=SVC_STACK_LIVEKIT_PORT
LIVEKIT_RTC_TCP_PORT_VAR=SVC_STACK_LIVEKIT_RTC_TCP_PORT
LIVEKIT_RTC_UDP_PORT_VAR=SVC_STACK_LIVEKIT_RTC_UDP_PORT

# The config file's path tells this node's process from another node's on the same machine.
livekit_running() { pidfile_alive "$LIVEKIT_PID" "$LIVEKIT_CONFIG"; }

# LiveKit answers "OK" on / once its HTTP server and its Redis connection are up.
livekit_ready() { [[ $(http_status "$1" /) == 200 ]]; }

# udp_port_in_use <port>: true when a UDP socket is bound to the port on 127.0.0.1 (free_ports and
# port_in_use only know TCP).
udp_port_in_use() {
  ! node -e '
    const socket = require("node:dgram").createSocket("udp4");
    socket.once("error", () => process.exit(1));
    socket.bind(Number(process.argv[1]), "127.0.0.1", () => socket.close());
  ' "$1" 2>/dev/null
}

# The API key and secret: the ones given, else the ones kept, else new ones (kept from then on).
# LiveKit wants a secret of at least 32 characters.
livekit_key() {
  local key=${SVC_STACK_LIVEKIT_API_KEY:-} secret=${SVC_STACK_LIVEKIT_API_SECRET:-}
  if [[ -z $key || -z $secret ]]; then
    if [[ -s $LIVEKIT_KEY_FILE ]]; then
      # shellcheck source=/dev/null
      key=$(source "$LIVEKIT_KEY_FILE" && printf '%s' "$LIVEKIT_API_KEY")
      # shellcheck source=/dev/null
      secret=$(source "$LIVEKIT_KEY_FILE" && printf '%s' "$LIVEKIT_API_SECRET")
    else
      key="svc-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
      secret=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
    fi
  fi
  ((${#secret} >= 32)) || die "the LiveKit API secret must be at least 32 characters (SVC_STACK_LIVEKIT_API_SECRET)"
  [[ $key =~ ^[A-Za-z0-9_-]+$ && $secret =~ ^[A-Za-z0-9_-]+$ ]] || die "the LiveKit API key and secret may hold only letters, digits, - and _"
  (
    umask 077
    printf 'LIVEKIT_API_KEY=%s\nLIVEKIT_API_SECRET=%s\n' "$key" "$secret" >"$LIVEKIT_KEY_FILE.tmp"
  )
  mv "$LIVEKIT_KEY_FILE.tmp" "$LIVEKIT_KEY_FILE"
}

# Reads the kept key into LIVEKIT_API_KEY and LIVEKIT_API_SECRET (for stack.env).
livekit_read_key() {
  LIVEKIT_API_KEY= LIVEKIT_API_SECRET=
  [[ -s $LIVEKIT_KEY_FILE ]] || return 1
  # shellcheck source=/dev/null
  source "$LIVEKIT_KEY_FILE"
  [[ -n $LIVEKIT_API_KEY && -n $LIVEKIT_API_SECRET ]]
}

livekit_redis_address() {
  if [[ -n ${SVC_STACK_LIVEKIT_REDIS:-} ]]; then
    printf '%s\n' "$SVC_STACK_LIVEKIT_REDIS"
  elif [[ -n ${PORTS[SVC_STACK_REDIS_PORT]:-} ]]; then
    printf '127.0.0.1:%s\n' "${PORTS[SVC_STACK_REDIS_PORT]}"
  else
    die "LiveKit keeps its rooms in Redis: start this stack's redis first, or set SVC_STACK_LIVEKIT_REDIS"
  fi
}

# The rtc.pli_throttle block, or nothing (LiveKit's defaults).
livekit_pli_throttle() {
  local throttle=${SVC_STACK_LIVEKIT_PLI_THROTTLE:-}
  [[ -z $throttle ]] && return 0
  [[ $throttle =~ ^[0-9]+(ms|s)$ ]] || die "SVC_STACK_LIVEKIT_PLI_THROTTLE=$throttle is not a duration such as 500ms or 10s"
  printf '  pli_throttle:\n    low_quality: %s\n    mid_quality: %s\n    high_quality: %s' "$throttle" "$throttle" "$throttle"
}

livekit_write_config() {
  local port=$1 tcp_port=$2 udp_port=$3 redis=$4 db=$5
  (
    umask 077
    cat >"$LIVEKIT_CONFIG.tmp" <<EOF
# Written by infra/stack.sh on every start of this node; edits are lost.
port: $port
bind_addresses: ["127.0.0.1"]
rtc:
  tcp_port: $tcp_port
  udp_port: $udp_port
  # Browsers on this machine reach it on loopback: announce 127.0.0.1, never look up a public
  # address, and gather candidates on lo only (pion skips loopback unless told).
  use_external_ip: false
  node_ip: 127.0.0.1
  enable_loopback_candidate: true
  interfaces:
    includes: [lo]
$(livekit_pli_throttle)
redis:
  address: $redis
  db: $db
# Rooms go to the node with the fewest, among those whose load average per CPU is below 0.9
# (with many nodes, the lower of two picked at random: stats refresh every 2 s, and always taking
# the lowest would send a burst of new rooms to one node).
node_selector:
  kind: sysload
  sysload_limit: 0.9
  sort_by: rooms
  algorithm: twochoice
# TURN is svc's own (coturn, TURN REST credentials), not LiveKit's embedded server.
turn:
  enabled: false
keys:
  $LIVEKIT_API_KEY: $LIVEKIT_API_SECRET
logging:
  level: info
  json: true
EOF
  )
  mv "$LIVEKIT_CONFIG.tmp" "$LIVEKIT_CONFIG"
}

livekit_start() {
  local port=${PORTS[$LIVEKIT_PORT_VAR]} tcp_port=${PORTS[$LIVEKIT_RTC_TCP_PORT_VAR]} udp_port=${PORTS[$LIVEKIT_RTC_UDP_PORT_VAR]}
  local db=${SVC_STACK_LIVEKIT_REDIS_DB:-1} redis
  [[ -x $LIVEKIT_SERVER_BIN ]] || die "livekit-server $LIVEKIT_SERVER_VERSION is not built: run infra/install.sh"
  [[ $db =~ ^[0-9]+$ ]] || die "SVC_STACK_LIVEKIT_REDIS_DB=$db is not a database number"
  ensure_port_free "$port" livekit "$LIVEKIT_PORT_VAR"
  ensure_port_free "$tcp_port" "livekit rtc tcp" "$LIVEKIT_RTC_TCP_PORT_VAR"
  if udp_port_in_use "$udp_port"; then
    die "UDP port $udp_port for livekit rtc is taken by another program; set $LIVEKIT_RTC_UDP_PORT_VAR to another port, or delete $PORTS_FILE to pick new ones"
  fi
  redis=$(livekit_redis_address)
  [[ $(redis-cli -h "${redis%:*}" -p "${redis##*:}" ping 2>/dev/null) == PONG ]] ||
    die "LiveKit's Redis at $redis does not answer (start this stack's redis, or check SVC_STACK_LIVEKIT_REDIS)"
  mkdir -p "$LIVEKIT_DIR"
  livekit_key
  livekit_read_key || die "could not read the LiveKit API key from $LIVEKIT_KEY_FILE"
  livekit_write_config "$port" "$tcp_port" "$udp_port" "$redis" "$db"
  spawn_daemon "$LIVEKIT_PID" "$LIVEKIT_LOG" "$LIVEKIT_SERVER_BIN" --config "$LIVEKIT_CONFIG"
  wait_ready livekit 30 "$LIVEKIT_LOG" livekit_running livekit_ready "$port"
}

# A first SIGTERM drains (no new rooms here, and LiveKit waits for every participant to leave); a
# second one ends the calls at once, which is what stopping a local stack means.
livekit_stop() {
  local pid
  pid=$(read_pid "$LIVEKIT_PID") || return 0
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_pid_exit "$pid" "$LIVEKIT_CONFIG" 2; then
    kill -TERM "$pid" 2>/dev/null || true
  fi
  stop_pid "$LIVEKIT_PID" "$LIVEKIT_CONFIG" livekit 20
}

livekit_describe() {
  printf 'http://127.0.0.1:%s  rtc tcp %s udp %s  pid %s  log %s\n' "${PORTS[$LIVEKIT_PORT_VAR]:-?}" \
    "${PORTS[$LIVEKIT_RTC_TCP_PORT_VAR]:-?}" "${PORTS[$LIVEKIT_RTC_UDP_PORT_VAR]:-?}" \
    "$(read_pid "$LIVEKIT_PID" || echo -)" "$LIVEKIT_LOG"
}
