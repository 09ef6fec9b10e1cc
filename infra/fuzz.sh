#!/usr/bin/env bash
# What `npm run fuzz:api` runs: schemathesis over the whole public HTTP API, generated from
# /api/openapi.json, against a throwaway stack and one `svc serve` (gateway + actors) on 127.0.0.1,
# configured as an operator finds it: the dev defaults (no SMTP, runtime settings untouched).
#   1. install schemathesis into a venv under the cache dir (once)   2. compile   3. stack + svc
#   4. the first administrator from `svc user create-root` (as README says), signed in with its
#      password; a room of its own with two items
#   5. per seed, two runs, signed in as the root and not, with every check and every phase
#      (examples, coverage, fuzzing, stateful): no 5xx, every answer matches its schema, every
#      schema-valid request accepted, every schema-invalid one refused; then, per seed, a run of
#      the setting writes alone (they change what the server accepts, so they come last)
# Prints operations, requests and failures per run and phase; exits non-zero on any failure.
#   SVC_FUZZ_EXAMPLES (default 12) caps the generated cases per operation and phase;
#   SVC_FUZZ_SEED (default 20261123) is the seed, or several separated by spaces (each runs both passes);
#   SVC_FUZZ_OPERATIONS, a regex of operation ids, narrows every run to those (while iterating);
#   SVC_FUZZ_REPORT_DIR keeps schemathesis' NDJSON reports there (else they go with the stack).
set -euo pipefail
SVC_LOG_TAG=fuzz
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/throwaway-stack.sh
source "$SVC_REPO_ROOT/infra/lib/throwaway-stack.sh"
cd "$SVC_REPO_ROOT"

SCHEMATHESIS_VERSION=4.32.5
# Read before scrub_svc_environment clears every SVC_* variable.
EXAMPLES=${SVC_FUZZ_EXAMPLES:-12}
SEEDS=${SVC_FUZZ_SEED:-20261123}
OPERATIONS=${SVC_FUZZ_OPERATIONS:-}
REPORT_DIR=${SVC_FUZZ_REPORT_DIR:-}
VENV="$SVC_CACHE_DIR/venv-schemathesis-$SCHEMATHESIS_VERSION"
for seed in $SEEDS; do
  [[ $seed =~ ^[0-9]+$ ]] || die "SVC_FUZZ_SEED must be whole numbers separated by spaces, not '$seed'"
done

install_schemathesis() {
  if [[ -x $VENV/bin/schemathesis ]]; then
    return
  fi
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    log "python3-venv is missing; installing it"
    if is_root; then
      apt-get install -y python3-venv >&2
    else
      sudo apt-get install -y python3-venv >&2
    fi
  fi
  log "installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
  rm -rf "$VENV.partial"
  python3 -m venv "$VENV.partial"
  "$VENV.partial/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  # The venv's scripts name their interpreter by path: build in place of the final name, then move.
  rm -rf "$VENV"
  mv "$VENV.partial" "$VENV"
  # Fix the shebangs and activation paths pip wrote for the .partial directory.
  grep -rlF "$VENV.partial" "$VENV/bin" | xargs -r sed -i "s#$VENV.partial#$VENV#g"
}

free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

scrub_svc_environment
install_schemathesis
bash infra/install.sh
bash infra/build.sh --no-web

throwaway_stack_up
WORK="$THROWAWAY_STACK_DIR/fuzz"
mkdir -p "$WORK/data"
REPORTS=${REPORT_DIR:-$WORK}
mkdir -p "$REPORTS"

SVC_PID=
stop_svc() {
  if [[ -n $SVC_PID ]] && kill -0 "$SVC_PID" 2>/dev/null; then
    kill -TERM "$SVC_PID" 2>/dev/null || true
    wait "$SVC_PID" 2>/dev/null || true
  fi
  throwaway_stack_down
}
trap stop_svc EXIT

