#!/bin/sh
# The parts of the official postgres image's entrypoint that compose.yaml relies on: a first
# start initialises $PGDATA with $POSTGRES_USER, its password ($POSTGRES_PASSWORD or the file
# $POSTGRES_PASSWORD_FILE) and $POSTGRES_DB, accepting password (scram) connections from the
# network; every start then runs the server as the postgres user.
set -eu
if [ "${1:-}" = postgres ] && [ "$(id -u)" = 0 ]; then
  install -d -o postgres -g postgres -m 0700 "$PGDATA"
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    user=${POSTGRES_USER:-postgres}
    password=${POSTGRES_PASSWORD:-}
    if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then password=$(cat "$POSTGRES_PASSWORD_FILE"); fi
    [ -n "$password" ] || { echo "POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE is required" >&2; exit 1; }
    pwfile=$(mktemp) && printf '%s\n' "$password" >"$pwfile" && chown postgres "$pwfile"
    setpriv --reuid=postgres --regid=postgres --init-groups \
      initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 -D "$PGDATA" >/dev/null
    rm -f "$pwfile"
    database=${POSTGRES_DB:-$user}
    if [ "$database" != postgres ]; then
      echo "CREATE DATABASE \"$database\" OWNER \"$user\";" |
        setpriv --reuid=postgres --regid=postgres --init-groups postgres --single -D "$PGDATA" -j postgres >/dev/null
    fi
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.auto.conf"
    echo "initialised $PGDATA (user $user, database $database)" >&2
  fi
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$@"
fi
exec "$@"
