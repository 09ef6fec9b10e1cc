#!/usr/bin/env bash
# What `npm run build:web` runs (and test.sh, dev.sh after tsc): the browser client in web/.
#   1. the OpenAPI document of the compiled server -> web/src/api/openapi.gen.ts (git-ignored),
#      the API client's types (openapi-typescript), so the client is typed by the API itself;
#   2. type-check web/ (tsc, DOM types);
#   3. vite build into dist/web-client (hashed assets, .br/.gz, sizes and the budget printed).
# `--watch` rebuilds on every change after the first build (npm run dev uses it).
set -euo pipefail
SVC_LOG_TAG=web
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$SVC_REPO_ROOT"

[[ -f dist/gateways/http/openapi.js ]] || die "compile the server first (npx tsc -p .): the API types come from dist/"
node --input-type=module -e '
  import { buildOpenApiDocument } from "./dist/gateways/http/openapi.js";
  process.stdout.write(JSON.stringify(buildOpenApiDocument()));
' >web/src/api/openapi.gen.json
npx openapi-typescript web/src/api/openapi.gen.json --output web/src/api/openapi.gen.ts --alphabetize --silent
rm -f web/src/api/openapi.gen.json

log "type-checking web/"
npx tsc -p web/tsconfig.json

if [[ ${1:-} == --watch ]]; then
  exec npx vite build --config web/vite.config.ts --watch --logLevel warn
fi
log "building the web client into dist/web-client"
npx vite build --config web/vite.config.ts --logLevel warn
