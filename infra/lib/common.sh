# shellcheck shell=bash
# Helpers shared by the infra scripts: paths, logging, process and port utilities.
# Sourced, never executed.

SVC_REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
# shellcheck source=../versions.sh
source "$SVC_REPO_ROOT/infra/versions.sh"

# Built binaries live outside the clone so that a fresh clone (CI, a second worktree) reuses them.
SVC_CACHE_DIR=${SVC_CACHE_DIR:-$HOME/.cache/svc}
NATS_SERVER_BIN="$SVC_CACHE_DIR/bin/nats-server-$NATS_SERVER_VERSION/nats-server"
TEMPORAL_BIN="$SVC_CACHE_DIR/bin/temporal-$TEMPORAL_CLI_VERSION/temporal"
LIVEKIT_SERVER_BIN="$SVC_CACHE_DIR/bin/livekit-server-$LIVEKIT_SERVER_VERSION/livekit-server"
GRPCURL_BIN="$SVC_CACHE_DIR/bin/grpcurl-$GRPCURL_VERSION/grpcurl"
CADDY_BIN="$SVC_CACHE_DIR/bin/caddy-$CADDY_VERSION/caddy"
MEDIAMTX_BIN="$SVC_CACHE_DIR/bin/mediamtx-$MEDIAMTX_VERSION/mediamtx"
JAEGER_BIN="$SVC_CACHE_DIR/bin/jaeger-$JAEGER_VERSION/jaeger"
PODMAN_COMPOSE_BIN="$SVC_CACHE_DIR/venv/podman-compose-$PODMAN_COMPOSE_VERSION/bin/podman-compose"

log() { printf '[%s] %s\n' "${SVC_LOG_TAG:-infra}" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

is_root() { [[ $(id -u) -eq 0 ]]; }

# The PostgreSQL server binaries: SVC_PG_BINDIR, else the pinned major, else the newest installed.
pg_bindir() {
  if [[ -n ${SVC_PG_BINDIR:-} ]]; then
    printf '%s\n' "$SVC_PG_BINDIR"
    return
  fi
  local pinned="/usr/lib/postgresql/$POSTGRES_MAJOR/bin"
  if [[ -x $pinned/initdb ]]; then
    printf '%s\n' "$pinned"
    return
  fi
  local newest
  newest=$(find /usr/lib/postgresql -mindepth 3 -maxdepth 3 -path '*/bin/initdb' 2>/dev/null | sort -V | tail -n 1)
  if [[ -n $newest ]]; then
    dirname "$newest"
    return
  fi
  # Not Debian's layout: whatever initdb is on PATH.
  local onpath
  onpath=$(command -v initdb) || return 1
  dirname "$onpath"
}

# version_at_least <have> <want>: dotted numeric comparison.
version_at_least() {
  [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1) == "$2" ]]
}

# Prints the last lines of a log file to stderr, framed, so a failed start explains itself.
show_log_tail() {
  local file=$1 lines=${2:-40}
  if [[ -s $file ]]; then
    log "last $lines lines of $file:"
    tail -n "$lines" "$file" | sed 's/^/    /' >&2
  else
    log "($file is empty or missing)"
  fi
}

fail_with_log() {
  local message=$1 file=$2
  log "error: $message"
  show_log_tail "$file"
  exit 1
}

# --- processes -------------------------------------------------------------------------------

# read_pid <pidfile>: prints the pid recorded in the file, if it holds one.
read_pid() {
  local pid
  [[ -s $1 ]] || return 1
  read -r pid <"$1" || [[ -n ${pid:-} ]] || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  printf '%s\n' "$pid"
}

# pid_alive <pid> <command-substring>: true when the pid is a live (not zombie) process whose
# command line contains the substring, so a recycled pid is never mistaken for ours.
pid_alive() {
  local pid=$1 want=$2 state args
  state=$(ps -o stat= -p "$pid" 2>/dev/null) || return 1
  [[ $state != Z* ]] || return 1
  args=$(ps -o args= -p "$pid" 2>/dev/null) || return 1
  [[ $args == *"$want"* ]]
}

# pidfile_alive <pidfile> <command-substring>
pidfile_alive() {
  local pid
  pid=$(read_pid "$1") || return 1
  pid_alive "$pid" "$2"
}

