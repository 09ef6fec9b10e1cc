# shellcheck shell=bash
# The one place where the local stack's versions are pinned. Sourced by the other infra scripts.
# Changing a Go version here makes install.sh build it into a new cache folder on the next run.

# NATS server (with JetStream), built from source with `go install`.
NATS_SERVER_MODULE=github.com/nats-io/nats-server/v2
NATS_SERVER_VERSION=v2.12.3

# Temporal CLI, whose `server start-dev` is the local Temporal server (and its Web UI).
TEMPORAL_CLI_MODULE=github.com/temporalio/cli/cmd/temporal
TEMPORAL_CLI_VERSION=v1.5.1

# grpcurl, a stock gRPC client: the gRPC tests list and call the API through server reflection.
GRPCURL_MODULE=github.com/fullstorydev/grpcurl/cmd/grpcurl
GRPCURL_VERSION=v1.9.4

# LiveKit's server, the SFU that carries screen shares, cameras and voice past the mesh limit
# (docs/2026-11-29-sfu-deployment.md); its command package builds a binary named `server`.
# v1.13.5 is the newest release that builds here: v1.13.8 and later have go.mod replace
# directives to LiveKit's own forks of pion, which the Go module proxy does not serve.
LIVEKIT_SERVER_MODULE=github.com/livekit/livekit-server/cmd/server
LIVEKIT_SERVER_VERSION=v1.13.5

# MediaMTX, the RTSP server the pulled-livestream tests and bench:live-pull publish a camera
# stand-in to (ffmpeg pushes RTSP to it, the service pulls from it). `go install` refuses it (the
# proxy will not list the module's versions, and its go:generate steps fetch files from GitHub):
# install.sh downloads the module, writes the two generated files it embeds and builds it.
MEDIAMTX_MODULE=github.com/bluenviron/mediamtx
MEDIAMTX_VERSION=v1.12.3

# Caddy, the second reverse proxy whose documented configuration (deploy/caddy/Caddyfile) the
# tests run; Debian has no package of it.
CADDY_MODULE=github.com/caddyserver/caddy/v2/cmd/caddy
CADDY_VERSION=v2.8.4

# Jaeger v2 all-in-one, the tracing backend the trace test exports to and queries
# (test/observability/tracing.test.ts). Its go.mod has replace directives, so `go install
# pkg@version` refuses it: install.sh builds it as a tool of a throwaway module instead.
JAEGER_MODULE=github.com/jaegertracing/jaeger/cmd/jaeger
JAEGER_VERSION=v1.76.0

# podman-compose, from PyPI into a virtual environment: the Compose test starts deploy/compose.yaml
# with it (docs/2026-11-26-containers.md).
PODMAN_COMPOSE_VERSION=1.6.0

# PostgreSQL major version preferred for the local cluster (Debian's `postgresql` package in
# bookworm). Another installed major is used when this one is absent; see pg_bindir.
POSTGRES_MAJOR=15

# Debian packages: the stack's PostgreSQL server (and client tools) and Redis; Chromium, which the
# web client's end-to-end tests drive headless (playwright-core, never a downloaded browser), with
# fonts so pages render text (WenQuanYi Micro Hei for the Chinese pages' screenshots: 1.6 MB
# against Noto CJK's 57 MB); ffmpeg, which makes the test videos the player tests and
# bench:sync play and transmuxes livestreams to HLS; nginx, the Range-capable (and 200-only)
# upstream of the media proxy tests and bench:media, and the reverse proxy of the deployment
# tests, with its WebDAV module (dav-ext answers PROPFIND: the WebDAV library of the media
# library tests); coturn, the TURN relay of the voice test; mpv, the desktop player of `svc watch`
# and its test (test/web/e2e/watch.test.ts) and bench:sync's mpv kind.
DEBIAN_PACKAGES=(postgresql redis-server chromium fonts-dejavu-core fonts-wqy-microhei ffmpeg nginx-light libnginx-mod-http-dav-ext coturn mpv)

# What the container tests and `npm run image` need besides (install.sh --containers): podman
# with Debian's runc, netavark and aardvark-dns (names between containers) and iptables (netavark
# sets the bridge's rules with it; a machine without it fails every container start with
# "netavark: No such file or directory"), catatonit (the pause image of pods), and debootstrap,
# which makes the local base image.
DEBIAN_CONTAINER_PACKAGES=(podman runc netavark aardvark-dns iptables catatonit debootstrap)

# Oldest Node.js the project runs on (package.json "engines").
NODE_MIN_VERSION=20.19.0
