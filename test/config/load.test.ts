import { hostname } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { isAppError } from '../../errors/app-error.js';
import { loadConfig, readConfig, requireValid } from '../../config/load.js';
import { keysOf, loadWith, messageFor, secretsEnv, tempDir, writeText } from './fixtures.js';

test('defaults apply when nothing is configured, with data_dir made absolute', async (t) => {
  const dir = await tempDir(t);
  const { config, issues, sources } = await readConfig({ cwd: dir, env: {} });
  t.deepEqual(issues, []);
  t.is(config.data_dir, join(dir, '.svc/data'));
  // Unique per process start: containers sharing a hostname all run as pid 1.
  const prefix = `${hostname()}-${process.pid}-`;
  t.true(config.replica_id.startsWith(prefix), config.replica_id);
  t.regex(config.replica_id.slice(prefix.length), /^[0-9a-f]{6}$/);
  t.is((await readConfig({ cwd: dir, env: {} })).config.replica_id, config.replica_id, 'the same id for every load in one process');
  t.is(config.server.port, 8080);
  t.deepEqual(config.server.cors_allowed_origins, []);
  t.is(config.rtmp.enabled, true);
  t.is(config.stun.port, 3478);
  t.is(config.database.url, 'postgres://svc@127.0.0.1:5432/svc');
  t.is(config.management.endpoint, '');
  t.is(config.webauthn.rp_origin, 'http://localhost:8080');
  t.true(Object.values(sources).every((source) => source === 'default'));
});

test('precedence is flag > env > yaml > default, per key', async (t) => {
  const dir = await tempDir(t);
  const file = await writeText(dir, 'svc.yaml', 'server:\n  port: 1001\ngrpc:\n  port: 2001\nrtmp:\n  port: 3001\n');
  const env = { SVC_SERVER_PORT: '1002', SVC_GRPC_PORT: '2002' };
  const { config, issues, sources } = await readConfig({ cwd: dir, file, env, flags: { 'server.port': '1003' } });
  t.deepEqual(issues, []);
  t.is(config.server.port, 1003);
  t.is(sources['server.port'], 'flag');
  t.is(config.grpc.port, 2002);
  t.is(sources['grpc.port'], 'env');
  t.is(config.rtmp.port, 3001);
  t.is(sources['rtmp.port'], 'file');
  t.is(config.stun.port, 3478);
  t.is(sources['stun.port'], 'default');
});

test('YAML values of every type are read from nested sections', async (t) => {
  const dir = await tempDir(t);
  const file = await writeText(
    dir,
    'svc.yaml',
    [
      'data_dir: state',
      'log: {level: debug}',
      'server:',
      '  cors_allowed_origins: ["https://a.example.com", "http://localhost:3000"]',
      'stun:',
      '  enabled: true',
      '  port: "3479"',
      'nats:',
      '  subject_prefix: prod.svc',
      '',
    ].join('\n'),
  );
  const { config, issues } = await readConfig({ cwd: dir, file, env: {} });
  t.deepEqual(issues, []);
  t.is(config.data_dir, join(dir, 'state'));
  t.is(config.log.level, 'debug');
  t.deepEqual(config.server.cors_allowed_origins, ['https://a.example.com', 'http://localhost:3000']);
  t.is(config.stun.enabled, true);
  t.is(config.stun.port, 3479);
  t.is(config.nats.subject_prefix, 'prod.svc');
});

test('the config file can come from SVC_CONFIG', async (t) => {
  const dir = await tempDir(t);
  await writeText(dir, 'from-env.yaml', 'server: {port: 4321}\n');
  const { config, sources } = await readConfig({ cwd: dir, env: { SVC_CONFIG: 'from-env.yaml' } });
  t.is(config.server.port, 4321);
  t.is(sources['server.port'], 'file');
});

