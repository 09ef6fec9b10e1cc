#!/usr/bin/env bash
# What `npm run build` runs (and dev.sh, test.sh, bench.sh): everything the service and its tests
# run from, each step doing only what its changed inputs need, so a build with nothing changed
# takes a couple of seconds:
#   1. gRPC types (build-proto.sh; skipped while proto/ is unchanged) and the web client's API
#      types (build-api-types.sh; skipped while contracts/http/openapi.json is unchanged): the
#      server's compile type-checks the web modules its unit tests import;
#   2. the server, tests and benchmarks into dist/ (tsc --build: incremental, dist/.tsbuildinfo;
#      checks only the files that changed, and nothing when none did);
#   3. the web client (build-web.sh; skipped while web/ and what it imports are unchanged),
#      unless --no-web.
set -euo pipefail
SVC_LOG_TAG=build
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$SVC_REPO_ROOT"

bash infra/build-proto.sh
bash infra/build-api-types.sh
log "compiling the server (tsc --build, incremental)"
npx tsc --build tsconfig.json
# A workflow bundle made from an earlier build would run old workflow code: only an image, whose
# code never changes after its build, keeps one (workflows/prebuilt-bundle.ts).
rm -f dist/workflows/review-workflows.bundle.js
[[ ${1:-} == --no-web ]] || bash infra/build-web.sh
