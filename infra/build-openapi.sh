#!/usr/bin/env bash
# What `npm run build:openapi` runs: compiles the server and writes the OpenAPI document it builds
# (gateways/http/openapi.ts) to contracts/http/openapi.json, keys sorted, so a change to an
# endpoint's schemas shows up as a reviewable diff. test/gateways/http/openapi-file.test.ts fails while
# the checked-in file differs from the compiled server's document.
set -euo pipefail
SVC_LOG_TAG=openapi
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$SVC_REPO_ROOT"

bash infra/build.sh --no-web
node --input-type=module -e '
  import { writeFileSync } from "node:fs";
  import { OPENAPI_FILE, openApiFileText } from "./dist/gateways/http/openapi-file.js";
  writeFileSync(OPENAPI_FILE, openApiFileText());
  console.log(OPENAPI_FILE);
' | while read -r file; do log "wrote $file"; done