# spawn_daemon <pidfile> <logfile> <command...>: runs the command in its own session (so Ctrl-C
# in the terminal that started it does not reach it), detached from stdin, appending to the log.
spawn_daemon() {
  local pidfile=$1 logfile=$2
  shift 2
  # Without job control a background child is not a process-group leader, so setsid does not
  # fork again and $! is the daemon's own pid. Descriptor 9 is the stack lock; the daemon must
  # not inherit it.
  setsid nohup "$@" >>"$logfile" 2>&1 </dev/null 9>&- &
  local pid=$! own end=$((SECONDS + 10))
  printf '%s\n' "$pid" >"$pidfile"
  # Until the child has exec'd the daemon, ps shows it with this shell's command line, then
  # setsid's and nohup's, and in the middle of each exec with no command line at all ("[name]"),
  # so a liveness check (pid_alive matches the daemon's command line) in those windows took a
  # daemon that had not yet started for one that had exited, with an empty log. Seen under load
  # (2026-12-01: livekit, once in a CI run); wait until the daemon itself runs, or is gone.
  own=$(ps -o args= -p "$$" 2>/dev/null) || return 0
  local args
  while ((SECONDS < end)); do
    args=$(ps -o args= -p "$pid" 2>/dev/null) || break
    [[ -z $args || $args == "$own" || $args == \[* || $args == "setsid "* || $args == "nohup "* ]] || break
    sleep 0.01
  done
}

# wait_pid_exit <pid> <command-substring> <deadline-seconds>: true once the process has exited.
wait_pid_exit() {
  local pid=$1 want=$2 end=$((SECONDS + $3))
  while pid_alive "$pid" "$want"; do
    ((SECONDS < end)) || return 1
    sleep 0.1
  done
}

# stop_pid <pidfile> <command-substring> <label> [deadline-seconds]: SIGTERM, wait for exit,
# SIGKILL once the deadline passes. A no-op when the process is not running.
stop_pid() {
  local pidfile=$1 want=$2 label=$3 deadline=${4:-30} pid
  if pid=$(read_pid "$pidfile") && pid_alive "$pid" "$want"; then
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_pid_exit "$pid" "$want" "$deadline"; then
      log "$label did not exit within ${deadline}s of SIGTERM; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      wait_pid_exit "$pid" "$want" 10 || die "$label (pid $pid) survived SIGKILL"
    fi
  fi
  rm -f "$pidfile"
}

# wait_ready <label> <deadline-seconds> <logfile> <alive-fn> <ready-fn> [args...]: polls ready-fn
# until it succeeds; fails with the log's tail when alive-fn says the process died or the
# deadline passes.
wait_ready() {
  local label=$1 deadline=$2 logfile=$3 alive=$4 ready=$5
  shift 5
  local end=$((SECONDS + deadline))
  until "$ready" "$@"; do
    "$alive" || fail_with_log "$label exited while starting" "$logfile"
    ((SECONDS < end)) || fail_with_log "$label not ready within ${deadline}s" "$logfile"
    sleep 0.2
  done
}

# --- ports -----------------------------------------------------------------------------------

# port_in_use <port>: true when something accepts TCP connections on 127.0.0.1:<port>.
port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# free_ports <n>: prints n distinct ports that are free on 127.0.0.1 right now. They are held open
# together while being chosen so that no two are the same.
free_ports() {
  node -e '
    const net = require("node:net");
    const count = Number(process.argv[1]);
    const servers = Array.from({ length: count }, () => net.createServer());
    let listening = 0;
    for (const server of servers) {
      server.on("error", (err) => { console.error(err.message); process.exit(1); });
      server.listen(0, "127.0.0.1", () => {
        if (++listening < count) return;
        console.log(servers.map((s) => s.address().port).join(" "));
        for (const s of servers) s.close();
      });
    }
  ' "$1"
}

# http_status <port> <path>: prints the HTTP status code that 127.0.0.1:<port> answers for <path>.
# Plain bash so that readiness checks need neither curl nor the service's code.
http_status() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
    IFS=' ' read -r -t 5 _ code _ <&3 || exit 1
    printf '%s\n' "$code"
  ) 2>/dev/null
}
