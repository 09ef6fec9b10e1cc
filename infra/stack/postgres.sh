# shellcheck shell=bash
# PostgreSQL component of the local stack: one cluster with superuser `svc`, trust auth, reachable
# on 127.0.0.1 only. Sourced by infra/stack.sh, which provides STACK_DIR, THROWAWAY and PORTS.

PG_DIR="$STACK_DIR/postgres"
PG_DATA="$PG_DIR/data"
PG_LOG="$PG_DIR/postgres.log"
PG_PORT_VAR=SVC_STACK_PG_PORT

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

postgres_running() {
  [[ -f $PG_DATA/PG_VERSION ]] || return 1
  pg_as_owner "$(pg_bin pg_ctl)" status -D "$PG_DATA" >/dev/null 2>&1
}

postgres_ready() {
  "$(pg_bin pg_isready)" -q -h 127.0.0.1 -p "$1" -U svc -d postgres -t 2
}

postgres_init() {
  mkdir -p "$PG_DIR"
  if is_root; then
    chown postgres: "$PG_DIR"
    runuser -u postgres -- test -w "$PG_DIR" ||
      die "user postgres cannot write $PG_DIR: some parent directory is not searchable by other users; point SVC_STACK_DIR elsewhere (for example under /tmp)"
  fi
  log "postgres: creating a cluster in $PG_DATA"
  pg_as_owner "$(pg_bin initdb)" -D "$PG_DATA" -U svc --auth=trust --encoding=UTF8 --locale=C \
    >"$PG_DIR/initdb.log" 2>&1 || fail_with_log "initdb failed" "$PG_DIR/initdb.log"

  # The socket lives in the data dir, away from /var/run/postgresql and any system cluster. A Unix
  # socket path is limited to 107 bytes; past that PostgreSQL would refuse to start, so a deep
  # stack dir gets TCP only (every client here uses 127.0.0.1 anyway).
  local socket_dir=$PG_DATA
  local socket_name_length=15 # "/.s.PGSQL.NNNNN"
  if ((${#PG_DATA} + socket_name_length > 107)); then
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
  } >>"$PG_DATA/postgresql.conf"
}

postgres_start() {
  local port=${PORTS[$PG_PORT_VAR]}
  [[ -f $PG_DATA/PG_VERSION ]] || postgres_init
  ensure_port_free "$port" postgres "$PG_PORT_VAR"
  # The port is given at each start rather than written into postgresql.conf, so ports.env and
  # SVC_STACK_PG_PORT stay the only places that decide it.
  pg_as_owner "$(pg_bin pg_ctl)" start -D "$PG_DATA" -l "$PG_LOG" -o "-p $port" -w -t 60 \
    >/dev/null 9>&- || fail_with_log "postgres did not start" "$PG_LOG"
  wait_ready postgres 30 "$PG_LOG" postgres_running postgres_ready "$port"

  local exists
  exists=$("$(pg_bin psql)" -X -q -h 127.0.0.1 -p "$port" -U svc -d postgres -v ON_ERROR_STOP=1 \
    -tAc "SELECT 1 FROM pg_database WHERE datname = 'svc'")
  if [[ $exists != 1 ]]; then
    "$(pg_bin createdb)" -h 127.0.0.1 -p "$port" -U svc svc
  fi
}

postgres_stop() {
  pg_as_owner "$(pg_bin pg_ctl)" stop -D "$PG_DATA" -m fast -w -t 60 >/dev/null ||
    fail_with_log "postgres did not stop" "$PG_LOG"
}

postgres_describe() {
  printf '127.0.0.1:%s  data %s  log %s\n' "${PORTS[$PG_PORT_VAR]:-?}" "$PG_DATA" "$PG_LOG"
}
