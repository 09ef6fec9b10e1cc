import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { FieldIssue } from '../errors/app-error.js';
import { parseNetwork } from '../net/ip-network.js';
import { parseListenAddress } from '../net/listen-address.js';
import { checkBareOrigin } from '../net/origin.js';
import { describeFsError } from './fs-error.js';
import { jwtSecretProblem } from './jwt-secret.js';
import { keyOrder, STARTUP_KEYS, type StartupKeyName } from './keys.js';
import { checkManagementEndpoint } from './management-endpoint.js';
import { isValidOpaqueServerSetup } from './opaque-setup.js';
import { getValue } from './paths.js';
import { redactUrl } from './redact.js';
import type { StartupConfig } from './types.js';
import { splitUrlList } from './url-list.js';
import { checkWebAuthn } from './webauthn.js';

type Check = (config: StartupConfig) => FieldIssue[] | Promise<FieldIssue[]>;

/**
 * Every rule the server enforces before it starts. All rules run, so one attempt shows every
 * problem; the result is in key order (spec: the first error is the one to act on).
 */
export async function validateConfig(config: StartupConfig): Promise<FieldIssue[]> {
  const found = (await Promise.all(CHECKS.map((check) => Promise.resolve(check(config))))).flat();
  const seen = new Set<string>();
  const unique = found.filter((issue) => {
    const id = `${issue.key}\u0000${issue.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  // Array.prototype.sort is stable: issues of one key keep the order their check gave.
  return unique.sort((a, b) => keyOrder(a.key) - keyOrder(b.key));
}

const CHECKS: Check[] = [
  (c) => required(c, 'data_dir'),
  (c) => (/^\S+$/.test(c.replica_id) ? [] : [issue('replica_id', 'must be non-empty and without spaces')]),
  (c) => {
    const levels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
    return levels.includes(c.log.level) ? [] : [issue('log.level', `must be one of ${levels.join(', ')}`)];
  },
  (c) => required(c, 'server.host', 'grpc.host', 'rtmp.host', 'stun.host'),
  checkPorts,
  checkTurn,
  checkRoomRates,
  checkCorsOrigins,
  checkTrustedProxies,
  (c) =>
    c.metrics.listen === '' || parseListenAddress(c.metrics.listen)
      ? []
      : [issue('metrics.listen', `"${c.metrics.listen}" must be host:port, such as 127.0.0.1:9464, or empty`)],
  checkTelemetry,
  checkTls,
  (c) => [
    ...checkUrl('database.url', c.database.url, ['postgres:', 'postgresql:'], 'postgres://user@host:5432/db'),
    ...(Number.isInteger(c.database.pool_max) && c.database.pool_max >= 1
      ? []
      : [issue('database.pool_max', 'must be at least 1')]),
  ],
  (c) => checkUrl('redis.url', c.redis.url, ['redis:', 'rediss:'], 'redis://host:6379'),
  checkNats,
  checkTemporal,
  checkActors,
  (c) => (c.proxy_slice_cache.size_mb > 0 ? [] : [issue('proxy_slice_cache.size_mb', 'must be greater than 0')]),
  checkMediaProxy,
  checkMediaTools,
  checkYouTube,
  checkSmtp,
  (c) => checkManagementEndpoint(c).issues,
  (c) => checkWebAuthn(c.webauthn),
  checkOpaqueSetup,
  (c) => {
    const problem = jwtSecretProblem(c.jwt.secret);
    return problem ? [issue('jwt.secret', problem)] : [];
  },
  checkCredentialKey,
  checkAuth,
];

/** An OTLP/HTTP endpoint is an http(s) URL; the sampling ratio a share; the cap a rate. */
function checkTelemetry(c: StartupConfig): FieldIssue[] {
  const { otlp_endpoint: endpoint, sample_ratio: ratio, max_traces_per_second: cap } = c.telemetry;
  return [
    ...(endpoint === '' ? [] : checkUrl('telemetry.otlp_endpoint', endpoint, ['http:', 'https:'], 'http://127.0.0.1:4318')),
    ...(ratio >= 0 && ratio <= 1 ? [] : [issue('telemetry.sample_ratio', `must be between 0 and 1 (got ${ratio})`)]),
    ...(cap >= 0 && cap <= 1_000_000 ? [] : [issue('telemetry.max_traces_per_second', `must be between 0 and 1000000 (got ${cap})`)]),
  ];
}

/** TURN needs URLs and the secret together; the lifetime stays short (the credential travels to browsers). */
function checkTurn(c: StartupConfig): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const url of c.turn.urls) {
    if (!/^turns?:[^\s?]+(\?transport=(udp|tcp))?$/.test(url)) issues.push(issue('turn.urls', `"${url}" is not a turn: or turns: URL (turn:host[:port][?transport=udp|tcp])`));
  }
  if (c.turn.urls.length > 0 && c.turn.shared_secret === '') issues.push(issue('turn.shared_secret', 'is required when turn.urls is set'));
  if (c.turn.urls.length === 0 && c.turn.shared_secret !== '') issues.push(issue('turn.urls', 'is required when turn.shared_secret is set'));
  const ttl = c.turn.credential_ttl_seconds;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 86_400) issues.push(issue('turn.credential_ttl_seconds', 'must be between 60 and 86400'));
  const cap = c.voice.max_participants;
  if (!Number.isInteger(cap) || cap < 1 || cap > 64) issues.push(issue('voice.max_participants', 'must be between 1 and 64'));
  return issues;
}

/** Room rates are whole counts; a burst below the steady rate would make the rate a lie. */
function checkRoomRates(c: StartupConfig): FieldIssue[] {
  const keys = ['chat_rate', 'chat_burst', 'command_rate', 'read_rate', 'ticket_rate', 'guest_ticket_rate_per_address'] as const;
  const issues = keys
    .filter((key) => !Number.isInteger(c.rooms[key]) || c.rooms[key] < 1 || c.rooms[key] > 100_000)
    .map((key) => issue(`rooms.${key}`, 'must be between 1 and 100000'));
  if (issues.length === 0 && c.rooms.chat_burst < c.rooms.chat_rate) issues.push(issue('rooms.chat_burst', 'must be at least rooms.chat_rate'));
  return issues;
}

function issue(key: StartupKeyName, message: string): FieldIssue {
  return { key, message };
}

function required(config: StartupConfig, ...keys: StartupKeyName[]): FieldIssue[] {
  return keys.filter((key) => String(getValue(config, key)).trim() === '').map((key) => issue(key, 'is required'));
}

function checkPorts(config: StartupConfig): FieldIssue[] {
  return STARTUP_KEYS.filter((key) => key.type.kind === 'port').flatMap((key) => {
    const port = getValue(config, key.key);
    return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535
      ? []
      : [issue(key.key, `must be a port in 1..65535 (got ${String(port)})`)];
  });
}

function checkCorsOrigins(config: StartupConfig): FieldIssue[] {
  return config.server.cors_allowed_origins.flatMap((entry, index) => {
    const result = checkBareOrigin(entry);
    return result.ok ? [] : [issue('server.cors_allowed_origins', `entry ${index}: ${result.message}`)];
  });
}

// Without a list every peer's header would be believed, and a client could name any address.
function checkTrustedProxies(config: StartupConfig): FieldIssue[] {
  const { trust_proxy: trustProxy, trusted_proxies: proxies } = config.server;
  const issues = proxies.flatMap((text, index) =>
    parseNetwork(text) ? [] : [issue('server.trusted_proxies', `entry ${index + 1} "${text}" is not a network such as 10.0.0.0/8 or ::1/128`)],
  );
  if (trustProxy && proxies.length === 0) {
    issues.push(issue('server.trusted_proxies', 'is required when server.trust_proxy is true: list the networks of your reverse proxies, such as 127.0.0.1 or 10.0.0.0/8'));
  }
  if (!trustProxy && proxies.length > 0) issues.push(issue('server.trusted_proxies', 'has no effect unless server.trust_proxy is true'));
  return issues;
}

async function checkTls(config: StartupConfig): Promise<FieldIssue[]> {
  if (!config.tls.enabled) return [];
  const files: Array<[StartupKeyName, string]> = [
    ['tls.cert_file', config.tls.cert_file],
    ['tls.key_file', config.tls.key_file],
  ];
  const issues: FieldIssue[] = [];
  for (const [key, path] of files) {
    if (path === '') {
      issues.push(issue(key, 'is required when tls.enabled is true'));
      continue;
    }
    try {
      await access(path, constants.R_OK);
    } catch (err) {
      issues.push(issue(key, `cannot read ${path}: ${describeFsError(err)}`));
    }
  }
  return issues;
}

function checkUrl(key: StartupKeyName, text: string, protocols: string[], example: string): FieldIssue[] {
  // Messages show the URL without its password: they end up in logs and terminals.
  const shown = `"${redactUrl(text)}"`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [issue(key, `${shown} is not a URL (expected something like ${example})`)];
  }
  if (!protocols.includes(url.protocol)) {
    const schemes = protocols.map((p) => `${p}//`).join(' or ');
    return [issue(key, `${shown} must start with ${schemes}`)];
  }
  if (url.hostname === '') return [issue(key, `${shown} has no host`)];
  return [];
}

function checkNats(config: StartupConfig): FieldIssue[] {
  const urls = splitUrlList(config.nats.url);
  const issues =
    urls.length === 0
      ? [issue('nats.url', 'is required (nats://host:port, several separated by commas)')]
      : urls.flatMap((url) => checkUrl('nats.url', url, ['nats:'], 'nats://host:4222'));
  const prefix = config.nats.subject_prefix;
  // A subject token cannot be empty or contain spaces, and wildcards would match other tenants.
  if (!/^[^\s.*>]+(\.[^\s.*>]+)*$/.test(prefix)) {
    issues.push(issue('nats.subject_prefix', `"${prefix}" must be one or more subject tokens (such as "svc" or "prod.svc") without wildcards or spaces`));
  }
  return issues;
}

function checkTemporal(config: StartupConfig): FieldIssue[] {
  const { address, ui_url: uiUrl } = config.temporal;
  const issues = required(config, 'temporal.namespace', 'temporal.task_queue');
  if (!parseListenAddress(address)) {
    issues.unshift(issue('temporal.address', `"${address}" must be host:port, such as 127.0.0.1:7233`));
  }
  if (uiUrl !== '') {
    const ok = URL.canParse(uiUrl) && ['http:', 'https:'].includes(new URL(uiUrl).protocol);
    if (!ok) issues.push(issue('temporal.ui_url', `"${uiUrl}" must be an http(s) URL or empty`));
  }
  return issues;
}

function checkSmtp(config: StartupConfig): FieldIssue[] {
  const { host, sender } = config.smtp;
  if (host === '') return [];
  // Deliberately loose: one "@", something on each side, a dot in the domain. The SMTP
  // server is the authority on deliverability; this catches a forgotten or swapped value.
  const address = /<([^<>]+)>\s*$/.exec(sender)?.[1] ?? sender;
  if (/^[^\s@]+@(?:[^\s@.]+\.)+[^\s@.]+$/.test(address.trim())) return [];
  return [issue('smtp.sender', sender === '' ? 'is required when smtp.host is set' : `"${sender}" is not an email address`)];
}

async function checkOpaqueSetup(config: StartupConfig): Promise<FieldIssue[]> {
  const value = config.security.opaque_server_setup_secret;
  const advice = 'generate it once with `svc secrets generate` and keep it: replacing it invalidates every registered password';
  if (value === '') return [issue('security.opaque_server_setup_secret', `is required; ${advice}`)];
  if (await isValidOpaqueServerSetup(value)) return [];
  return [issue('security.opaque_server_setup_secret', `is not a valid OPAQUE server setup; ${advice}`)];
}

function checkCredentialKey(config: StartupConfig): FieldIssue[] {
  const key = config.credential_encryption_key;
  if (/^[0-9a-fA-F]{64}$/.test(key)) return [];
  const got = key === '' ? 'it is empty' : /^[0-9a-fA-F]*$/.test(key) ? `got ${key.length}` : 'it contains non-hex characters';
  return [
    issue(
      'credential_encryption_key',
      `must be exactly 64 hexadecimal characters, 32 random bytes (${got}); generate one with \`svc secrets generate\``,
    ),
  ];
}

function checkAuth(config: StartupConfig): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const range = (key: StartupKeyName, value: number, min: number, max: number): void => {
    if (!Number.isInteger(value) || value < min || value > max) issues.push(issue(key, `must be an integer in ${min}..=${max}`));
  };
  range('jwt.access_token_ttl_seconds', config.jwt.access_token_ttl_seconds, 60, 3600);
  range('auth.refresh_token_ttl_days', config.auth.refresh_token_ttl_days, 1, 365);
  range('auth.review_ttl_hours', config.auth.review_ttl_hours, 1, 8760);
  config.jwt.previous_secrets.forEach((secret, index) => {
    const problem = jwtSecretProblem(secret);
    if (problem) issues.push(issue('jwt.previous_secrets', `entry ${index + 1} ${problem}`));
  });
  config.credential_encryption_previous_keys.forEach((key, index) => {
    if (!/^[0-9a-fA-F]{64}$/.test(key)) {
      issues.push(issue('credential_encryption_previous_keys', `entry ${index + 1} must be exactly 64 hexadecimal characters`));
    }
  });
  if (config.server.public_url !== '') issues.push(...checkUrl('server.public_url', config.server.public_url, ['http:', 'https:'], 'https://svc.example.com'));
  return issues;
}

