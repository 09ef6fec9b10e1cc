#!/usr/bin/env bash
# What `npm run fuzz:api` runs: schemathesis over the whole public HTTP API, generated from
# /api/openapi.json, against a throwaway stack and one `svc serve` (gateway + actors) on 127.0.0.1.
#   1. install schemathesis into a venv under the cache dir (once)   2. compile   3. stack + svc
#   4. enable password signup and guests, sign a user up, create a room
#   5. two runs, signed in (bearer) and not, checking: no 5xx, every response matches its schema
# Prints the number of requests tried and the failures; exits non-zero on any failure.
#   SVC_FUZZ_EXAMPLES (default 12) caps the generated cases per operation and phase;
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
REPORT_DIR=${SVC_FUZZ_REPORT_DIR:-}
VENV="$SVC_CACHE_DIR/venv-schemathesis-$SCHEMATHESIS_VERSION"

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

SVC_PID=
SMTP_PID=
stop_svc() {
  local pid
  for pid in "$SVC_PID" "$SMTP_PID"; do
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  throwaway_stack_down
}
trap stop_svc EXIT

# An SMTP sink on loopback (the tests' fixture), so the email endpoints run as configured
# instead of answering `unavailable`.
node --input-type=module -e '
  import { startSmtpSink } from "./dist/test/fixtures/smtp-sink.js";
  const sink = await startSmtpSink();
  console.log(JSON.stringify({ host: sink.host, port: sink.port, username: sink.username, password: sink.password }));
' >"$WORK/smtp.json" 2>"$WORK/smtp.log" &
SMTP_PID=$!
for _ in $(seq 1 100); do
  [[ -s $WORK/smtp.json ]] && break
  kill -0 "$SMTP_PID" 2>/dev/null || { show_log_tail "$WORK/smtp.log"; die "the SMTP sink exited"; }
  sleep 0.1
done
[[ -s $WORK/smtp.json ]] || die "the SMTP sink did not start"

set -a
# shellcheck source=/dev/null
source "$THROWAWAY_STACK_DIR/stack.env"
set +a
node dist/cli/main.js secrets generate --output env | grep -v '^SVC_MANAGEMENT_TOKEN=' >"$WORK/secrets.env"
set -a
# shellcheck source=/dev/null
source "$WORK/secrets.env"
set +a
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
export SVC_WEBAUTHN_RP_ORIGIN=https://svc.test
export SVC_WEBAUTHN_RP_ID=svc.test
smtp_field() { node -e 'console.log(JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]])' "$WORK/smtp.json" "$1"; }
SVC_SMTP_HOST=$(smtp_field host)
SVC_SMTP_PORT=$(smtp_field port)
SVC_SMTP_USERNAME=$(smtp_field username)
SVC_SMTP_PASSWORD=$(smtp_field password)
export SVC_SMTP_HOST SVC_SMTP_PORT SVC_SMTP_USERNAME SVC_SMTP_PASSWORD
export SVC_SMTP_SENDER='svc <noreply@svc.test>'
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

node dist/cli/main.js settings update user --set enablePasswordSignup=true --set enableGuest=true >/dev/null
node dist/cli/main.js settings update server --set maxRoomsPerUser=1000 >/dev/null

json_field() { node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s)[process.argv[1]]?.[process.argv[2]] ?? JSON.parse(s)[process.argv[1]]));' "$@"; }
signup=$(curl -fsS -H 'content-type: application/json' -H 'x-svc-client: native' \
  -d "{\"username\":\"fuzzer_$RANDOM\",\"password\":\"correct horse battery staple\"}" "$BASE/api/auth/password/register")
TOKEN=$(printf '%s' "$signup" | json_field accessToken)
room=$(curl -fsS -H 'content-type: application/json' -H "authorization: Bearer $TOKEN" -d '{"name":"Fuzz room"}' "$BASE/api/rooms")
export FUZZ_ROOM_ID
FUZZ_ROOM_ID=$(printf '%s' "$room" | json_field room id)
curl -fsS -H 'content-type: application/json' -H "authorization: Bearer $TOKEN" \
  -d '{"items":[{"title":"One","url":"https://media.example.com/1.mp4"},{"title":"Two","url":"https://media.example.com/2.mp4"}]}' \
  "$BASE/api/rooms/$FUZZ_ROOM_ID/playlist/bulk" >/dev/null
admin_signup=$(curl -fsS -H 'content-type: application/json' -H 'x-svc-client: native' \
  -d "{\"username\":\"fuzzadmin_$RANDOM\",\"password\":\"correct horse battery staple\"}" "$BASE/api/auth/password/register")
