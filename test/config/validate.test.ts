import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { isAppError } from '../../errors/app-error.js';
import type { LoadResult } from '../../config/load.js';
import { resolveManagementEndpoint } from '../../config/validate.js';
import { keysOf, loadWith, tempDir, writeText } from './fixtures.js';

/** Loads a valid baseline plus `env` and returns the issues. */
async function check(t: ExecutionContext, env: Record<string, string>): Promise<LoadResult> {
  return loadWith(await tempDir(t), env);
}

async function accepted(t: ExecutionContext, env: Record<string, string>): Promise<void> {
  const result = await check(t, env);
  t.deepEqual(result.issues, [], `expected ${JSON.stringify(env)} to be accepted`);
}

/** Asserts that exactly `key` is reported and returns its message. */
async function rejected(t: ExecutionContext, env: Record<string, string>, key: string): Promise<string> {
  const result = await check(t, env);
  t.deepEqual(keysOf(result), [key], `expected only ${key} for ${JSON.stringify(env)}`);
  return result.issues[0]?.message ?? '';
}

test('jwt.secret: a generated secret passes; missing, placeholder and weak secrets fail', async (t) => {
  await accepted(t, { SVC_JWT_SECRET: randomBytes(48).toString('base64url') });
  await accepted(t, { SVC_JWT_SECRET: randomBytes(32).toString('hex') });

  t.regex(await rejected(t, { SVC_JWT_SECRET: '' }, 'jwt.secret'), /is required.*svc secrets generate/);
  const placeholders = [
    'change-me-in-production-please-0123456789',
    'CHANGEME_8f3k2l1m0n9b8v7c6x5z4a3s2d1f0g9h',
    'this-is-an-example-jwt-key-Zk39fQ0pL2mX8r',
    'MySuperSecretJwtKeyThatIsLongEnough123456',
    'your-256-bit-jwt-key-goes-here-Zk39fQ0pL2mX8r',
    'TODO: set a real key Zk39fQ0pL2mX8rT7vB1nQ4',
    'q'.repeat(64),
  ];
  for (const secret of placeholders) {
    t.regex(await rejected(t, { SVC_JWT_SECRET: secret }, 'jwt.secret'), /placeholder.*svc secrets generate/, secret);
  }
  t.regex(await rejected(t, { SVC_JWT_SECRET: randomBytes(12).toString('base64url') }, 'jwt.secret'), /too weak: 16 characters/);
  t.regex(await rejected(t, { SVC_JWT_SECRET: 'abab'.repeat(12) }, 'jwt.secret'), /too weak: about \d+ bits/);
});

test('jwt.secret is never echoed in its message', async (t) => {
  const secret = 'Hunter2-' + 'ab'.repeat(16);
  const message = await rejected(t, { SVC_JWT_SECRET: secret }, 'jwt.secret');
  t.false(message.includes(secret));
});

test('security.opaque_server_setup_secret must be a valid OPAQUE server setup', async (t) => {
  t.regex(await rejected(t, { SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET: '' }, 'security.opaque_server_setup_secret'), /is required/);
  t.regex(
    await rejected(t, { SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET: 'not-an-opaque-setup' }, 'security.opaque_server_setup_secret'),
    /not a valid OPAQUE server setup/,
  );
  const valid = (await check(t, {})).config.security.opaque_server_setup_secret;
  await rejected(t, { SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET: valid.slice(0, -8) }, 'security.opaque_server_setup_secret');
});