set -a
# shellcheck source=/dev/null
source "$THROWAWAY_STACK_DIR/stack.env"
set +a
node dist/cli/main.js secrets generate --output env | grep -v '^SVC_MANAGEMENT_TOKEN=' >"$WORK/secrets.env"
set -a
# shellcheck source=/dev/null
source "$WORK/secrets.env"
set +a
# What `npm run dev` sets (infra/dev.sh), on free loopback ports; nothing else: no SMTP, so the
# email endpoints answer as a server without email does.
export SVC_DATA_DIR="$WORK/data"
export SVC_SERVER_HOST=127.0.0.1
SVC_SERVER_PORT=$(free_port)
export SVC_SERVER_PORT
export SVC_GRPC_HOST=127.0.0.1
SVC_GRPC_PORT=$(free_port)
export SVC_GRPC_PORT
export SVC_RTMP_HOST=127.0.0.1
SVC_RTMP_PORT=$(free_port)
export SVC_RTMP_PORT
export SVC_LOG_LEVEL=${SVC_LOG_LEVEL:-warn}
BASE="http://127.0.0.1:$SVC_SERVER_PORT"

log "migrating and starting svc serve (gateway + actors) on $BASE"
node dist/cli/main.js migrate >/dev/null
node --enable-source-maps dist/cli/main.js serve --role gateway --role actors >"$WORK/svc.log" 2>&1 &
SVC_PID=$!
for _ in $(seq 1 300); do
  if curl -fsS "$BASE/health/ready" >/dev/null 2>&1; then break; fi
  kill -0 "$SVC_PID" 2>/dev/null || { show_log_tail "$WORK/svc.log"; die "svc serve exited"; }
  sleep 0.2
done
curl -fsS "$BASE/health/ready" >/dev/null || { show_log_tail "$WORK/svc.log"; die "svc did not become ready"; }

json_field() { node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s)[process.argv[1]]?.[process.argv[2]] ?? JSON.parse(s)[process.argv[1]]));' "$@"; }

# The first administrator, made the way README tells an operator to (a script answers the
# password prompt with --password-stdin).
ROOT_USERNAME=fuzzroot
ROOT_PASSWORD=$(node -e 'console.log(require("node:crypto").randomBytes(18).toString("base64url"))')
printf '%s\n' "$ROOT_PASSWORD" | node dist/cli/main.js user create-root --username "$ROOT_USERNAME" --password-stdin >/dev/null

# The root signs in once, as a native client (the refresh token in the body), and each pass gets
# a fresh access token from the refresh token (access tokens live 15 minutes; a pass can take
# longer). Signing in again would meet the sign-in limits: the passes themselves try sign-ins
# from this address, the stateful phase with the root's name among them (a failed-sign-in
# backoff for the account), so a refusal is waited out by its Retry-After.
TOKEN=
REFRESH_TOKEN=
remember_tokens() {
  TOKEN=$(json_field accessToken <"$WORK/tokens.json")
  REFRESH_TOKEN=$(json_field refreshToken <"$WORK/tokens.json")
}
sign_in_root() {
  local status wait
  for _ in $(seq 1 20); do
    status=$(curl -sS -o "$WORK/tokens.json" -D "$WORK/tokens.headers" -w '%{http_code}' -H 'content-type: application/json' -H 'x-svc-client: native' \
      -d "{\"username\":\"$ROOT_USERNAME\",\"password\":\"$ROOT_PASSWORD\"}" "$BASE/api/auth/password/login")
    if [[ $status == 200 ]]; then
      remember_tokens
      return
    fi
    [[ $status == 429 ]] || { cat "$WORK/tokens.json" >&2; die "the root could not sign in (HTTP $status)"; }
    wait=$(grep -i '^retry-after:' "$WORK/tokens.headers" | tr -dc '0-9')
    wait=${wait:-10}
    log "sign-in refused for now (rate limit); waiting ${wait} s"
    sleep "$wait"
  done
  die "the root could not sign in: still rate-limited"
}
fresh_token() {
  local status
  status=$(curl -sS -o "$WORK/tokens.json" -w '%{http_code}' -H 'content-type: application/json' -H 'x-svc-client: native' \
    -d "{\"refreshToken\":\"$REFRESH_TOKEN\"}" "$BASE/api/auth/refresh")
  if [[ $status == 200 ]]; then
    remember_tokens
  else
    log "refreshing the root's session answered HTTP $status; signing in again"
    sign_in_root
  fi
}

