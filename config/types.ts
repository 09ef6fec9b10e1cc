/**
 * The effective startup configuration (spec section 1, "Startup configuration"). Loaded once
 * at process start from defaults < YAML / secret files < environment < CLI flags; a change
 * needs a restart. Runtime settings live in `settings/`, never here.
 */
export interface StartupConfig {
  /** Where local state lives: the management socket by default, caches. */
  data_dir: string;
  /** Stable name of this replica in logs, stats and settings history; default <hostname>-<pid>-<6 random hex>. */
  replica_id: string;
  log: { level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' };
  server: {
    host: string;
    port: number;
    /** Where users reach the service (links in emails); empty means webauthn.rp_origin. */
    public_url: string;
    /**
     * This replica's HTTP base URL as the other replicas reach it (livestreams are fetched from
     * the replica they were published to); empty means http://<server.host>:<server.port>, with
     * 127.0.0.1 for a wildcard host: right for replicas on one host.
     */
    advertise_url: string;
    /** Behind a reverse proxy: take the client address from X-Forwarded-For (rate limits, session list). */
    trust_proxy: boolean;
    /** The proxies' networks (CIDRs); only hops in them are believed (net/client-address.ts). */
    trusted_proxies: string[];
    /** Bare origins (scheme://host[:port]) allowed by CORS on the main API. */
    cors_allowed_origins: string[];
  };
  /** `listen`: host:port of the metrics and detailed-readiness listener; empty means off. */
  metrics: { listen: string };
  /**
   * OpenTelemetry traces (observability/tracing.ts): `otlp_endpoint` is the OTLP/HTTP base URL
   * (empty: no tracing, unless OTEL_EXPORTER_OTLP_ENDPOINT is set); `sample_ratio` the share of
   * new traces recorded (0..1), `max_traces_per_second` how many a process records a second at
   * most (0: no cap).
   */
  telemetry: { otlp_endpoint: string; sample_ratio: number; max_traces_per_second: number };
  grpc: { host: string; port: number };
  rtmp: { enabled: boolean; host: string; port: number };
  /** `public_host`: the host clients reach the listener at (empty: the host of server.public_url). */
  stun: { enabled: boolean; host: string; port: number; public_host: string };
  /** An operator's TURN server (coturn `use-auth-secret`); see docs/2026-11-23-webrtc-voice.md. */
  turn: { urls: string[]; shared_secret: string; credential_ttl_seconds: number };
  voice: { max_participants: number };
  /** Per-member rates of room traffic (docs/2026-11-26-command-ids-and-rates.md). */
  rooms: {
    /** Chat sends per second per member per room. */
    chat_rate: number;
    /** Chat sends a member may make at once (the reserve above chat_rate refills over 10 s). */
    chat_burst: number;
    /** Other room commands (writes) per second per member per room. */
    command_rate: number;
    /** Reads (room.get, chat history, pins) and WebRTC signalling per second per member per room. */
    read_rate: number;
    /** Realtime tickets per minute per user or guest. */
    ticket_rate: number;
    /** Realtime tickets per minute per client address, for guests. */
    guest_ticket_rate_per_address: number;
  };
  tls: { enabled: boolean; cert_file: string; key_file: string };
  database: { url: string; pool_max: number };
  redis: { url: string };
  nats: { url: string; subject_prefix: string };
  temporal: { address: string; namespace: string; task_queue: string; ui_url: string };
  /** The actor host pool (`svc serve --role actors`); see docs/2026-11-21-actor-runtime.md. */
  actors: {
    /** How long a host's liveness survives without a heartbeat: bounds failover time. */
    lease_ttl_ms: number;
    heartbeat_ms: number;
    /** An idle actor (nobody present, no traffic) is passivated after this long. */
    idle_timeout_ms: number;
    /** Queued commands per actor before it answers `busy`. */
    mailbox_size: number;
    /** Longest a command may wait to start on a host before the host sheds new ones as `busy`. */
    max_queue_wait_ms: number;
    /** Longest a SIGTERM drain waits for in-flight turns before exiting anyway. */
    drain_timeout_ms: number;
  };
  proxy_slice_cache: { enabled: boolean; size_mb: number };
  /** The media proxy's upstream reads and signed URLs (docs/2026-11-23-media-proxy.md). */
  media_proxy: {
    grant_ttl_seconds: number;
    /** CIDRs the proxy may reach although they are not global unicast (loopback, private, ...). */
    allowed_networks: string[];
    headers_timeout_ms: number;
    idle_timeout_ms: number;
    max_redirects: number;
  };
  /**
   * The pool every ffprobe and ffmpeg a request starts runs in (media/tools/media-tools.ts,
   * docs/2026-11-29-media-tool-pool.md): processes at once, jobs waiting, and how long one waits.
   */
  media_tools: { concurrency: number; queue_size: number; queue_wait_ms: number };
  /** YouTube's embedded player (media/providers/youtube.ts): where browsers load it from. */
  youtube: { iframe_api_url: string; embed_origin: string };
  smtp: { host: string; port: number; username: string; password: string; sender: string };
  management: {
    /** `unix:///abs/path.sock` or `tcp://host:port`; empty means `unix://<data_dir>/svc.sock`. */
    endpoint: string;
    /** Required for a TCP endpoint, forbidden for a Unix socket. */
    token: string;
  };
  webauthn: { rp_origin: string; rp_id: string; rp_name: string };
  security: { opaque_server_setup_secret: string };
  jwt: {
    secret: string;
    /** Older secrets still accepted when verifying, while a rotation's tokens expire. */
    previous_secrets: string[];
    access_token_ttl_seconds: number;
  };
  /** Sessions, reviews and sign-in policy of `accounts/`. */
  auth: {
    refresh_token_ttl_days: number;
    /** A registration review nobody decides within this many hours expires. */
    review_ttl_hours: number;
  };
  credential_encryption_key: string;
  /** Older keys that still open what they sealed, while rows are re-sealed. */
  credential_encryption_previous_keys: string[];
}

/** A resolved management endpoint, shared by the server (listen) and the CLI (connect). */
export type ManagementEndpoint =
  | { kind: 'unix'; path: string }
  | { kind: 'tcp'; host: string; port: number; token: string };
