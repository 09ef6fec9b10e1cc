# shellcheck shell=bash
# NATS component of the local stack: one server with JetStream, or a cluster of three
# (SVC_STACK_NATS_NODES=3: routes between them, JetStream on each, R3 buckets). Sourced by
# infra/stack.sh.
#
# The node count is kept in $NATS_DIR/nodes on the first start: a stack dir is one topology for
# its life (a single server's JetStream store cannot be turned into a cluster member's in place).
# Node 1 uses SVC_STACK_NATS_PORT and SVC_STACK_NATS_MONITOR_PORT; in a cluster node k also has
# SVC_STACK_NATS[k]_PORT, SVC_STACK_NATS[k]_MONITOR_PORT and SVC_STACK_NATS[k]_CLUSTER_PORT (node
# 1's route port is SVC_STACK_NATS_CLUSTER_PORT). `start nats` starts the nodes that are not
# running, so a node killed by a test or the soak comes back alone into its cluster.
#
# For a partition test (the soak's nats-partition fault), the routes can go through proxies:
# SVC_STACK_NATS_ROUTES_<k> replaces node k's route URLs (comma-separated), and
# SVC_STACK_NATS_ADVERTISE_<k> the cluster address it tells the others; pass the same values on
# every call, as a node that restarts reads them again.

NATS_DIR="$STACK_DIR/nats"
NATS_NODES_FILE="$NATS_DIR/nodes"

NATS_NODES=
[[ -f $NATS_NODES_FILE ]] && NATS_NODES=$(<"$NATS_NODES_FILE")
if [[ -n ${SVC_STACK_NATS_NODES:-} && -n $NATS_NODES && $NATS_NODES != "$SVC_STACK_NATS_NODES" ]]; then
  die "the NATS of $STACK_DIR has $NATS_NODES node(s), not $SVC_STACK_NATS_NODES: stop it and delete $NATS_DIR to change its topology"
fi
NATS_NODES=${NATS_NODES:-${SVC_STACK_NATS_NODES:-1}}
[[ $NATS_NODES == 1 || $NATS_NODES == 3 ]] || die "SVC_STACK_NATS_NODES=$NATS_NODES: NATS runs as 1 server or a cluster of 3"

# Port variable of node k (1-based): nats_var <k> <''|MONITOR_|CLUSTER_>
nats_var() {
  local k=$1 kind=$2
  if ((k == 1)); then printf 'SVC_STACK_NATS_%sPORT' "$kind"; else printf 'SVC_STACK_NATS%s_%sPORT' "$k" "$kind"; fi
}

nats_port_vars() {
  local k
  if ((NATS_NODES == 1)); then
    echo "$(nats_var 1 '') $(nats_var 1 MONITOR_)"
    return
  fi
  for ((k = 1; k <= NATS_NODES; k++)); do
    printf '%s %s %s ' "$(nats_var "$k" '')" "$(nats_var "$k" MONITOR_)" "$(nats_var "$k" CLUSTER_)"
  done
  echo
}
PORT_VARS[nats]=$(nats_port_vars)

# A single server keeps the layout it always had; cluster nodes have a folder each.
nats_node_dir() { if ((NATS_NODES == 1)); then echo "$NATS_DIR"; else echo "$NATS_DIR/node$1"; fi; }
nats_node_pid() { echo "$(nats_node_dir "$1")/nats-server.pid"; }
nats_node_log() { echo "$(nats_node_dir "$1")/nats-server.log"; }

nats_node_running() { pidfile_alive "$(nats_node_pid "$1")" nats-server; }

nats_any_running() {
  local k
  for ((k = 1; k <= NATS_NODES; k++)); do nats_node_running "$k" && return 0; done
  return 1
}

nats_running() {
  local k
  for ((k = 1; k <= NATS_NODES; k++)); do nats_node_running "$k" || return 1; done
}

# Ready when the monitor reports healthy (JetStream included: in a cluster, the node has joined
# the meta group and caught up) and the client port greets a client with INFO, which is what
# every NATS client waits for first.
nats_ready() {
  local port=$1 monitor_port=$2
  [[ $(http_status "$monitor_port" /healthz) == 200 ]] || return 1
  (
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    IFS= read -r -t 2 greeting <&3 || exit 1
    [[ $greeting == INFO* ]]
  ) 2>/dev/null
}