// The server (listen) and the CLI (connect) resolve the endpoint with the same rules.
export { resolveManagementEndpoint } from './management-endpoint.js';

function checkActors(config: StartupConfig): FieldIssue[] {
  const { lease_ttl_ms: ttl, heartbeat_ms: heartbeat, idle_timeout_ms: idle, mailbox_size: mailbox, max_queue_wait_ms: queueWait, drain_timeout_ms: drain } =
    config.actors;
  const issues: FieldIssue[] = [];
  const within = (key: StartupKeyName, value: number, min: number, max: number): boolean => {
    if (Number.isInteger(value) && value >= min && value <= max) return true;
    issues.push(issue(key, `must be an integer in ${min}..=${max} (got ${String(value)})`));
    return false;
  };
  const ttlOk = within('actors.lease_ttl_ms', ttl, 300, 600_000);
  if (within('actors.heartbeat_ms', heartbeat, 50, 200_000) && ttlOk && heartbeat * 3 > ttl) {
    issues.push(issue('actors.heartbeat_ms', `must be at most a third of actors.lease_ttl_ms (${ttl} ms) so one late beat does not expire the lease`));
  }
  within('actors.idle_timeout_ms', idle, 1000, 86_400_000);
  within('actors.mailbox_size', mailbox, 1, 1_000_000);
  within('actors.max_queue_wait_ms', queueWait, 1, 60_000);
  within('actors.drain_timeout_ms', drain, 100, 600_000);
  return issues;
}

