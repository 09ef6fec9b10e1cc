#!/usr/bin/env bash
# The web client's API types: the checked-in OpenAPI document (contracts/http/openapi.json;
# `npm run build:openapi` writes it, a test fails while it is stale) -> web/src/api/openapi.gen.ts
# (git-ignored), with openapi-typescript. Rewritten only when the document changed. Runs before
# the server's compile (build.sh), which type-checks the web modules the unit tests import, and
# before the web client's (build-web.sh).
set -euo pipefail
SVC_LOG_TAG=api-types
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$SVC_REPO_ROOT"

API_TYPES=web/src/api/openapi.gen.ts
OPENAPI_FILE=contracts/http/openapi.json
# The document the types were last made from.
MADE_FROM=dist/web-openapi.json

if [[ ! -f $API_TYPES || ! -f $MADE_FROM ]] || ! cmp -s "$OPENAPI_FILE" "$MADE_FROM"; then
  mkdir -p dist
  # Its banner goes to stdout; warnings about the document go to stderr and stay visible.
  npx openapi-typescript "$OPENAPI_FILE" --output "$API_TYPES" --alphabetize >/dev/null
  cp "$OPENAPI_FILE" "$MADE_FROM"
fi