sign_in_root
room=$(curl -fsS -H 'content-type: application/json' -H "authorization: Bearer $TOKEN" -d '{"name":"Fuzz room"}' "$BASE/api/rooms")
export FUZZ_ROOM_ID
FUZZ_ROOM_ID=$(printf '%s' "$room" | json_field room id)
curl -fsS -H 'content-type: application/json' -H "authorization: Bearer $TOKEN" \
  -d '{"items":[{"title":"One","url":"https://media.example.com/1.mp4"},{"title":"Two","url":"https://media.example.com/2.mp4"}]}' \
  "$BASE/api/rooms/$FUZZ_ROOM_ID/playlist/bulk" >/dev/null
log "root $ROOT_USERNAME signed in; room $FUZZ_ROOM_ID"

# Every room operation is aimed at the real room, so commands reach its actor.
cat >"$WORK/schemathesis.toml" <<'EOF'
[parameters]
"path.roomId" = "${FUZZ_ROOM_ID}"
# Admin settings: a real key, so reads reach the settings code.
"path.key" = "chat.maxPinnedMessagesPerRoom"

# positive_data_acceptance expects a schema-valid request to be accepted. The document states
# every rule the server applies to a request on its own (docs/2026-11-26-api-document.md); what
# is left here is what no schema can state, one block per reason. The server answers these 400
# invalid_argument naming the field. Every other check still runs on them, and every other
# operation must accept what its schema allows.
[[operations]]
# Proofs and answers to a challenge: OPAQUE messages must be points of the group and belong to a
# login or registration the server started; WebAuthn responses sign the server's challenge; codes
# come from an email or an authenticator; closing an account takes the current password and the
# account's own name; an OAuth2 callback carries the state of an authorization the server began.
# The document states each one's format.
include-operation-id-regex = "^(opaque.*|emailSignupOpaque|emailSignupConfirm|passwordResetOpaque|passwordResetFinish|changePasswordOpaque|webauthn.*Verify|bindPasskey|totpEnable|twoFactorVerify|twoFactorDisable|regenerateRecoveryCodes|oauth2Callback|closeMyAccount)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]

[[operations]]
# What the bytes are: an avatar or an emote must decode as a picture, a subtitle file as text in
# its format. The document states the base64 and the size; the content is the file's.
include-operation-id-regex = "^(putMyAvatar|putEmote|uploadSubtitleFile)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]

[[operations]]
# The room's state: a position within the playlist or a folder as long as they are now; the item
# a path names must be a live one for a stream key; a vote names one of the poll's options; a
# danmaku comment is at the item playing now, near where it plays; header names are compared
# without case (the same name twice in another case); a library item's signature is the
# server's; an edit is checked by the item's own provider too.
include-operation-id-regex = "^(addPlaylistItem|addPlaylistItems|editPlaylistItem|movePlaylistItem|addPlaylistFolder|movePlaylistFolder|getStreamKey|rotateStreamKey|votePoll|sendDanmaku)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]

[[operations]]
# Another server's answer: a library is listed with its credentials before it is stored.
include-operation-id-regex = "^(connectMyLibrary|connectRoomLibrary)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]

[[operations]]
# not_a_server_error: these operations reach another server a member named (a media host, a
# library server) and answer its failure as bad_gateway (502), which they declare: that server's
# fault, not this one's (logged at warn). Any other 5xx still fails them.
include-operation-id-regex = "^(getPlayInfo|getSubtitleTracks|getSubtitleTrack|listLibraryFolder|searchLibrary|addFromLibrary)$"
checks.not_a_server_error.expected-statuses = ["2xx", "3xx", "4xx", "502"]

