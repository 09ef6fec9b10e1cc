# shellcheck shell=bash
# PostgreSQL component of the local stack: one cluster with superuser `svc`, trust auth, reachable
# on 127.0.0.1 only. Sourced by infra/stack.sh, which provides STACK_DIR, THROWAWAY and PORTS.
#
# SVC_STACK_PG_STANDBY=1 runs a pair instead: a primary and a streaming standby, replication
# synchronous while both run (docs/2026-11-30-postgres-failover.md). Node 1 keeps the single
# layout (postgres/data, SVC_STACK_PG_PORT); node 2 is postgres/node2/data on SVC_STACK_PG2_PORT.
# Either may be the primary: `promote postgres` makes the running standby the primary when the
# primary is gone, and `start postgres` brings a node that is down back as a standby of the
# running primary, copied afresh from it (a former primary may hold WAL the new one never had).
# The topology is kept in postgres/nodes on the first start, like NATS's.

PG_DIR="$STACK_DIR/postgres"
PG_NODES_FILE="$PG_DIR/nodes"

PG_NODES=
[[ -f $PG_NODES_FILE ]] && PG_NODES=$(<"$PG_NODES_FILE")
PG_WANTED_NODES=
[[ -z ${SVC_STACK_PG_STANDBY:-} ]] || PG_WANTED_NODES=$((SVC_STACK_PG_STANDBY == 1 ? 2 : 1))
if [[ -n $PG_WANTED_NODES && -n $PG_NODES && $PG_NODES != "$PG_WANTED_NODES" ]]; then
  die "the PostgreSQL of $STACK_DIR has $PG_NODES node(s), not $PG_WANTED_NODES: stop it and delete $PG_DIR to change its topology"
fi
PG_NODES=${PG_NODES:-${PG_WANTED_NODES:-1}}

pg_port_var() { if (($1 == 1)); then echo SVC_STACK_PG_PORT; else echo "SVC_STACK_PG$1_PORT"; fi; }
pg_node_dir() { if (($1 == 1)); then echo "$PG_DIR"; else echo "$PG_DIR/node$1"; fi; }
pg_node_data() { echo "$(pg_node_dir "$1")/data"; }
pg_node_log() { echo "$(pg_node_dir "$1")/postgres.log"; }
pg_node_port() { echo "${PORTS[$(pg_port_var "$1")]}"; }

PORT_VARS[postgres]=$(
  for ((k = 1; k <= PG_NODES; k++)); do printf '%s ' "$(pg_port_var "$k")"; done
)
# Resolved on first use so that commands about other components never need PostgreSQL.
PG_BIN=
pg_bin() {
  if [[ -z $PG_BIN ]]; then
    PG_BIN=$(pg_bindir) || die "PostgreSQL server binaries not found: run infra/install.sh"
  fi
  printf '%s/%s\n' "$PG_BIN" "$1"
}

