#!/usr/bin/env bash
# What `npm run build:web` runs (and build.sh, after the server's compile): the browser client in web/.
#   1. the API client's types from the checked-in OpenAPI document (build-api-types.sh), so the
#      client is typed by the API itself;
#   2. type-check web/ (tsc --build, incremental: dist/web.tsbuildinfo);
#   3. vite build into dist/web-client (hashed assets, sizes and the budget printed), then the
#      .br/.gz beside each text file (web/build/compress-assets.mjs);
#      both skipped while their inputs are those of the last build (digest in dist/web-client.stamp):
#      every file under web/, the files of the server that web/ imports (as the type-check
#      recorded them), package-lock.json and this script.
# `npm run dev` rebuilds on changes with infra/watch-web.mjs.
set -euo pipefail
SVC_LOG_TAG=web
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/stamps.sh
source "$SVC_REPO_ROOT/infra/lib/stamps.sh"
cd "$SVC_REPO_ROOT"

OUT=dist/web-client
STAMP=dist/web-client.stamp
bash infra/build-api-types.sh

web_inputs() {
  find web -type f
  tsbuildinfo_sources dist/web.tsbuildinfo
  printf '%s\n' package-lock.json infra/build-web.sh
}

# The last type-check's record says which server files web/ reads; if it is missing, the digest
# cannot match a stamp, so the build runs.
if [[ -f $OUT/index.html ]] && stamp_matches "$STAMP" "$(mapfile -t inputs < <(web_inputs) && files_digest "${inputs[@]}")"; then
  exit 0
fi

rm -f "$STAMP"
log "type-checking web/"
npx tsc --build web/tsconfig.json
mapfile -t inputs < <(web_inputs)
digest=$(files_digest "${inputs[@]}")
log "building the web client into $OUT"
npx vite build --config web/vite.config.ts --logLevel warn
node web/build/compress-assets.mjs "$OUT"
write_stamp "$STAMP" "$digest"