test('environment values are coerced by key type', async (t) => {
  const dir = await tempDir(t);
  const { config, issues } = await readConfig({
    cwd: dir,
    env: {
      SVC_SERVER_CORS_ALLOWED_ORIGINS: 'https://a.example.com, https://b.example.com,',
      SVC_RTMP_ENABLED: 'false',
      SVC_STUN_ENABLED: '1',
      SVC_DATABASE_POOL_MAX: '25',
      SVC_LOG_LEVEL: 'WARN',
      SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1:9999',
    },
  });
  t.deepEqual(issues, []);
  t.deepEqual(config.server.cors_allowed_origins, ['https://a.example.com', 'https://b.example.com']);
  t.is(config.rtmp.enabled, false);
  t.is(config.stun.enabled, true);
  t.is(config.database.pool_max, 25);
  t.is(config.log.level, 'warn');
  t.is(config.management.endpoint, 'tcp://127.0.0.1:9999');
});

test('a bad environment value names the key and the variable, and keeps the lower layer', async (t) => {
  const dir = await tempDir(t);
  const file = await writeText(dir, 'svc.yaml', 'server: {port: 7000}\n');
  const result = await loadWith(dir, { SVC_SERVER_PORT: 'abc', SVC_RTMP_ENABLED: 'maybe' }, { file });
  t.deepEqual(keysOf(result), ['server.port', 'rtmp.enabled']);
  t.regex(messageFor(result, 'server.port'), /SVC_SERVER_PORT: must be an integer \(got "abc"\)/);
  t.regex(messageFor(result, 'rtmp.enabled'), /SVC_RTMP_ENABLED/);
  t.is(result.config.server.port, 7000);
  t.is(result.sources['server.port'], 'file');
});

test('an empty environment variable counts as unset', async (t) => {
  const dir = await tempDir(t);
  const file = await writeText(dir, 'svc.yaml', 'server: {port: 7000}\n');
  const { config, issues } = await readConfig({ cwd: dir, file, env: { SVC_SERVER_PORT: '' } });
  t.deepEqual(issues, []);
  t.is(config.server.port, 7000);
});

test('a wrongly typed secret in YAML is reported without echoing it', async (t) => {
  const dir = await tempDir(t);
  const file = await writeText(dir, 'svc.yaml', 'credential_encryption_key: 12345678901234567890\n');
  const { issues } = await readConfig({ cwd: dir, file, env: {} });
  t.is(issues.length, 1);
  t.is(issues[0]!.key, 'credential_encryption_key');
  t.regex(issues[0]!.message, /must be a string/);
  t.false(issues[0]!.message.includes('1234567890'));
});

test('a secret file named in YAML supplies the value, trailing newline trimmed', async (t) => {
  const dir = await tempDir(t);
  const secrets = await secretsEnv();
  await writeText(dir, 'jwt.txt', `${secrets.SVC_JWT_SECRET}\n`);
  const file = await writeText(dir, 'svc.yaml', 'jwt:\n  secret_file: jwt.txt\n');
  const result = await loadConfig({ cwd: dir, file, env: { ...secrets, SVC_JWT_SECRET: '' } });
  t.deepEqual(result.issues, []);
  t.is(result.config.jwt.secret, secrets.SVC_JWT_SECRET);
  t.is(result.sources['jwt.secret'], 'secret_file');
});

test('a database URL may come from a secret file too', async (t) => {
  const dir = await tempDir(t);
  const path = await writeText(dir, 'db-url', 'postgres://svc:s3cret@db.internal:5432/svc\r\n');
  const { config, issues, sources } = await readConfig({ cwd: dir, env: { SVC_DATABASE_URL_FILE: path } });
  t.deepEqual(issues, []);
  t.is(config.database.url, 'postgres://svc:s3cret@db.internal:5432/svc');
  t.is(sources['database.url'], 'secret_file');
});

test('a key and its _file in the same YAML file are an error', async (t) => {
  const dir = await tempDir(t);
  await writeText(dir, 'jwt.txt', 'x'.repeat(40));
  const file = await writeText(dir, 'svc.yaml', 'jwt:\n  secret: inline-value\n  secret_file: jwt.txt\n');
  const result = await loadWith(dir, { SVC_JWT_SECRET: '' }, { file });
  t.deepEqual(keysOf(result), ['jwt.secret']);
  t.regex(messageFor(result, 'jwt.secret'), /jwt\.secret in .*svc\.yaml:2:3 and jwt\.secret_file in .*svc\.yaml:3:3 both set it/);
  t.is(result.config.jwt.secret, '');
});