# The server binaries refuse to run as root, so under root the cluster belongs to `postgres`.
# They also want a readable working directory, which root's may not be for that user.
pg_as_owner() {
  if is_root; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

pg_node_running() {
  local data
  data=$(pg_node_data "$1")
  [[ -f $data/PG_VERSION ]] || return 1
  pg_as_owner "$(pg_bin pg_ctl)" status -D "$data" >/dev/null 2>&1
}

postgres_running() {
  local k
  for ((k = 1; k <= PG_NODES; k++)); do pg_node_running "$k" || return 1; done
}

postgres_any_running() {
  local k
  for ((k = 1; k <= PG_NODES; k++)); do pg_node_running "$k" && return 0; done
  return 1
}

postgres_ready() {
  "$(pg_bin pg_isready)" -q -h 127.0.0.1 -p "$1" -U svc -d postgres -t 2
}

# pg_sql <port> <sql>: one value, unaligned.
pg_sql() {
  "$(pg_bin psql)" -X -q -h 127.0.0.1 -p "$1" -U svc -d postgres -v ON_ERROR_STOP=1 -tAc "$2"
}

pg_node_is_standby() { [[ $(pg_sql "$(pg_node_port "$1")" 'SELECT pg_is_in_recovery()' 2>/dev/null) == t ]]; }
pg_node_is_primary() { [[ $(pg_sql "$(pg_node_port "$1")" 'SELECT NOT pg_is_in_recovery()' 2>/dev/null) == t ]]; }

# The running primary's node number, if one is running.
pg_running_primary() {
  local k
  for ((k = 1; k <= PG_NODES; k++)); do
    if pg_node_running "$k" && pg_node_is_primary "$k"; then
      echo "$k"
      return 0
    fi
  done
  return 1
}

pg_make_dir() {
  local dir=$1
  mkdir -p "$dir"
  if is_root; then
    chown postgres: "$dir"
    runuser -u postgres -- test -w "$dir" ||
      die "user postgres cannot write $dir: some parent directory is not searchable by other users; point SVC_STACK_DIR elsewhere (for example under /tmp)"
  fi
}

postgres_init() {
  local data
  data=$(pg_node_data 1)
  pg_make_dir "$PG_DIR"
  log "postgres: creating a cluster in $data"
  pg_as_owner "$(pg_bin initdb)" -D "$data" -U svc --auth=trust --encoding=UTF8 --locale=C \
    >"$PG_DIR/initdb.log" 2>&1 || fail_with_log "initdb failed" "$PG_DIR/initdb.log"

  # The socket lives in the data dir, away from /var/run/postgresql and any system cluster. A Unix
  # socket path is limited to 107 bytes; past that PostgreSQL would refuse to start, so a deep
  # stack dir gets TCP only (every client here uses 127.0.0.1 anyway). A standby's copy names
  # the primary's data dir, so a pair uses TCP only.
  local socket_dir=$data
  local socket_name_length=15 # "/.s.PGSQL.NNNNN"
  if ((${#data} + socket_name_length > 107 || PG_NODES > 1)); then
    socket_dir=
  fi
  {
    printf '\n# --- svc local stack (infra/stack.sh) ---\n'
    printf "listen_addresses = '127.0.0.1'\n"
    printf "unix_socket_directories = '%s'\n" "$socket_dir"
    # Every test file opens its own pools; the default 100 runs out under parallel tests.
    printf 'max_connections = 200\n'
    if [[ $THROWAWAY == 1 ]]; then
      # Durability is pointless for a cluster deleted after the run, and costs test time.
      printf 'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n'
    fi
    if ((PG_NODES > 1)); then
      # A standby that fell behind while it was restarted catches up from the primary's WAL.
      printf "wal_keep_size = '256MB'\n"
      # Readiness of the pair is judged from the primary's view of its standby.
      printf "wal_receiver_status_interval = '1s'\n"
    fi
  } >>"$data/postgresql.conf"
  # initdb's pg_hba.conf already lets local and 127.0.0.1 replication connections in (trust).
}

# pg_node_start <k>: starts node k from its data dir and waits until it answers.
pg_node_start() {
  local k=$1 port data logfile
  port=$(pg_node_port "$k")
  data=$(pg_node_data "$k")
  logfile=$(pg_node_log "$k")
  ensure_port_free "$port" "postgres node $k" "$(pg_port_var "$k")"
  # The port is given at each start rather than written into postgresql.conf, so ports.env and
  # SVC_STACK_PG_PORT stay the only places that decide it.
  pg_as_owner "$(pg_bin pg_ctl)" start -D "$data" -l "$logfile" -o "-p $port" -w -t 60 \
    >/dev/null 9>&- || fail_with_log "postgres node $k did not start" "$logfile"
  PG_WAITING_NODE=$k
  wait_ready "postgres node $k" 30 "$logfile" pg_waiting_node_running postgres_ready "$port"
}
PG_WAITING_NODE=1
pg_waiting_node_running() { pg_node_running "$PG_WAITING_NODE"; }

# pg_node_copy <k> <primary>: node k's data made afresh as a streaming standby of the primary.
pg_node_copy() {
  local k=$1 primary=$2 data logfile
  data=$(pg_node_data "$k")
  logfile=$(pg_node_dir "$k")/basebackup.log
  pg_make_dir "$(pg_node_dir "$k")"
  rm -rf "$data"
  log "postgres: copying node $primary into node $k as its standby"
  # -R writes standby.signal and primary_conninfo; -X stream carries the WAL written meanwhile.
  pg_as_owner "$(pg_bin pg_basebackup)" -h 127.0.0.1 -p "$(pg_node_port "$primary")" -U svc -D "$data" \
    -R -X stream -c fast >>"$logfile" 2>&1 || fail_with_log "pg_basebackup of node $primary failed" "$logfile"
}

pg_node_is_standby_copy() { [[ -f $(pg_node_data "$1")/standby.signal ]]; }

# Commits wait for the standby once it streams: an acknowledged write is then on both nodes,
# and survives the primary's loss. With the standby down they must not wait (nothing would
# answer), so the primary runs asynchronous until a standby streams again.
pg_synchronous_when_streaming() {
  local primary=$1 port end=$((SECONDS + 60))
  port=$(pg_node_port "$primary")
  until [[ $(pg_sql "$port" "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'") -ge 1 ]]; do
    ((SECONDS < end)) || fail_with_log "the standby did not stream from node $primary within 60s" "$(pg_node_log "$primary")"
    sleep 0.2
  done
  pg_sql "$port" "ALTER SYSTEM SET synchronous_standby_names = '*'" >/dev/null
  pg_sql "$port" 'SELECT pg_reload_conf()' >/dev/null
}

postgres_start() {
  pg_make_dir "$PG_DIR"
  echo "$PG_NODES" >"$PG_NODES_FILE"
  [[ -f $(pg_node_data 1)/PG_VERSION ]] || postgres_init
  local k primary
  if ((PG_NODES > 1)); then
    # Whichever node was the primary when the stack stopped starts first (no standby.signal).
    primary=$(pg_running_primary) || true
    if [[ -z $primary ]]; then
      for ((k = 1; k <= PG_NODES; k++)); do
        if [[ -f $(pg_node_data "$k")/PG_VERSION ]] && ! pg_node_is_standby_copy "$k"; then
          pg_node_running "$k" || pg_node_start "$k"
          primary=$k
          break
        fi
      done
    fi
    [[ -n $primary ]] || die "no PostgreSQL node of $STACK_DIR can start as the primary: every one is a standby; promote one first (infra/stack.sh promote postgres)"
    for ((k = 1; k <= PG_NODES; k++)); do
      ((k != primary)) || continue
      pg_node_running "$k" && continue
      # A node that was a primary until a failover is copied again, never started as one.
      if [[ ! -f $(pg_node_data "$k")/PG_VERSION ]] || ! pg_node_is_standby_copy "$k"; then
        pg_node_copy "$k" "$primary"
      fi
      pg_node_start "$k"
    done
    pg_synchronous_when_streaming "$primary"
  else
    pg_node_running 1 || pg_node_start 1
    primary=1
  fi

  local exists port
  port=$(pg_node_port "$primary")
  exists=$(pg_sql "$port" "SELECT 1 FROM pg_database WHERE datname = 'svc'")
  if [[ $exists != 1 ]]; then
    "$(pg_bin createdb)" -h 127.0.0.1 -p "$port" -U svc svc
  fi
}

# The running standby becomes the primary; for a failover once the primary is gone.
postgres_promote() {
  ((PG_NODES > 1)) || die "promote needs a PostgreSQL pair (SVC_STACK_PG_STANDBY=1)"
  local k primary
  if primary=$(pg_running_primary); then
    die "node $primary is still a running primary: stop it before promoting its standby"
  fi
  for ((k = 1; k <= PG_NODES; k++)); do
    pg_node_running "$k" && pg_node_is_standby "$k" || continue
    # Asynchronous until a new standby streams: with the copy's setting, every commit on the
    # promoted node would wait for a standby that is not there.
    pg_sql "$(pg_node_port "$k")" 'ALTER SYSTEM RESET synchronous_standby_names' >/dev/null
    pg_as_owner "$(pg_bin pg_ctl)" promote -D "$(pg_node_data "$k")" -w -t 60 >/dev/null ||
      fail_with_log "postgres node $k was not promoted" "$(pg_node_log "$k")"
    log "postgres node $k promoted to primary"
    return 0
  done
  die "no PostgreSQL standby is running to promote"
}

postgres_stop() {
  local k primary
  # The primary first: its standby receives everything up to the shutdown checkpoint.
  primary=$(pg_running_primary) || primary=1
  for k in "$primary" $(seq 1 "$PG_NODES"); do
    pg_node_running "$k" || continue
    pg_as_owner "$(pg_bin pg_ctl)" stop -D "$(pg_node_data "$k")" -m fast -w -t 60 >/dev/null ||
      fail_with_log "postgres node $k did not stop" "$(pg_node_log "$k")"
  done
}

postgres_describe() {
  local k role
  for ((k = 1; k <= PG_NODES; k++)); do
    ((k == 1)) || printf '%-19s' ''
    role=
    if ((PG_NODES > 1)); then
      if ! pg_node_running "$k"; then role='down  '; elif pg_node_is_primary "$k"; then role='primary  '; else role='standby  '; fi
    fi
    printf '%s127.0.0.1:%s  data %s  log %s\n' "$role" "${PORTS[$(pg_port_var "$k")]:-?}" "$(pg_node_data "$k")" "$(pg_node_log "$k")"
  done
}

# The URL svc connects with: every node, and only to whichever is the primary.
postgres_url() {
  if ((PG_NODES == 1)); then
    echo "postgres://svc@127.0.0.1:$(pg_node_port 1)/svc"
    return
  fi
  local k hosts=()
  for ((k = 1; k <= PG_NODES; k++)); do hosts+=("127.0.0.1:$(pg_node_port "$k")"); done
  echo "postgres://svc@$(
    IFS=,
    echo "${hosts[*]}"
  )/svc?target_session_attrs=read-write"
}
