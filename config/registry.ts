/**
 * Every startup key, one typed row each, in documented order: its type, default, range or rules,
 * whether it is secret, who needs it, the flag that sets it and the sentence that says what it
 * is. The type of the loaded configuration (config/types.ts), loading and environment names
 * (config/keys.ts), validation (config/validate.ts), `svc config show` redaction and the startup
 * key table in docs/configuration.md (config/key-table.ts) all come from here, so a new key is a
 * row here plus the code that reads it. Rules that relate several keys are beside it: config/cross-key-rules.ts.
 * Runtime settings (hot, in PostgreSQL) are a different thing: settings/registry.ts.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, hostname } from 'node:os';
import { checkBareOrigin } from '../net/index.js';
import {
  credentialKey,
  formerCredentialKeys,
  formerJwtSecrets,
  httpUrlOrEmpty,
  jwtSecret,
  natsUrls,
  opaqueServerSetup,
  subjectPrefix,
  turnUrls,
} from './key-checks.js';
import { bool, int, list, number, oneOf, port, text } from './key-kinds.js';
import { atLeast, between, eachEntry, emptyOr, greaterThan, integerIn, listenAddress, matching, networks, postgresUrl, required, url } from './key-rules.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/**
 * Random per process start: containers of one deployment often share a hostname and all run
 * as pid 1, and the actor runtime takes the replica id as its host id, so `<hostname>-<pid>`
 * alone would let two hosts claim the same identity. Drawn once, so every load in a process agrees.
 */
const PROCESS_START_TAG = randomBytes(3).toString('hex');

/**
 * A tool job mostly waits on its input (the media read through the proxy), but demuxing and
 * text conversion take a core while they run: one per core, and no more than 8 whole-file reads
 * at once on a big machine.
 */
/** One encode per core, at least two: a viewer switching quality (auto) needs a second rung at once. */
function defaultEncodes(): number {
  return Math.max(2, availableParallelism());
}

function defaultToolConcurrency(): number {
  return Math.max(1, Math.min(8, availableParallelism()));
}

const ROOM_RATE = between(1, 100_000);
const HTTP = ['http:', 'https:'];