test('SVC_<KEY> and SVC_<KEY>_FILE together are an error', async (t) => {
  const dir = await tempDir(t);
  const secrets = await secretsEnv();
  const path = await writeText(dir, 'jwt.txt', secrets.SVC_JWT_SECRET);
  const result = await loadConfig({ cwd: dir, env: { ...secrets, SVC_JWT_SECRET_FILE: path } });
  t.deepEqual(keysOf(result), ['jwt.secret']);
  t.regex(messageFor(result, 'jwt.secret'), /SVC_JWT_SECRET and SVC_JWT_SECRET_FILE both set it/);
});

test('an environment _FILE overrides the YAML value', async (t) => {
  const dir = await tempDir(t);
  const secrets = await secretsEnv();
  const path = await writeText(dir, 'key.hex', secrets.SVC_CREDENTIAL_ENCRYPTION_KEY + '\n');
  const file = await writeText(dir, 'svc.yaml', `credential_encryption_key: "${'0'.repeat(64)}"\n`);
  const result = await loadConfig({
    cwd: dir,
    file,
    env: { ...secrets, SVC_CREDENTIAL_ENCRYPTION_KEY: '', SVC_CREDENTIAL_ENCRYPTION_KEY_FILE: path },
  });
  t.deepEqual(result.issues, []);
  t.is(result.config.credential_encryption_key, secrets.SVC_CREDENTIAL_ENCRYPTION_KEY);
  t.is(result.sources.credential_encryption_key, 'secret_file');
});

test('an unreadable secret file names the key and the path', async (t) => {
  const dir = await tempDir(t);
  const missing = join(dir, 'no-such-secret');
  const result = await loadWith(dir, { SVC_JWT_SECRET: '', SVC_JWT_SECRET_FILE: missing });
  t.deepEqual(keysOf(result), ['jwt.secret']);
  const message = messageFor(result, 'jwt.secret');
  t.true(message.includes(missing));
  t.true(message.includes('SVC_JWT_SECRET_FILE'));
  t.regex(message, /ENOENT/);
});

test('_FILE exists only for sensitive keys; SVC_TLS_CERT_FILE is the key tls.cert_file', async (t) => {
  const dir = await tempDir(t);
  const { config, issues } = await readConfig({
    cwd: dir,
    env: { SVC_TLS_CERT_FILE: '/etc/svc/cert.pem', SVC_SERVER_PORT_FILE: '/run/port' },
  });
  t.is(config.tls.cert_file, '/etc/svc/cert.pem');
  t.deepEqual(keysOf({ issues }), ['SVC_SERVER_PORT_FILE']);
});

test('unknown YAML keys are reported with file, line and a suggestion', async (t) => {
  const dir = await tempDir(t);
  const file = await writeText(dir, 'svc.yaml', 'server:\n  prot: 8081\nserverr:\n  port: 1\nwebauthn: 5\n');
  const { issues } = await readConfig({ cwd: dir, file, env: {} });
  t.deepEqual(keysOf({ issues }), ['server.prot', 'serverr', 'webauthn']);
  t.regex(messageFor({ issues }, 'server.prot'), /svc\.yaml:2:3: unknown configuration key \(did you mean server\.port\?\)/);
  t.regex(messageFor({ issues }, 'serverr'), /svc\.yaml:3:1: unknown configuration key/);
  t.regex(messageFor({ issues }, 'webauthn'), /is a section/);
});

test('unknown SVC_ variables are reported; SVC_CONFIG, SVC_DEPLOYMENT_METHOD and SVCTEST_ are not', async (t) => {
  const dir = await tempDir(t);
  await writeText(dir, 'empty.yaml', '');
  const { issues } = await readConfig({
    cwd: dir,
    env: {
      SVC_CONFIG: 'empty.yaml',
      SVC_DEPLOYMENT_METHOD: 'docker',
      SVCTEST_PG_URL: 'postgres://x',
      SVC_JWT_SECERT: 'x',
      SVC_NOT_A_THING: '1',
    },
  });
  t.deepEqual(keysOf({ issues }), ['SVC_JWT_SECERT', 'SVC_NOT_A_THING']);
  t.regex(messageFor({ issues }, 'SVC_JWT_SECERT'), /did you mean SVC_JWT_SECRET\?/);
});