test('credential_encryption_key must be exactly 64 hex characters', async (t) => {
  await accepted(t, { SVC_CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('hex').toUpperCase() });
  t.regex(
    await rejected(t, { SVC_CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('hex').slice(1) }, 'credential_encryption_key'),
    /exactly 64 hexadecimal characters.*got 63/,
  );
  t.regex(
    await rejected(t, { SVC_CREDENTIAL_ENCRYPTION_KEY: 'g' + randomBytes(32).toString('hex').slice(1) }, 'credential_encryption_key'),
    /non-hex/,
  );
  await rejected(t, { SVC_CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64') }, 'credential_encryption_key');
});

test('webauthn: secure origin and an RP ID that matches it', async (t) => {
  const ok: Array<[string, string]> = [
    ['https://app.example.com', 'example.com'],
    ['https://app.example.com', 'app.example.com'],
    ['https://watch.example.co.uk:8443', 'example.co.uk'],
    ['https://me.github.io', 'me.github.io'],
    ['http://localhost:8080', 'localhost'],
    ['http://app.localhost:5173', 'localhost'],
    ['http://127.0.0.1:3000', '127.0.0.1'],
  ];
  for (const [origin, rpId] of ok) await accepted(t, { SVC_WEBAUTHN_RP_ORIGIN: origin, SVC_WEBAUTHN_RP_ID: rpId });

  t.regex(
    await rejected(t, { SVC_WEBAUTHN_RP_ORIGIN: 'http://app.example.com', SVC_WEBAUTHN_RP_ID: 'example.com' }, 'webauthn.rp_origin'),
    /must use https/,
  );
  t.regex(
    await rejected(t, { SVC_WEBAUTHN_RP_ORIGIN: 'https://app.example.com/login', SVC_WEBAUTHN_RP_ID: 'example.com' }, 'webauthn.rp_origin'),
    /path/,
  );
  t.regex(
    await rejected(t, { SVC_WEBAUTHN_RP_ORIGIN: 'https://app.example.com', SVC_WEBAUTHN_RP_ID: 'other.com' }, 'webauthn.rp_id'),
    /must equal the host/,
  );
  t.regex(
    await rejected(t, { SVC_WEBAUTHN_RP_ORIGIN: 'https://example.com', SVC_WEBAUTHN_RP_ID: 'com' }, 'webauthn.rp_id'),
    /public suffix/,
  );
  await rejected(t, { SVC_WEBAUTHN_RP_ORIGIN: 'https://shop.example.co.uk', SVC_WEBAUTHN_RP_ID: 'co.uk' }, 'webauthn.rp_id');
  await rejected(t, { SVC_WEBAUTHN_RP_ORIGIN: 'https://me.github.io', SVC_WEBAUTHN_RP_ID: 'github.io' }, 'webauthn.rp_id');
  await rejected(t, { SVC_WEBAUTHN_RP_ORIGIN: 'https://app.example.com', SVC_WEBAUTHN_RP_ID: 'https://example.com' }, 'webauthn.rp_id');
});

test('server.cors_allowed_origins: bare origins pass, a path names the entry and the fix', async (t) => {
  await accepted(t, { SVC_SERVER_CORS_ALLOWED_ORIGINS: 'https://a.example.com,http://localhost:3000' });
  const message = await rejected(
    t,
    { SVC_SERVER_CORS_ALLOWED_ORIGINS: 'https://a.example.com,https://b.example.com/app' },
    'server.cors_allowed_origins',
  );
  t.regex(message, /^entry 1: /);
  t.true(message.includes('"https://b.example.com"'));
  await rejected(t, { SVC_SERVER_CORS_ALLOWED_ORIGINS: '*' }, 'server.cors_allowed_origins');
});

test('server.trusted_proxies: networks from the environment; a bad entry, or trust_proxy without a list, named', async (t) => {
  await accepted(t, { SVC_SERVER_TRUST_PROXY: 'true', SVC_SERVER_TRUSTED_PROXIES: '127.0.0.1,10.0.0.0/8,fd00::/8' });
  const bad = await rejected(t, { SVC_SERVER_TRUST_PROXY: 'true', SVC_SERVER_TRUSTED_PROXIES: '10.0.0.0/8,10.0.0.0/33' }, 'server.trusted_proxies');
  t.is(bad, 'entry 2 "10.0.0.0/33" is not a network such as 10.0.0.0/8 or ::1/128');
  t.regex(await rejected(t, { SVC_SERVER_TRUST_PROXY: 'true' }, 'server.trusted_proxies'), /is required when server\.trust_proxy is true/);
  t.regex(await rejected(t, { SVC_SERVER_TRUSTED_PROXIES: '127.0.0.1' }, 'server.trusted_proxies'), /no effect unless server\.trust_proxy/);
});

test('metrics.listen is empty or host:port', async (t) => {
  await accepted(t, { SVC_METRICS_LISTEN: '127.0.0.1:9464' });
  await accepted(t, { SVC_METRICS_LISTEN: '[::1]:9464' });
  t.regex(await rejected(t, { SVC_METRICS_LISTEN: '9464' }, 'metrics.listen'), /"9464" must be host:port/);
  await rejected(t, { SVC_METRICS_LISTEN: '127.0.0.1:70000' }, 'metrics.listen');
});

test('telemetry: the OTLP endpoint is empty or an http(s) URL, the sampling ratio a number from 0 to 1, the cap a whole number of traces a second', async (t) => {
  const defaults = await check(t, {});
  t.is(defaults.config.telemetry.otlp_endpoint, '');
  t.is(defaults.config.telemetry.sample_ratio, 1);
  await accepted(t, { SVC_TELEMETRY_OTLP_ENDPOINT: 'http://127.0.0.1:4318', SVC_TELEMETRY_SAMPLE_RATIO: '0.25' });
  const sampled = await check(t, { SVC_TELEMETRY_SAMPLE_RATIO: '0.001' });
  t.is(sampled.config.telemetry.sample_ratio, 0.001);
  t.regex(await rejected(t, { SVC_TELEMETRY_OTLP_ENDPOINT: 'collector:4318' }, 'telemetry.otlp_endpoint'), /must start with http:\/\/ or https:\/\//);
  t.regex(await rejected(t, { SVC_TELEMETRY_OTLP_ENDPOINT: 'not a url' }, 'telemetry.otlp_endpoint'), /is not a URL/);
  t.regex(await rejected(t, { SVC_TELEMETRY_SAMPLE_RATIO: '1.5' }, 'telemetry.sample_ratio'), /between 0 and 1/);
  t.regex(await rejected(t, { SVC_TELEMETRY_SAMPLE_RATIO: 'half' }, 'telemetry.sample_ratio'), /must be a number/);
  t.is(defaults.config.telemetry.max_traces_per_second, 100);
  t.is((await check(t, { SVC_TELEMETRY_MAX_TRACES_PER_SECOND: '0' })).config.telemetry.max_traces_per_second, 0);
  t.regex(await rejected(t, { SVC_TELEMETRY_MAX_TRACES_PER_SECOND: '-1' }, 'telemetry.max_traces_per_second'), /between 0 and 1000000/);
  t.regex(await rejected(t, { SVC_TELEMETRY_MAX_TRACES_PER_SECOND: '2.5' }, 'telemetry.max_traces_per_second'), /integer/);
});

test('youtube: the player\'s script and frame origin are URLs, the frame origin an origin only; an empty script turns YouTube off', async (t) => {
  const defaults = await check(t, {});
  t.deepEqual(defaults.config.youtube, { iframe_api_url: 'https://www.youtube.com/iframe_api', embed_origin: 'https://www.youtube-nocookie.com' });
  const off = await loadWith(await tempDir(t), { SVC_YOUTUBE_EMBED_ORIGIN: 'whatever' }, { flags: { 'youtube.iframe_api_url': '' } });
  t.deepEqual(off.issues, [], 'off: the origin is not used');
  t.is(off.config.youtube.iframe_api_url, '');
  t.regex(await rejected(t, { SVC_YOUTUBE_IFRAME_API_URL: 'youtube' }, 'youtube.iframe_api_url'), /is not a URL/);
  t.regex(await rejected(t, { SVC_YOUTUBE_EMBED_ORIGIN: 'https://www.youtube.com/embed' }, 'youtube.embed_origin'), /origin only/);
  t.regex(await rejected(t, { SVC_YOUTUBE_EMBED_ORIGIN: 'javascript:x' }, 'youtube.embed_origin'), /must start with/);
});

test('management: default Unix socket under data_dir', async (t) => {
  const dir = await tempDir(t);
  const result = await loadWith(dir, { SVC_DATA_DIR: 'state' });
  t.deepEqual(result.issues, []);
  t.deepEqual(resolveManagementEndpoint(result.config), { kind: 'unix', path: join(dir, 'state', 'svc.sock') });
});

test('management: explicit Unix and TCP endpoints resolve', async (t) => {
  const unix = await check(t, { SVC_MANAGEMENT_ENDPOINT: 'unix:///run/svc/mgmt.sock' });
  t.deepEqual(unix.issues, []);
  t.deepEqual(resolveManagementEndpoint(unix.config), { kind: 'unix', path: '/run/svc/mgmt.sock' });

  const token = randomBytes(24).toString('base64url');
  const tcp = await check(t, { SVC_MANAGEMENT_ENDPOINT: 'tcp://[::1]:9400', SVC_MANAGEMENT_TOKEN: token });
  t.deepEqual(tcp.issues, []);
  t.deepEqual(resolveManagementEndpoint(tcp.config), { kind: 'tcp', host: '::1', port: 9400, token });

  // Reachable from the network, but the token is required (and present).
  await accepted(t, { SVC_MANAGEMENT_ENDPOINT: 'tcp://0.0.0.0:9400', SVC_MANAGEMENT_TOKEN: token });
});

test('management: inconsistent endpoint and token are rejected by name', async (t) => {
  t.regex(
    await rejected(t, { SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1:9400' }, 'management.token'),
    /required for a tcp:\/\/ endpoint/,
  );
  t.regex(
    await rejected(t, { SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1:9400', SVC_MANAGEMENT_TOKEN: 'short-token' }, 'management.token'),
    /at least 24 characters/,
  );
  t.regex(
    await rejected(t, { SVC_MANAGEMENT_TOKEN: randomBytes(24).toString('base64url') }, 'management.token'),
    /must be empty for a Unix socket/,
  );
  await rejected(t, { SVC_MANAGEMENT_ENDPOINT: 'unix://run/svc.sock' }, 'management.endpoint');
  await rejected(t, { SVC_MANAGEMENT_ENDPOINT: 'http://127.0.0.1:9400' }, 'management.endpoint');
  const token = randomBytes(24).toString('base64url');
  await rejected(t, { SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1', SVC_MANAGEMENT_TOKEN: token }, 'management.endpoint');
  await rejected(t, { SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1:99999', SVC_MANAGEMENT_TOKEN: token }, 'management.endpoint');

  const long = '/' + 'd'.repeat(100) + '/svc.sock';
  t.regex(await rejected(t, { SVC_MANAGEMENT_ENDPOINT: `unix://${long}` }, 'management.endpoint'), /110 bytes.*at most 107/);
  t.regex(
    await rejected(t, { SVC_DATA_DIR: '/' + 'd'.repeat(100) }, 'management.endpoint'),
    /default socket .*data_dir/,
  );
});

test('resolveManagementEndpoint throws invalid_argument naming the key', async (t) => {
  const { config } = await check(t, { SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1:9400' });
  const err = t.throws(() => resolveManagementEndpoint(config));
  if (!isAppError(err)) return t.fail('expected an AppError');
  t.is(err.code, 'invalid_argument');
  t.deepEqual(err.issues.map((i) => i.key), ['management.token']);
});

test('ports must be in 1..65535', async (t) => {
  await accepted(t, { SVC_SERVER_PORT: '65535', SVC_STUN_PORT: '1' });
  t.regex(await rejected(t, { SVC_SERVER_PORT: '0' }, 'server.port'), /1\.\.65535/);
  await rejected(t, { SVC_GRPC_PORT: '65536' }, 'grpc.port');
  await rejected(t, { SVC_SMTP_PORT: '-25' }, 'smtp.port');
});

test('service URLs must use their scheme; passwords stay out of messages', async (t) => {
  await accepted(t, {
    SVC_DATABASE_URL: 'postgresql://svc:pw@db:5432/svc',
    SVC_REDIS_URL: 'rediss://:pw@cache:6380/0',
    SVC_NATS_URL: 'nats://n1:4222, nats://n2:4222',
  });
  const message = await rejected(t, { SVC_DATABASE_URL: 'mysql://svc:hunter2@db/svc' }, 'database.url');
  t.regex(message, /postgres:\/\/ or postgresql:\/\//);
  t.false(message.includes('hunter2'));
  await rejected(t, { SVC_DATABASE_URL: 'not a url' }, 'database.url');
  // libpq's multi-host form, for a primary and its standbys; each host is checked.
  await accepted(t, { SVC_DATABASE_URL: 'postgres://svc:pw@db1:5432,db2:5432/svc?target_session_attrs=read-write' });
  const hosts = await rejected(t, { SVC_DATABASE_URL: 'postgres://svc:hunter2@db1:5432,db2:0/svc' }, 'database.url');
  t.regex(hosts, /host 2 "db2:0" with port 0/);
  t.false(hosts.includes('hunter2'));
  t.regex(await rejected(t, { SVC_DATABASE_URL: 'postgres://svc@db1,db2/svc?target_session_attrs=standby' }, 'database.url'), /target_session_attrs=standby/);
  await rejected(t, { SVC_DATABASE_POOL_MAX: '0' }, 'database.pool_max');
  await rejected(t, { SVC_REDIS_URL: 'http://cache:6379' }, 'redis.url');
  await rejected(t, { SVC_NATS_URL: 'nats://n1:4222,http://n2:4222' }, 'nats.url');
  await rejected(t, { SVC_NATS_SUBJECT_PREFIX: 'svc.*' }, 'nats.subject_prefix');
  await rejected(t, { SVC_TEMPORAL_ADDRESS: 'http://temporal:7233' }, 'temporal.address');
  await rejected(t, { SVC_TEMPORAL_UI_URL: 'temporal-ui' }, 'temporal.ui_url');
});

test('log.level must be a known level', async (t) => {
  await accepted(t, { SVC_LOG_LEVEL: 'debug' });
  t.regex(await rejected(t, { SVC_LOG_LEVEL: 'verbose' }, 'log.level'), /SVC_LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal/);
});

test('tls needs readable certificate and key files when enabled', async (t) => {
  const dir = await tempDir(t);
  const cert = await writeText(dir, 'cert.pem', '-----BEGIN CERTIFICATE-----\n');
  const key = await writeText(dir, 'key.pem', '-----BEGIN PRIVATE KEY-----\n');
  await accepted(t, { SVC_TLS_ENABLED: 'true', SVC_TLS_CERT_FILE: cert, SVC_TLS_KEY_FILE: key });
  await accepted(t, { SVC_TLS_ENABLED: 'false', SVC_TLS_CERT_FILE: join(dir, 'missing.pem') });

  const none = await check(t, { SVC_TLS_ENABLED: 'true' });
  t.deepEqual(keysOf(none), ['tls.cert_file', 'tls.key_file']);
  const missing = join(dir, 'missing.pem');
  const message = await rejected(t, { SVC_TLS_ENABLED: 'true', SVC_TLS_CERT_FILE: cert, SVC_TLS_KEY_FILE: missing }, 'tls.key_file');
  t.true(message.includes(missing));
});

test('smtp.sender must be an address once smtp.host is set', async (t) => {
  await accepted(t, { SVC_SMTP_HOST: 'smtp.example.com', SVC_SMTP_SENDER: 'svc <noreply@example.com>' });
  t.regex(await rejected(t, { SVC_SMTP_HOST: 'smtp.example.com' }, 'smtp.sender'), /required when smtp.host is set/);
  await rejected(t, { SVC_SMTP_HOST: 'smtp.example.com', SVC_SMTP_SENDER: 'noreply' }, 'smtp.sender');
});

test('proxy_slice_cache.size_mb must be positive', async (t) => {
  await accepted(t, { SVC_PROXY_SLICE_CACHE_ENABLED: 'true', SVC_PROXY_SLICE_CACHE_SIZE_MB: '64' });
  await rejected(t, { SVC_PROXY_SLICE_CACHE_SIZE_MB: '0' }, 'proxy_slice_cache.size_mb');
});

test('a YAML file with every section validates', async (t) => {
  const dir = await tempDir(t);
  const file = await writeText(
    dir,
    'svc.yaml',
    [
      'server: {host: 127.0.0.1, port: 8081, cors_allowed_origins: ["https://watch.example.com"]}',
      'webauthn: {rp_origin: "https://watch.example.com", rp_id: example.com, rp_name: Watch}',
      'management: {endpoint: "unix:///tmp/svc-test.sock"}',
      'smtp: {host: smtp.example.com, sender: noreply@example.com, password: pw}',
      '',
    ].join('\n'),
  );
  const result = await loadWith(dir, {}, { file });
  t.deepEqual(result.issues, []);
  t.is(result.config.webauthn.rp_name, 'Watch');
});
