import { randomBytes } from 'node:crypto';
import { availableParallelism, hostname } from 'node:os';
import type { StartupConfig } from './types.js';

/**
 * The one table of startup keys. Loading, environment naming, `*_file` support, redaction,
 * `config show` and the documentation all derive from it, so a key added to `StartupConfig`
 * must be added here (the mapped type below makes the compiler insist).
 */

/** Dotted paths of every leaf of `StartupConfig`, e.g. `server.port`. */
export type StartupKeyName = LeafPaths<StartupConfig>;

type Leaf = string | number | boolean | readonly unknown[];
type LeafPaths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends Leaf ? `${Prefix}${K}` : LeafPaths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The value type at a dotted path of `StartupConfig`. */
export type ValueAt<P extends string, T = StartupConfig> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? ValueAt<Rest, T[Head]>
    : never
  : P extends keyof T
    ? T[P]
    : never;

export type KeyType =
  | { kind: 'string' }
  | { kind: 'int' }
  | { kind: 'number' }
  | { kind: 'port' }
  | { kind: 'bool' }
  | { kind: 'string_list' }
  | { kind: 'enum'; values: readonly string[] };

export type ConfigValue = string | number | boolean | string[];

/**
 * How a key is protected: `value` keys are secrets as a whole (redacted, may come from a
 * `*_file`); `url_credentials` keys are URLs whose password part is secret (redacted there,
 * may also come from a `*_file` so a URL with a password can live in a mounted secret).
 */
export type Sensitivity = 'none' | 'value' | 'url_credentials';

export interface StartupKey {
  key: StartupKeyName;
  type: KeyType;
  /** The default value, or how to compute it when it depends on the host or process. */
  defaultValue: () => ConfigValue;
  sensitivity: Sensitivity;
  description: string;
}