// Object key order is the documented key order: validation issues are reported in it.
export const STARTUP_REGISTRY = {
  data_dir: text({
    default: '.svc/data',
    description: 'Directory for local state (the default management socket, caches, live HLS files); resolved against the working directory.',
    rules: [required],
    alsoNeededBy: ['client'],
    flag: { name: '--data-dir', help: 'local state directory' },
  }),
  replica_id: text({
    default: () => `${hostname()}-${process.pid}-${PROCESS_START_TAG}`,
    shownDefault: '<hostname>-<pid>-<random> (6 hex digits)',
    description:
      'Name of this replica in logs, stats and settings history, and the actor host id; must be unique among running replicas ' +
      '(the random part of the default is new on every process start, so containers sharing a hostname and pid 1 do not collide).',
    rules: [matching(/^\S+$/, () => 'must be non-empty and without spaces')],
    flag: { name: '--replica-id', help: 'name of this replica in logs and stats' },
  }),
  'log.level': oneOf(LOG_LEVELS, {
    default: 'info',
    description: 'Minimum log level.',
    flag: { name: '--log-level', help: LOG_LEVELS.join('|') },
  }),
  'server.host': text({
    default: '0.0.0.0',
    description: 'HTTP listen address.',
    rules: [required],
    flag: { name: '--host', help: 'HTTP listen address' },
  }),
  'server.port': port({ default: 8080, description: 'HTTP listen port.', flag: { name: '--http-port', help: 'HTTP listen port' } }),
  'server.cors_allowed_origins': list({
    default: [],
    description: 'Bare origins (scheme://host[:port], no path) allowed by CORS on the main API; comma-separated in the environment.',
    rules: [
      eachEntry((entry, index) => {
        const result = checkBareOrigin(entry);
        return result.ok ? undefined : `entry ${index}: ${result.message}`;
      }),
    ],
  }),
  'server.public_url': text({
    default: '',
    description: 'Base URL users open the service at (links in emails); empty means webauthn.rp_origin.',
    rules: [emptyOr(url(HTTP, 'https://svc.example.com'))],
  }),
  'server.advertise_url': text({
    default: '',
    description:
      'HTTP base URL other replicas reach this one at (livestreams are fetched from their publisher replica); ' +
      'empty means http://<server.host>:<server.port> (127.0.0.1 for a wildcard host), right for replicas on one host.',
  }),
  'server.trust_proxy': bool({
    default: false,
    description:
      'Take client addresses (rate limits, the session list) from X-Forwarded-For, as appended by the proxies in server.trusted_proxies (which must then be set).',
  }),
  'server.trusted_proxies': list({
    default: [],
    description:
      'Networks (CIDR or single addresses) of the reverse proxies in front of the service; X-Forwarded-For is read from the right up to the first address outside them. Comma-separated.',
    rules: [networks('10.0.0.0/8 or ::1/128')],
    see: 'docs/2026-11-26-edge-hardening.md',
  }),
  'metrics.listen': text({
    default: '',
    description:
      "host:port of the operators' listener serving Prometheus /metrics and the detailed /health/ready (no auth: keep it on loopback or an internal network); empty: not served.",
    rules: [emptyOr(listenAddress('127.0.0.1:9464', ', or empty'))],
  }),
  'telemetry.otlp_endpoint': text({
    default: '',
    description:
      'OTLP/HTTP base URL traces are exported to (a collector or Jaeger, e.g. http://127.0.0.1:4318; /v1/traces is appended); empty: OTEL_EXPORTER_OTLP_ENDPOINT if set, else no tracing.',
    rules: [emptyOr(url(HTTP, 'http://127.0.0.1:4318'))],
    see: 'docs/2026-11-26-tracing.md',
  }),
  'telemetry.sample_ratio': number({
    default: 1,
    range: between(0, 1, { showValue: true }),
    description: "Share of new traces recorded and exported when tracing is on; a traced caller's own sampling decision is kept.",
  }),
  'telemetry.max_traces_per_second': int({
    default: 100,
    range: between(0, 1_000_000, { showValue: true }),
    description:
      "Traces one process starts recording per second at most, new ones and those a client's traceparent asks for alike (0: no cap). Keeps a busy process's tracing cost bounded at any sample ratio.",
  }),
  'grpc.host': text({ default: '0.0.0.0', description: 'gRPC listen address.', rules: [required] }),
  'grpc.port': port({ default: 9090, description: 'gRPC listen port.' }),
  'rtmp.enabled': bool({ default: true, description: 'Accept RTMP livestream publishing (rtmp://<host>:<port>/live/<stream-key>).' }),
  'rtmp.host': text({ default: '0.0.0.0', description: 'RTMP listen address.', rules: [required] }),
  'rtmp.port': port({ default: 1935, description: 'RTMP listen port.' }),
  'live_pull.max_streams': int({
    default: 8,
    range: integerIn(0, 1000, { showValue: true }),
    description:
      'Live streams from a URL (provider pull: RTMP, RTSP, SRT, HLS) one gateway pulls at once, one ffmpeg each; a player asking for one more is refused with resource_exhausted. 0 turns the pull provider off.',
    see: 'docs/2026-11-29-pulled-live-streams.md',
  }),
  'live_pull.idle_seconds': int({
    default: 30,
    range: integerIn(5, 3600, { showValue: true }),
    description: 'A pulled live stream that no HTTP-FLV player holds and no HLS player asked for in this many seconds stops (it starts again when a player asks).',
    see: 'docs/2026-11-29-pulled-live-streams.md',
  }),
  'stun.enabled': bool({ default: false, description: 'Run the built-in STUN listener (UDP, gateway role; RFC 5389 Binding).' }),
  'stun.host': text({ default: '0.0.0.0', description: 'STUN listen address.', rules: [required] }),
  'stun.port': port({ default: 3478, description: 'STUN listen port.' }),
  'stun.public_host': text({
    default: '',
    description: 'Host (name or IP) clients reach the STUN listener at, handed out as an ICE server; empty means the host of server.public_url.',
  }),
  'turn.urls': list({
    default: [],
    description: 'turn:/turns: URLs of a TURN server (coturn with use-auth-secret) handed to voice participants; comma-separated in the environment.',
    rules: [turnUrls],
    see: 'docs/2026-11-23-webrtc-voice.md',
  }),
  'turn.shared_secret': text({
    default: '',
    sensitivity: 'value',
    description: "The TURN server's static-auth-secret; short-lived TURN credentials are derived from it (empty: no TURN).",
  }),
  'turn.credential_ttl_seconds': int({
    default: 3600,
    range: between(60, 86_400),
    description: 'Lifetime of the TURN credentials handed out, in seconds.',
  }),
  'sfu.url': text({
    default: '',
    sensitivity: 'url_credentials',
    description: "The SFU's (LiveKit server's) HTTP address as this service reaches it, for its API (http(s)://host:7880); empty: no SFU, so voice stays a mesh and screen sharing and cameras are off.",
    rules: [emptyOr(url(HTTP, 'http://host:7880'))],
    see: 'docs/2026-11-29-sfu.md',
  }),
  'sfu.public_url': text({
    default: '',
    description: 'The address browsers open to reach the SFU (ws(s)://host:7880); empty: sfu.url with the ws scheme.',
    rules: [emptyOr(url(['ws:', 'wss:'], 'wss://sfu.example.org'))],
  }),
  'sfu.api_key': text({
    default: '',
    description: "The API key this service signs the SFU's access tokens with (a key of the LiveKit server's `keys`).",
  }),
  'sfu.api_secret': text({
    default: '',
    sensitivity: 'value',
    description: 'The secret of sfu.api_key (at least 32 characters).',
  }),
  'voice.max_participants': int({
    default: 8,
    range: between(1, 64),
    description: 'Voice participants per room; calls are a full mesh, so each one adds an upload per peer. One more is refused with limit_exceeded.',
  }),
  'rooms.chat_rate': int({
    default: 10,
    range: ROOM_RATE,
    description: 'Chat sends (messages, reactions, danmaku) per second per member per room; more are refused with rate_limited.',
    see: 'docs/2026-11-26-command-ids-and-rates.md',
  }),
  'rooms.chat_burst': int({
    default: 20,
    range: ROOM_RATE,
    description: 'Chat sends a member may make at once, at least rooms.chat_rate; the reserve above rooms.chat_rate refills over 10 s.',
  }),
  'rooms.command_rate': int({ default: 30, range: ROOM_RATE, description: 'Room commands other than chat sends and reads per second per member per room.' }),
  'rooms.read_rate': int({
    default: 100,
    range: ROOM_RATE,
    description: 'Room reads (room.get, chat history, pins) and WebRTC signalling per second per member per room.',
  }),
  'rooms.ticket_rate': int({ default: 30, range: ROOM_RATE, description: 'Realtime (WebSocket) tickets per minute per user or guest.' }),
  'rooms.guest_ticket_rate_per_address': int({ default: 120, range: ROOM_RATE, description: 'Realtime tickets per minute per client address for guests.' }),
  'tls.enabled': bool({ default: false, description: 'Serve HTTPS and gRPC over TLS.' }),
  'tls.cert_file': text({ default: '', description: 'PEM certificate chain; required (and must be readable) when tls.enabled.' }),
  'tls.key_file': text({ default: '', description: 'PEM private key; required (and must be readable) when tls.enabled.' }),
  'database.url': text({
    default: 'postgres://svc@127.0.0.1:5432/svc',
    sensitivity: 'url_credentials',
    description:
      'PostgreSQL connection URL (postgres:// or postgresql://). Several hosts (postgres://u@db1:5432,db2:5432/svc?target_session_attrs=read-write) let svc find the primary after a failover.',
    rules: [postgresUrl('postgres://user@host:5432/db')],
    alsoNeededBy: ['database'],
    flag: { name: '--database-url', help: 'PostgreSQL URL' },
  }),
  'database.pool_max': int({
    default: 10,
    range: atLeast(1),
    description: 'Maximum PostgreSQL connections per replica.',
    alsoNeededBy: ['database'],
  }),
  'redis.url': text({
    default: 'redis://127.0.0.1:6379',
    sensitivity: 'url_credentials',
    description: 'Redis URL (redis:// or rediss://).',
    rules: [url(['redis:', 'rediss:'], 'redis://host:6379')],
  }),
  'nats.url': text({
    default: 'nats://127.0.0.1:4222',
    sensitivity: 'url_credentials',
    description: 'NATS server URL(s) with JetStream, comma-separated (nats://host:port).',
    rules: [natsUrls],
  }),
  'nats.subject_prefix': text({
    default: 'svc',
    description: 'First token(s) of every NATS subject, so several deployments can share a NATS.',
    rules: [subjectPrefix],
  }),
  'nats.replicas': int({
    default: 1,
    range: integerIn(1, 5, { showValue: true }),
    description:
      'Copies JetStream keeps of each KV bucket svc uses (room owners, host liveness, transcoders, live streams): 1 on a single NATS server, ' +
      '3 on a three-node cluster (survives the loss of any one node). Existing buckets are changed to it at start.',
    see: 'docs/2026-11-30-nats-topologies.md',
  }),
  'actors.lease_ttl_ms': int({
    default: 1500,
    range: integerIn(300, 600_000, { showValue: true }),
    description: "Liveness lease of an actor host in ms; a dead host's actors move after at most this long (it bounds failover time).",
    see: 'docs/2026-11-21-actor-runtime.md',
  }),
  'actors.heartbeat_ms': int({
    default: 300,
    range: integerIn(50, 200_000, { showValue: true }),
    description: 'Interval of the actor host heartbeat in ms; at most a third of actors.lease_ttl_ms.',
  }),
  'actors.idle_timeout_ms': int({
    default: 300_000,
    range: integerIn(1000, 86_400_000, { showValue: true }),
    description: 'Idle time in ms after which an actor with nobody present is passivated.',
  }),
  'actors.mailbox_size': int({
    default: 1024,
    range: integerIn(1, 1_000_000, { showValue: true }),
    description: 'Commands queued per actor before it answers busy.',
  }),
  'actors.max_queue_wait_ms': int({
    default: 100,
    range: integerIn(1, 60_000, { showValue: true }),
    description: 'Longest a command may wait to start on an actor host before the host answers new ones busy (load shedding).',
  }),
  'actors.drain_timeout_ms': int({
    default: 20_000,
    range: integerIn(100, 600_000, { showValue: true }),
    description: 'Longest a graceful drain (SIGTERM) waits in ms.',
  }),
  'temporal.address': text({
    default: '127.0.0.1:7233',
    description: 'Temporal frontend host:port.',
    rules: [listenAddress('127.0.0.1:7233')],
  }),
  'temporal.namespace': text({ default: 'default', description: 'Temporal namespace.', rules: [required] }),
  'temporal.task_queue': text({ default: 'svc', description: 'Temporal task queue of the workflow worker.', rules: [required] }),
  'temporal.ui_url': text({
    default: '',
    description: 'Temporal UI base URL shown to reviewers and printed at start; empty hides links.',
    rules: [httpUrlOrEmpty],
  }),
  'proxy_slice_cache.enabled': bool({
    default: false,
    description: 'Cache ranged media proxy reads on gateways in 2 MiB slices under <data_dir>/slice-cache/, kept across restarts.',
    see: 'docs/2026-11-23-slice-cache.md',
  }),
  'proxy_slice_cache.size_mb': int({
    default: 1024,
    range: greaterThan(0),
    description: 'Slice cache size in MiB; least recently used slices go first.',
  }),
  'media_proxy.grant_ttl_seconds': int({
    default: 14_400,
    range: atLeast(60),
    description: 'How long a signed media URL (proxied file, HLS playlist) works, in seconds; players ask again before it ends.',
    see: 'docs/2026-11-23-media-proxy.md',
  }),
  'media_proxy.allowed_networks': list({
    default: [],
    description:
      'Networks (CIDR) the media proxy may reach although they are not public: loopback, private, link-local, ... (protection against server-side request forgery); comma-separated.',
    rules: [networks('127.0.0.0/8 or ::1/128')],
  }),
  'media_proxy.headers_timeout_ms': int({
    default: 10_000,
    range: atLeast(100),
    description: "Longest wait for an upstream's connection and response headers, in ms.",
  }),
  'media_proxy.idle_timeout_ms': int({ default: 30_000, range: atLeast(100), description: 'Longest silence of an upstream body being streamed, in ms.' }),
  'media_proxy.max_redirects': int({ default: 5, range: between(0, 20), description: 'Upstream redirects the media proxy follows (each hop checked).' }),
  'media_tools.concurrency': int({
    default: defaultToolConcurrency,
    shownDefault: 'its cores, at most 8',
    range: integerIn(1, 256, { showValue: true }),
    description: 'ffprobe/ffmpeg processes (embedded subtitles) one process runs at once.',
    see: 'docs/2026-11-29-media-tool-pool.md',
  }),
  'media_tools.queue_size': int({
    default: 32,
    range: integerIn(0, 10_000, { showValue: true }),
    description: 'Media tool jobs that may wait for a place; past it requests are answered resource_exhausted (Retry-After).',
  }),
  'media_tools.queue_wait_ms': int({
    default: 15_000,
    range: integerIn(100, 600_000, { showValue: true }),
    description: 'Longest a media tool job waits for a place, in ms, before its request is answered resource_exhausted.',
  }),
  'transcoder.max_encodes': int({
    default: defaultEncodes,
    shownDefault: 'its cores, at least 2',
    range: integerIn(1, 64, { showValue: true }),
    description: 'Encoders (ffmpeg processes of the shared transcode) one transcoder process runs at once; past it new items are refused (resource_exhausted) and play as they are.',
    see: 'docs/2026-11-29-how-items-reach-browsers.md',
  }),
  'transcoder.max_height': int({
    default: 1080,
    range: integerIn(240, 4320, { showValue: true }),
    description: 'The tallest rung of a converted video (pixels); taller sources are scaled down to it, then 1080, 720 and 480 below it are offered.',
  }),
  'transcoder.cache_mb': int({
    default: 4096,
    range: integerIn(64, 1_048_576, { showValue: true }),
    description: 'Disk a transcoder keeps segments in, under <data_dir>/transcode/, in MiB; least recently read segments of idle encoders go first.',
  }),
  'transcoder.cores': int({
    default: availableParallelism,
    shownDefault: 'its cores',
    range: integerIn(1, 1024, { showValue: true }),
    description: 'Cores the transcoder may use: the software encoder\'s preset is chosen to run in real time on them.',
  }),
  'transcoder.hardware_encoders': bool({
    default: true,
    description: 'Use VAAPI, NVENC or QSV H.264 encoders when a one-frame test encode at start works; software (libx264) otherwise.',
  }),
  'youtube.iframe_api_url': text({
    default: 'https://www.youtube.com/iframe_api',
    description: 'The YouTube IFrame Player API script browsers load for youtube items; empty turns the youtube provider off.',
    rules: [emptyOr(url(['https:', 'http:'], 'https://www.youtube.com/iframe_api'))],
  }),
  'youtube.embed_origin': text({
    default: 'https://www.youtube-nocookie.com',
    description: 'The origin of YouTube player frames (the privacy-enhanced one by default); the content security policy admits it.',
  }),
  'smtp.host': text({ default: '', description: 'SMTP server for outgoing email (sign-up codes, password reset); empty disables email.' }),
  'smtp.port': port({ default: 587, description: 'SMTP port (587: submission with STARTTLS).' }),
  'smtp.username': text({ default: '', description: 'SMTP user name.' }),
  'smtp.password': text({ default: '', sensitivity: 'value', description: 'SMTP password.' }),
  'smtp.sender': text({ default: '', description: 'From address of outgoing mail; required when smtp.host is set.' }),
  'management.endpoint': text({
    default: '',
    shownDefault: 'empty: unix://<data_dir>/svc.sock',
    description: 'Management endpoint: unix:///abs/path.sock or tcp://host:port; empty means unix://<data_dir>/svc.sock.',
    alsoNeededBy: ['client'],
    flag: { name: '--management-endpoint', help: 'unix:///path or tcp://host:port' },
    see: 'docs/2026-11-21-management-endpoint.md',
  }),
  'management.token': text({
    default: '',
    sensitivity: 'value',
    description: 'Bearer token of a TCP management endpoint (at least 24 characters); must be empty for a Unix socket.',
    alsoNeededBy: ['client'],
  }),
  'webauthn.rp_origin': text({
    default: 'http://localhost:8080',
    description: 'The exact origin browsers use (https; http only for localhost).',
  }),
  'webauthn.rp_id': text({
    default: 'localhost',
    description: "Relying-party ID: the origin's host or a registrable suffix of it.",
  }),
  'webauthn.rp_name': text({ default: 'svc', description: 'Relying-party name shown by authenticators.', rules: [required] }),
  'security.opaque_server_setup_secret': text({
    default: '',
    shownDefault: 'none: required',
    sensitivity: 'value',
    description: 'OPAQUE server setup; generate once and keep it (changing it invalidates every password).',
    rules: [opaqueServerSetup],
  }),
  'jwt.secret': text({
    default: '',
    shownDefault: 'none: required',
    sensitivity: 'value',
    description: 'Signing secret of access tokens; at least 32 characters and 128 bits of entropy, never a placeholder.',
    rules: [jwtSecret],
  }),
  'jwt.previous_secrets': list({
    default: [],
    sensitivity: 'value',
    description: 'Former jwt.secret values still accepted for verification after a rotation, while their tokens live (comma-separated).',
    rules: [formerJwtSecrets],
  }),
  'jwt.access_token_ttl_seconds': int({ default: 900, range: integerIn(60, 3600), description: 'Lifetime of an access token in seconds.' }),
  'auth.refresh_token_ttl_days': int({
    default: 30,
    range: integerIn(1, 365),
    description: 'A session unused for this many days ends; every refresh extends it.',
  }),
  'auth.review_ttl_hours': int({
    default: 168,
    range: integerIn(1, 8760),
    description: 'A registration or room review left undecided this many hours expires.',
  }),
  credential_encryption_key: text({
    default: '',
    shownDefault: 'none: required',
    sensitivity: 'value',
    description: 'Key that encrypts secrets at rest (TOTP, provider tokens, pending reviews): 64 hexadecimal characters (32 bytes).',
    rules: [credentialKey],
  }),
  credential_encryption_previous_keys: list({
    default: [],
    sensitivity: 'value',
    description: 'Former credential_encryption_key values that still decrypt what they sealed (comma-separated).',
    rules: [formerCredentialKeys],
  }),
};