[[operations]]
# Settings whose rules are in words: OAuth2 providers (unique instance names, a secret kept by
# reference to the stored one), ICE servers (a credential kept by reference), CORS origins
# (distinct in canonical form).
include-operation-id-regex = "^(adminUpdateOAuth2Settings|adminUpdateWebrtcSettings|adminUpdateCorsSettings)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]
EOF

total_requests=0
failed=0
summary=()
run_schemathesis() {
  local name=$1 seed=$2
  shift 2
  local report="$REPORTS/$name-$seed.ndjson"
  local output="$WORK/$name-$seed.out"
  local narrow=()
  local phases=${PHASES:-examples,coverage,fuzzing,stateful}
  [[ -z $OPERATIONS ]] || narrow=(--include-operation-id-regex "$OPERATIONS")
  log "schemathesis run: $name, seed $seed"
  local status
  # From the work dir: schemathesis keeps its cache (.schemathesis/) in the current directory.
  # Every check and every phase (the stateful one follows the document's links and those it
  # infers), unless the pass names its phases (PHASES).
  set +e
  (cd "$WORK" && "$VENV/bin/schemathesis" --config-file "$WORK/schemathesis.toml" run "$BASE/api/openapi.json" \
    --url "$BASE" \
    --checks all \
    --phases "$phases" \
    --max-examples "$EXAMPLES" \
    --max-redirects 0 \
    --output-sanitize false \
    --workers 1 \
    --request-timeout 15 \
    --seed "$seed" \
    --suppress-health-check all \
    --report ndjson --report-ndjson-path "$report" \
    "${narrow[@]}" \
    "$@") 2>&1 | tee "$output"
  status=${PIPESTATUS[0]}
  set -e
  local line
  while IFS= read -r line; do
    summary+=("$name, seed $seed: $line")
  done < <("$VENV/bin/python" infra/fuzz-summary.py "$report")
  summary+=("$name, seed $seed: exit status $status")
  total_requests=$((total_requests + $(grep -o '"request": *{' "$report" | wc -l || true)))
  [[ $status -eq 0 ]] || failed=1
}

started=$SECONDS
# Writing settings changes what the server accepts elsewhere (room.passwordPolicy: required makes
# every room need a password), so the root and anonymous passes run on the settings as shipped,
# and the writes get a pass of their own after them all.
SETTING_WRITES='adminUpdate[A-Za-z0-9]*Settings'
for seed in $SEEDS; do
  # Signed in as the root: every operation, the admin ones included, but those that would end
  # the session or sign the root out elsewhere, take its password, give the room under test away
  # or delete it, or change or ban accounts (the root's own among them), and the setting writes.
  # The anonymous pass runs those, where they are refused.
  fresh_token
  run_schemathesis root "$seed" -H "Authorization: Bearer $TOKEN" \
    --exclude-operation-id-regex "^(logout|logoutEverywhere|revokeSession|deleteRoom|changePassword|changePasswordOpaque|transferRoom|adminDeleteRoom|adminSetUserRole|adminBanUser|$SETTING_WRITES)\$"
  run_schemathesis anonymous "$seed"
done
# No stateful phase here: the document's links join the setting writes to no operation of this
# pass, and schemathesis counts a phase with no link to follow as an error.
for seed in $SEEDS; do
  fresh_token
  PHASES=examples,coverage,fuzzing run_schemathesis settings "$seed" -H "Authorization: Bearer $TOKEN" --include-operation-id-regex "^($SETTING_WRITES|adminListSettings|adminGetSetting|adminSettingHistory)\$"
done

server_errors=$(grep -c '"level":50' "$WORK/svc.log" || true)
log "summary ($((SECONDS - started)) s of schemathesis):"
for line in "${summary[@]}"; do log "  $line"; done
log "requests tried: $total_requests; error lines (5xx) in the service log: $server_errors"
if [[ $failed -ne 0 || $server_errors -ne 0 ]]; then
  log "FAILED: see the schemathesis output above (the service log is $WORK/svc.log, removed on exit)"
  show_log_tail "$WORK/svc.log" 60
  exit 1
fi
log "no failures"