interface KeySpec<V> {
  type: KeyType;
  default: V | (() => V);
  sensitivity?: Sensitivity;
  description: string;
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/**
 * Random per process start: containers of one deployment often share a hostname and all run
 * as pid 1, and the actor runtime takes the replica id as its host id, so `<hostname>-<pid>`
 * alone would let two hosts claim the same identity. Drawn once, so every load in a process agrees.
 */
const PROCESS_START_TAG = randomBytes(3).toString('hex');

const STRING = { kind: 'string' } as const;
const INT = { kind: 'int' } as const;
const PORT = { kind: 'port' } as const;
const BOOL = { kind: 'bool' } as const;

// Object key order is the documented key order: validation issues are reported in it.
const SPECS: { [K in StartupKeyName]: KeySpec<ValueAt<K>> } = {
  data_dir: {
    type: STRING,
    default: '.svc/data',
    description: 'Directory for local state (management socket, caches); resolved against the working directory.',
  },
  replica_id: {
    type: STRING,
    default: () => `${hostname()}-${process.pid}-${PROCESS_START_TAG}`,
    description:
      'Name of this replica in logs, stats and settings history, and the actor host id; must be unique among running replicas ' +
      '(default <hostname>-<pid>-<6 random hex digits>, new on every process start).',
  },
  'log.level': {
    type: { kind: 'enum', values: LOG_LEVELS },
    default: 'info',
    description: 'Minimum log level: trace, debug, info, warn, error or fatal.',
  },
  'server.host': { type: STRING, default: '0.0.0.0', description: 'HTTP listen address.' },
  'server.port': { type: PORT, default: 8080, description: 'HTTP listen port.' },
  'server.cors_allowed_origins': {
    type: { kind: 'string_list' },
    default: () => [],
    description: 'Bare origins (scheme://host[:port]) allowed by CORS; comma-separated in the environment.',
  },
  'server.public_url': {
    type: STRING,
    default: '',
    description: 'Base URL users open the service at (links in emails); empty means webauthn.rp_origin.',
  },
  'server.advertise_url': {
    type: STRING,
    default: '',
    description: 'HTTP base URL other replicas reach this one at (livestreams are fetched from their publisher replica); empty means http://<server.host>:<server.port> (127.0.0.1 for a wildcard host).',
  },
  'server.trust_proxy': {
    type: BOOL,
    default: false,
    description: 'Take client addresses from X-Forwarded-For, as appended by the proxies in server.trusted_proxies (which must then be set).',
  },
  'server.trusted_proxies': {
    type: { kind: 'string_list' },
    default: () => [],
    description:
      'Networks (CIDR or single addresses) of the reverse proxies in front of the service; X-Forwarded-For is read from the right up to the first address outside them. Comma-separated.',
  },
  'metrics.listen': {
    type: STRING,
    default: '',
    description:
      'host:port of the operators\' listener serving Prometheus /metrics and the detailed /health/ready (no auth: keep it on loopback or an internal network); empty: not served.',
  },
  'telemetry.otlp_endpoint': {
    type: STRING,
    default: '',
    description:
      'OTLP/HTTP base URL traces are exported to (a collector or Jaeger, e.g. http://127.0.0.1:4318; /v1/traces is appended); empty: OTEL_EXPORTER_OTLP_ENDPOINT if set, else no tracing.',
  },
  'telemetry.sample_ratio': {
    type: { kind: 'number' },
    default: 1,
    description: 'Share of new traces recorded and exported when tracing is on (0..=1); a traced caller\'s own sampling decision is kept.',
  },
  'telemetry.max_traces_per_second': {
    type: INT,
    default: 100,
    description:
      'Traces one process starts recording per second at most, new ones and those a client\'s traceparent asks for alike (0..=1000000; 0: no cap). Keeps a busy process\'s tracing cost bounded at any sample ratio.',
  },
  'grpc.host': { type: STRING, default: '0.0.0.0', description: 'gRPC listen address.' },
  'grpc.port': { type: PORT, default: 9090, description: 'gRPC listen port.' },
  'rtmp.enabled': { type: BOOL, default: true, description: 'Accept RTMP livestream publishing.' },
  'rtmp.host': { type: STRING, default: '0.0.0.0', description: 'RTMP listen address.' },
  'rtmp.port': { type: PORT, default: 1935, description: 'RTMP listen port.' },
  'stun.enabled': { type: BOOL, default: false, description: 'Run the built-in STUN listener (UDP).' },
  'stun.host': { type: STRING, default: '0.0.0.0', description: 'STUN listen address.' },
  'stun.port': { type: PORT, default: 3478, description: 'STUN listen port.' },
  'stun.public_host': {
    type: STRING,
    default: '',
    description: 'Host (name or IP) clients reach the STUN listener at, handed out as an ICE server; empty means the host of server.public_url.',
  },
  'turn.urls': {
    type: { kind: 'string_list' },
    default: () => [],
    description: 'turn:/turns: URLs of a TURN server (coturn with use-auth-secret) handed to voice participants; comma-separated in the environment.',
  },
  'turn.shared_secret': {
    type: STRING,
    default: '',
    sensitivity: 'value',
    description: "The TURN server's static-auth-secret; short-lived TURN credentials are derived from it (empty: no TURN).",
  },
  'turn.credential_ttl_seconds': { type: INT, default: 3600, description: 'Lifetime of the TURN credentials handed out (60..=86400).' },
  'voice.max_participants': {
    type: INT,
    default: 8,
    description: 'Voice participants per room; calls are a full mesh, so each one adds an upload per peer (1..=64).',
  },
  'rooms.chat_rate': { type: INT, default: 10, description: 'Chat sends (messages, reactions, danmaku) per second per member per room; more are refused with rate_limited (1..=100000).' },
  'rooms.chat_burst': { type: INT, default: 20, description: 'Chat sends a member may make at once; the reserve above rooms.chat_rate refills over 10 s (rooms.chat_rate..=100000).' },
  'rooms.command_rate': { type: INT, default: 30, description: 'Room commands other than chat sends and reads per second per member per room (1..=100000).' },
  'rooms.read_rate': { type: INT, default: 100, description: 'Room reads (room.get, chat history, pins) and WebRTC signalling per second per member per room (1..=100000).' },
  'rooms.ticket_rate': { type: INT, default: 30, description: 'Realtime (WebSocket) tickets per minute per user or guest (1..=100000).' },
  'rooms.guest_ticket_rate_per_address': { type: INT, default: 120, description: 'Realtime tickets per minute per client address for guests (1..=100000).' },
  'tls.enabled': { type: BOOL, default: false, description: 'Serve HTTPS and gRPC over TLS.' },
  'tls.cert_file': { type: STRING, default: '', description: 'PEM certificate chain; required when tls.enabled.' },
  'tls.key_file': { type: STRING, default: '', description: 'PEM private key; required when tls.enabled.' },
  'database.url': {
    type: STRING,
    default: 'postgres://svc@127.0.0.1:5432/svc',
    sensitivity: 'url_credentials',
    description: 'PostgreSQL connection URL (postgres:// or postgresql://).',
  },
  'database.pool_max': { type: INT, default: 10, description: 'Maximum PostgreSQL connections per replica.' },
  'redis.url': {
    type: STRING,
    default: 'redis://127.0.0.1:6379',
    sensitivity: 'url_credentials',
    description: 'Redis URL (redis:// or rediss://).',
  },
  'nats.url': {
    type: STRING,
    default: 'nats://127.0.0.1:4222',
    sensitivity: 'url_credentials',
    description: 'NATS server URL(s), comma-separated (nats://host:port).',
  },
  'nats.subject_prefix': {
    type: STRING,
    default: 'svc',
    description: 'First token(s) of every NATS subject, so several deployments can share a NATS.',
  },
  'actors.lease_ttl_ms': {
    type: INT,
    default: 1500,
    description: 'Liveness lease of an actor host in ms; a dead host\'s actors move after at most this long.',
  },
  'actors.heartbeat_ms': { type: INT, default: 300, description: 'Interval of the actor host heartbeat in ms (at most a third of the lease).' },
  'actors.idle_timeout_ms': { type: INT, default: 300000, description: 'Idle time in ms after which an actor with nobody present is passivated.' },
  'actors.mailbox_size': { type: INT, default: 1024, description: 'Commands queued per actor before it answers busy.' },
  'actors.max_queue_wait_ms': {
    type: INT,
    default: 100,
    description: 'Longest a command may wait to start on an actor host before the host answers new ones busy (load shedding).',
  },
  'actors.drain_timeout_ms': { type: INT, default: 20000, description: 'Longest a graceful drain (SIGTERM) waits in ms.' },
  'temporal.address': { type: STRING, default: '127.0.0.1:7233', description: 'Temporal frontend host:port.' },
  'temporal.namespace': { type: STRING, default: 'default', description: 'Temporal namespace.' },
  'temporal.task_queue': { type: STRING, default: 'svc', description: 'Temporal task queue of the workflow worker.' },
  'temporal.ui_url': { type: STRING, default: '', description: 'Temporal UI base URL shown to reviewers; empty hides links.' },
  'proxy_slice_cache.enabled': { type: BOOL, default: false, description: 'Cache ranged media proxy reads in slices.' },
  'proxy_slice_cache.size_mb': { type: INT, default: 1024, description: 'Slice cache size in MiB.' },
  'media_proxy.grant_ttl_seconds': {
    type: INT,
    default: 14400,
    description: 'How long a signed media URL (proxied file, HLS playlist) works, in seconds; players ask again before it ends.',
  },
  'media_proxy.allowed_networks': {
    type: { kind: 'string_list' },
    default: () => [],
    description: 'Networks (CIDR) the media proxy may reach although they are not public: loopback, private, link-local, ...; comma-separated.',
  },
  'media_proxy.headers_timeout_ms': { type: INT, default: 10000, description: 'Longest wait for an upstream\'s connection and response headers, in ms.' },
  'media_proxy.idle_timeout_ms': { type: INT, default: 30000, description: 'Longest silence of an upstream body being streamed, in ms.' },
  'media_proxy.max_redirects': { type: INT, default: 5, description: 'Upstream redirects the media proxy follows (each hop checked).' },
  'media_tools.concurrency': {
    type: INT,
    default: () => defaultToolConcurrency(),
    description: 'ffprobe/ffmpeg processes (embedded subtitles) one process runs at once; default: its cores, at most 8.',
  },
  'media_tools.queue_size': { type: INT, default: 32, description: 'Media tool jobs that may wait for a place; past it requests are answered resource_exhausted (Retry-After).' },
  'media_tools.queue_wait_ms': { type: INT, default: 15000, description: 'Longest a media tool job waits for a place, in ms, before its request is answered resource_exhausted.' },
  'youtube.iframe_api_url': {
    type: STRING,
    default: 'https://www.youtube.com/iframe_api',
    description: 'The YouTube IFrame Player API script browsers load for youtube items; empty turns the youtube provider off.',
  },
  'youtube.embed_origin': {
    type: STRING,
    default: 'https://www.youtube-nocookie.com',
    description: 'The origin of YouTube player frames (the privacy-enhanced one by default); the content security policy admits it.',
  },
  'smtp.host': { type: STRING, default: '', description: 'SMTP server; empty disables email.' },
  'smtp.port': { type: PORT, default: 587, description: 'SMTP port (587: submission with STARTTLS).' },
  'smtp.username': { type: STRING, default: '', description: 'SMTP user name.' },
  'smtp.password': { type: STRING, default: '', sensitivity: 'value', description: 'SMTP password.' },
  'smtp.sender': { type: STRING, default: '', description: 'From address of outgoing mail; required when smtp.host is set.' },
  'management.endpoint': {
    type: STRING,
    default: '',
    description: 'Management endpoint: unix:///abs/path.sock or tcp://host:port; empty means unix://<data_dir>/svc.sock.',
  },
  'management.token': {
    type: STRING,
    default: '',
    sensitivity: 'value',
    description: 'Bearer token of a TCP management endpoint (at least 24 characters); must be empty for a Unix socket.',
  },
  'webauthn.rp_origin': {
    type: STRING,
    default: 'http://localhost:8080',
    description: 'The exact origin browsers use (https; http only for localhost).',
  },
  'webauthn.rp_id': {
    type: STRING,
    default: 'localhost',
    description: "Relying-party ID: the origin's host or a registrable suffix of it.",
  },
  'webauthn.rp_name': { type: STRING, default: 'svc', description: 'Relying-party name shown by authenticators.' },
  'security.opaque_server_setup_secret': {
    type: STRING,
    default: '',
    sensitivity: 'value',
    description: 'OPAQUE server setup; generate once and keep it (changing it invalidates every password).',
  },
  'jwt.secret': {
    type: STRING,
    default: '',
    sensitivity: 'value',
    description: 'Signing secret of access tokens; at least 32 characters and 128 bits of entropy.',
  },
  'jwt.previous_secrets': {
    type: { kind: 'string_list' },
    default: () => [],
    sensitivity: 'value',
    description: 'Former jwt.secret values still accepted for verification after a rotation (comma-separated).',
  },
  'jwt.access_token_ttl_seconds': { type: INT, default: 900, description: 'Lifetime of an access token in seconds (60..=3600).' },
  'auth.refresh_token_ttl_days': {
    type: INT,
    default: 30,
    description: 'A session unused for this many days ends; every refresh extends it (1..=365).',
  },
  'auth.review_ttl_hours': {
    type: INT,
    default: 168,
    description: 'A registration or room review left undecided this many hours expires (1..=8760).',
  },
  credential_encryption_key: {
    type: STRING,
    default: '',
    sensitivity: 'value',
    description: 'Key that encrypts secrets at rest (TOTP, provider tokens, pending reviews): 64 hexadecimal characters (32 bytes).',
  },
  credential_encryption_previous_keys: {
    type: { kind: 'string_list' },
    default: () => [],
    sensitivity: 'value',
    description: 'Former credential_encryption_key values that still decrypt what they sealed (comma-separated).',
  },
};

/**
 * A tool job mostly waits on its input (the media read through the proxy), but demuxing and
 * text conversion take a core while they run: one per core, and no more than 8 whole-file reads
 * at once on a big machine.
 */
function defaultToolConcurrency(): number {
  return Math.max(1, Math.min(8, availableParallelism()));
}

function toStartupKey(key: StartupKeyName, spec: KeySpec<ConfigValue>): StartupKey {
  const { default: def } = spec;
  return {
    key,
    type: spec.type,
    // Lists are copied so no caller can mutate the shared default.
    defaultValue: typeof def === 'function' ? def : () => (Array.isArray(def) ? [...def] : def),
    sensitivity: spec.sensitivity ?? 'none',
    description: spec.description,
  };
}

/** Every startup key, in documented order. */
export const STARTUP_KEYS: readonly StartupKey[] = (Object.keys(SPECS) as StartupKeyName[]).map((key) =>
  toStartupKey(key, SPECS[key] as KeySpec<ConfigValue>),
);

const BY_NAME = new Map<string, StartupKey>(STARTUP_KEYS.map((k) => [k.key, k]));
const ORDER = new Map<string, number>(STARTUP_KEYS.map((k, i) => [k.key, i]));

export function findKey(name: string): StartupKey | undefined {
  return BY_NAME.get(name);
}

export function isStartupKey(name: string): name is StartupKeyName {
  return BY_NAME.has(name);
}

/** Position of a key in the table; unknown names sort first (they are loading problems). */
export function keyOrder(name: string): number {
  return ORDER.get(name) ?? -1;
}

/** Whether the key may be given as `<key>_file` (YAML) or `SVC_<KEY>_FILE` (environment). */
export function acceptsFile(key: StartupKey): boolean {
  return key.sensitivity !== 'none';
}

export const ENV_PREFIX = 'SVC_';

/** `server.cors_allowed_origins` → `SVC_SERVER_CORS_ALLOWED_ORIGINS`. */
export function envName(key: string): string {
  return ENV_PREFIX + key.replace(/\./g, '_').toUpperCase();
}

/** `SVC_*` variables that belong to the program but are not startup keys. */
export const NON_KEY_ENV = new Set(['SVC_CONFIG', 'SVC_DEPLOYMENT_METHOD', 'SVC_CACHE_DIR', 'SVC_PG_BINDIR']);

/** Prefixes of the local-stack scripts' own variables (`infra/`), which a developer may
 *  export in the same shell that runs `svc`. */
export const NON_KEY_ENV_PREFIXES: readonly string[] = ['SVC_STACK_'];

export function isNonKeyEnv(name: string): boolean {
  return NON_KEY_ENV.has(name) || NON_KEY_ENV_PREFIXES.some((prefix) => name.startsWith(prefix));
}

function sectionOf(key: string): string | undefined {
  const dot = key.indexOf('.');
  return dot === -1 ? undefined : key.slice(0, dot);
}

/** Top-level sections of the nested form (`server`, `jwt`, ...). */
export const SECTIONS: ReadonlySet<string> = new Set(
  STARTUP_KEYS.map((k) => sectionOf(k.key)).filter((s): s is string => s !== undefined),
);