ADMIN_TOKEN=$(printf '%s' "$admin_signup" | json_field accessToken)
node dist/cli/main.js user set-role "$(printf '%s' "$admin_signup" | json_field user username)" admin >/dev/null
log "user and admin tokens made; room $FUZZ_ROOM_ID"

# Every room operation is aimed at the real room, so commands reach its actor.
cat >"$WORK/schemathesis.toml" <<'EOF'
[parameters]
"path.roomId" = "${FUZZ_ROOM_ID}"
# Admin settings: a real group and key, so writes and reads reach the settings code.
"path.group" = "chat"
"path.key" = "chat.maxPinnedMessagesPerRoom"

# positive_data_acceptance expects a schema-valid request to be accepted. For these operations a
# well-formed value is not enough, and no schema could say more: the server is right to answer
# 400 invalid_argument naming the field. Every other check still runs on them, and every other
# operation must accept what its schema allows.
[[operations]]
# Cursors are opaque tokens the server handed out with the previous page.
include-operation-id-regex = "^(listRooms|listMyRooms|adminListRooms|adminListUsers|listBans|listMembers|chatHistory|listPins|listJoinRequests|listNotifications|adminListReviews)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]

[[operations]]
# Protocol messages and proofs: OPAQUE messages, WebAuthn responses to a challenge the server
# issued, a code from an authenticator or an email. Random bytes are well-formed, not valid.
include-operation-id-regex = "^(opaque.*|emailSignupOpaque|emailSignupConfirm|passwordResetOpaque|passwordResetFinish|changePasswordOpaque|webauthn.*Verify|bindPasskey|totpEnable|twoFactorVerify|twoFactorDisable|regenerateRecoveryCodes|oauth2Callback)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]

[[operations]]
# The settings a group holds and each value's rule are the registry's (settings/registry.ts),
# by the group in the path; media URLs are parsed as WHATWG URLs by the room, an item needs a
# url unless it is live, only live items have a stream key, and an item moves within the
# playlist's length.
include-operation-id-regex = "^(adminUpdateSettings|addPlaylistItem|addPlaylistItems|editPlaylistItem|movePlaylistItem|getStreamKey|rotateStreamKey)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]
EOF

total_requests=0
failed=0
summary=()
run_schemathesis() {
  local name=$1
  shift
  local report="${REPORT_DIR:-$WORK}/$name.ndjson"
  local output="$WORK/$name.out"
  log "schemathesis run: $name"
  local status
  # From the work dir: schemathesis keeps its cache (.schemathesis/) in the current directory.
  # Every check and every phase (the stateful one follows the document's links and those it infers).
  set +e
  (cd "$WORK" && "$VENV/bin/schemathesis" --config-file "$WORK/schemathesis.toml" run "$BASE/api/openapi.json" \
    --url "$BASE" \
    --checks all \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "$EXAMPLES" \
    --max-redirects 0 \
    --output-sanitize false \
    --workers 1 \
    --request-timeout 15 \
    --seed 20261123 \
    --suppress-health-check all \
    --report ndjson --report-ndjson-path "$report" \
    "$@") 2>&1 | tee "$output"
  status=${PIPESTATUS[0]}
  set -e
  local requests operations failures
  requests=$(grep -o '"request": *{' "$report" | wc -l || true)
  operations=$(grep -oE 'Tested: +[0-9]+' "$output" | grep -oE '[0-9]+' | tail -1 || true)
  failures=$(grep -oE 'found [0-9]+ unique failures?' "$output" | grep -oE '[0-9]+' | tail -1 || true)
  summary+=("$name: ${operations:-?} operations, $requests requests, ${failures:-0} failures (exit status $status)")
  log "${summary[-1]}"
  total_requests=$((total_requests + requests))
  [[ $status -eq 0 ]] || failed=1
}

started=$SECONDS
# Signed in. Operations that would end the session, sign the user out elsewhere, give the room
# away or delete it are left out (the anonymous pass runs them, where they are refused).
run_schemathesis signed-in -H "Authorization: Bearer $TOKEN" \
  --exclude-operation-id-regex '^(logout|logoutEverywhere|revokeSession|deleteRoom|changePassword|changePasswordOpaque|transferRoom)$'
# As a service administrator, the admin operations; deleting the room under test, and changing
# or banning accounts (which could be the administrator's own) left out.
run_schemathesis admin -H "Authorization: Bearer $ADMIN_TOKEN" --include-tag admin \
  --exclude-operation-id-regex '^(adminDeleteRoom|adminSetUserRole|adminBanUser)$'
run_schemathesis anonymous

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
