#!/bin/sh
# As the official alpine image's entrypoint: arguments that start with a dash are nats-server's.
set -e
case "${1:-}" in -*) set -- nats-server "$@" ;; esac
exec "$@"