test('a YAML syntax error names the file and line', async (t) => {
  const dir = await tempDir(t);
  const file = await writeText(dir, 'broken.yaml', 'server:\n  port: 80\n  host: [a\njwt: x\n');
  const { issues } = await readConfig({ cwd: dir, file, env: {} });
  t.true(issues.length >= 1);
  t.is(issues[0]!.key, 'config');
  t.regex(issues[0]!.message, /broken\.yaml:4:\d+: /);
});

test('a missing config file and a non-mapping top level are reported', async (t) => {
  const dir = await tempDir(t);
  const missing = await readConfig({ cwd: dir, file: 'nope.yaml', env: {} });
  t.deepEqual(keysOf(missing), ['config']);
  t.regex(missing.issues[0]!.message, /cannot read config file .*nope\.yaml: .*ENOENT/);

  const file = await writeText(dir, 'list.yaml', '- a\n- b\n');
  const list = await readConfig({ cwd: dir, file, env: {} });
  t.deepEqual(keysOf(list), ['config']);
  t.regex(list.issues[0]!.message, /top level must be a mapping/);
});

test('flags accept strings and typed values, skip undefined and report unknown keys', async (t) => {
  const dir = await tempDir(t);
  const { config, issues, sources } = await readConfig({
    cwd: dir,
    env: {},
    flags: { 'server.port': 9001, 'rtmp.enabled': 'false', 'grpc.port': undefined, 'server.prot': '1' },
  });
  t.is(config.server.port, 9001);
  t.is(config.rtmp.enabled, false);
  t.is(sources['grpc.port'], 'default');
  t.deepEqual(keysOf({ issues }), ['server.prot']);
});

test('issues list loading problems first, then validation in key order', async (t) => {
  const dir = await tempDir(t);
  const result = await loadConfig({
    cwd: dir,
    env: {
      SVC_CREDENTIAL_ENCRYPTION_KEY: 'abc',
      SVC_SERVER_PORT: '70000',
      SVC_WEBAUTHN_RP_ID: 'example.com',
      SVC_GRPC_PORT: 'x',
      SVC_BOGUS: '1',
    },
  });
  t.deepEqual(keysOf(result), [
    'SVC_BOGUS',
    'grpc.port',
    'server.port',
    'webauthn.rp_id',
    'security.opaque_server_setup_secret',
    'jwt.secret',
    'credential_encryption_key',
  ]);
});

test('requireValid checks only what the scope needs', async (t) => {
  const dir = await tempDir(t);
  // No secrets at all, but a usable management endpoint and database.
  const clientOnly = await loadConfig({ cwd: dir, env: {} });
  t.is(requireValid(clientOnly, 'client'), clientOnly.config);
  t.is(requireValid(clientOnly, 'database'), clientOnly.config);
  const server = t.throws(() => requireValid(clientOnly, 'server'));
  if (!isAppError(server)) return t.fail('requireValid must throw an AppError');
  t.is(server.code, 'invalid_argument');
  t.deepEqual(
    server.issues.map((i) => i.key),
    ['security.opaque_server_setup_secret', 'jwt.secret', 'credential_encryption_key'],
  );

  const badManagement = await loadConfig({ cwd: dir, env: { SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1:9000' } });
  const client = t.throws(() => requireValid(badManagement, 'client'));
  t.true(isAppError(client));
  t.regex(client.message, /^management\.token: /);

  const badDatabase = await loadConfig({ cwd: dir, env: { SVC_DATABASE_URL: 'mysql://db/svc' } });
  t.notThrows(() => requireValid(badDatabase, 'client'));
  t.throws(() => requireValid(badDatabase, 'database'), { message: /^database\.url: / });

  const unknown = await loadConfig({ cwd: dir, env: { SVC_DATABSE_URL: 'postgres://db/svc' } });
  t.throws(() => requireValid(unknown, 'client'), { message: /^SVC_DATABSE_URL: / });
  t.throws(() => requireValid(unknown, 'database'), { message: /^SVC_DATABSE_URL: / });
});

test('a fully configured server passes every scope', async (t) => {
  const dir = await tempDir(t);
  const result = await loadWith(dir);
  t.deepEqual(result.issues, []);
  t.notThrows(() => requireValid(result));
});