function checkYouTube(c: StartupConfig): FieldIssue[] {
  const { iframe_api_url: script, embed_origin: frames } = c.youtube;
  if (script === '') return [];
  const issues = checkUrl('youtube.iframe_api_url', script, ['https:', 'http:'], 'https://www.youtube.com/iframe_api');
  const frameIssues = checkUrl('youtube.embed_origin', frames, ['https:', 'http:'], 'https://www.youtube-nocookie.com');
  // An origin, nothing more: it goes into the content security policy's frame-src as it is.
  if (frameIssues.length === 0 && new URL(frames).origin !== frames) frameIssues.push(issue('youtube.embed_origin', `"${frames}" must be an origin only (scheme://host[:port]), such as https://www.youtube-nocookie.com`));
  return [...issues, ...frameIssues];
}

function checkMediaProxy(c: StartupConfig): FieldIssue[] {
  const m = c.media_proxy;
  const issues: FieldIssue[] = [];
  if (!(m.grant_ttl_seconds >= 60)) issues.push(issue('media_proxy.grant_ttl_seconds', 'must be at least 60'));
  m.allowed_networks.forEach((text, index) => {
    if (!parseNetwork(text)) issues.push(issue('media_proxy.allowed_networks', `entry ${index + 1} "${text}" is not a network such as 127.0.0.0/8 or ::1/128`));
  });
  if (!(m.headers_timeout_ms >= 100)) issues.push(issue('media_proxy.headers_timeout_ms', 'must be at least 100'));
  if (!(m.idle_timeout_ms >= 100)) issues.push(issue('media_proxy.idle_timeout_ms', 'must be at least 100'));
  if (!(m.max_redirects >= 0 && m.max_redirects <= 20)) issues.push(issue('media_proxy.max_redirects', 'must be between 0 and 20'));
  return issues;
}

function checkMediaTools(c: StartupConfig): FieldIssue[] {
  const { concurrency, queue_size: queueSize, queue_wait_ms: queueWait } = c.media_tools;
  const issues: FieldIssue[] = [];
  const within = (key: StartupKeyName, value: number, min: number, max: number): void => {
    if (!(Number.isInteger(value) && value >= min && value <= max)) issues.push(issue(key, `must be an integer in ${min}..=${max} (got ${String(value)})`));
  };
  within('media_tools.concurrency', concurrency, 1, 256);
  within('media_tools.queue_size', queueSize, 0, 10_000);
  within('media_tools.queue_wait_ms', queueWait, 100, 600_000);
  return issues;
}