nats_spawn_node() {
  local k=$1 dir port monitor_port args
  dir=$(nats_node_dir "$k")
  port=${PORTS[$(nats_var "$k" '')]}
  monitor_port=${PORTS[$(nats_var "$k" MONITOR_)]}
  ensure_port_free "$port" "nats node $k" "$(nats_var "$k" '')"
  ensure_port_free "$monitor_port" "nats node $k monitor" "$(nats_var "$k" MONITOR_)"
  mkdir -p "$dir"
  # JetStream keeps its streams and KV buckets in $dir/jetstream (the server adds that name).
  # A server_name that survives a restart lets actor hosts prove a crashed peer's connection
  # gone after one too (actors/runtime/liveness-probe.ts); without it the name is a new random id.
  args=(-a 127.0.0.1 -p "$port" -m "$monitor_port" -js -sd "$dir" --server_name "svc-nats-$port")
  if ((NATS_NODES > 1)); then
    local cluster_port=${PORTS[$(nats_var "$k" CLUSTER_)]} routes=() j
    ensure_port_free "$cluster_port" "nats node $k cluster" "$(nats_var "$k" CLUSTER_)"
    for ((j = 1; j <= NATS_NODES; j++)); do
      ((j == k)) || routes+=("nats-route://127.0.0.1:${PORTS[$(nats_var "$j" CLUSTER_)]}")
    done
    local routes_var="SVC_STACK_NATS_ROUTES_$k" advertise_var="SVC_STACK_NATS_ADVERTISE_$k" route_list
    route_list=${!routes_var:-$(
      IFS=,
      echo "${routes[*]}"
    )}
    # The cluster is named after node 1's client port, so two stacks' clusters never merge.
    args+=(--cluster "nats://127.0.0.1:$cluster_port" --cluster_name "svc-$(nats_client_port 1)" --routes "$route_list")
    [[ -z ${!advertise_var:-} ]] || args+=(--cluster_advertise "${!advertise_var}")
  fi
  spawn_daemon "$(nats_node_pid "$k")" "$(nats_node_log "$k")" "$NATS_SERVER_BIN" "${args[@]}"
}

nats_client_port() { echo "${PORTS[$(nats_var "$1" '')]}"; }

nats_start() {
  [[ -x $NATS_SERVER_BIN ]] || die "nats-server $NATS_SERVER_VERSION is not built: run infra/install.sh"
  mkdir -p "$NATS_DIR"
  echo "$NATS_NODES" >"$NATS_NODES_FILE"
  local k started=()
  # All missing nodes first: a cluster node reports healthy only once a quorum has met.
  for ((k = 1; k <= NATS_NODES; k++)); do
    nats_node_running "$k" && continue
    nats_spawn_node "$k"
    started+=("$k")
  done
  for k in "${started[@]}"; do
    NATS_WAITING_NODE=$k
    wait_ready "nats node $k" 60 "$(nats_node_log "$k")" nats_waiting_node_running nats_ready \
      "$(nats_client_port "$k")" "${PORTS[$(nats_var "$k" MONITOR_)]}"
  done
}

NATS_WAITING_NODE=1
nats_waiting_node_running() { nats_node_running "$NATS_WAITING_NODE"; }

nats_stop() {
  local k
  for ((k = NATS_NODES; k >= 1; k--)); do stop_pid "$(nats_node_pid "$k")" nats-server "nats node $k" 30; done
}

# The client URL list svc connects with: every node, so a client fails over to the others.
nats_urls() {
  local k urls=()
  for ((k = 1; k <= NATS_NODES; k++)); do urls+=("nats://127.0.0.1:$(nats_client_port "$k")"); done
  (
    IFS=,
    echo "${urls[*]}"
  )
}

nats_describe() {
  local k
  for ((k = 1; k <= NATS_NODES; k++)); do
    ((k == 1)) || printf '%-19s' ''
    printf '127.0.0.1:%s  monitor http://127.0.0.1:%s  pid %s  log %s\n' "$(nats_client_port "$k")" \
      "${PORTS[$(nats_var "$k" MONITOR_)]:-?}" "$(read_pid "$(nats_node_pid "$k")" || echo -)" "$(nats_node_log "$k")"
  done
}
