#!/usr/bin/env bash
# What `npm run build:config-table` runs: compiles the server and writes the table of startup keys
# that config/key-table.ts builds from the registry (config/registry.ts) into the file it names in
# KEY_TABLE_FILE (docs/configuration.md), between its markers. test/config/key-table.test.ts fails
# while that table differs from the registry's, so a key added, reworded or re-ranged shows up in
# review as a diff of the table.
set -euo pipefail
SVC_LOG_TAG=config-table
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$SVC_REPO_ROOT"

bash infra/build.sh --no-web
node --input-type=module -e '
  import { readFileSync, writeFileSync } from "node:fs";
  import { KEY_TABLE_FILE, withKeyTable } from "./dist/config/key-table.js";
  writeFileSync(KEY_TABLE_FILE, withKeyTable(readFileSync(KEY_TABLE_FILE, "utf8")));
  console.log(KEY_TABLE_FILE);
' | while read -r file; do log "wrote $file"; done
