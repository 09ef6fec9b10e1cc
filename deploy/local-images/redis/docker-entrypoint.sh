#!/bin/sh
# As the official image: redis-server without a configuration file listens on every interface
# with protected mode off (the official image builds it so), as other containers must reach it.
set -e
if [ "${1:-}" = redis-server ]; then
  shift
  set -- redis-server --bind '* -::*' --protected-mode no "$@"
fi
exec "$@"
