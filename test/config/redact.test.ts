import test from 'ava';
import { readConfig } from '../../config/load.js';
import { REDACTED, redactConfig, redactUrl } from '../../config/redact.js';
import { generateSecrets } from '../../config/secrets.js';
import { tempDir } from './fixtures.js';

test('redactConfig hides every secret and URL password, and leaves the original intact', async (t) => {
  const secrets = await generateSecrets();
  const { config } = await readConfig({
    cwd: await tempDir(t),
    env: {
      SVC_JWT_SECRET: secrets['jwt.secret'],
      SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET: secrets['security.opaque_server_setup_secret'],
      SVC_CREDENTIAL_ENCRYPTION_KEY: secrets.credential_encryption_key,
      SVC_MANAGEMENT_TOKEN: secrets['management.token'],
      SVC_SMTP_PASSWORD: 'smtp-pw-1',
      SVC_DATABASE_URL: 'postgres://svc:db-pw-2@db.internal:5432/svc?sslmode=require&sslpassword=db-pw-3',
      SVC_REDIS_URL: 'redis://:redis-pw-4@cache:6379/0',
      SVC_NATS_URL: 'nats://a:nats-pw-5@n1:4222,nats://b:nats,pw-6@n2:4222',
    },
  });
  const redacted = redactConfig(config);
  const text = JSON.stringify(redacted);
  for (const leaked of [...Object.values<string>({ ...secrets }), 'smtp-pw-1', 'db-pw-2', 'db-pw-3', 'redis-pw-4', 'nats-pw-5', 'pw-6']) {
    t.false(text.includes(leaked), `leaked ${leaked}`);
  }
  t.is(redacted.jwt.secret, REDACTED);
  t.is(redacted.security.opaque_server_setup_secret, REDACTED);
  t.is(redacted.credential_encryption_key, REDACTED);
  t.is(redacted.management.token, REDACTED);
  t.is(redacted.smtp.password, REDACTED);
  t.is(redacted.database.url, `postgres://svc:${REDACTED}@db.internal:5432/svc?sslmode=require&sslpassword=${REDACTED}`);
  t.is(redacted.redis.url, `redis://:${REDACTED}@cache:6379/0`);
  t.is(redacted.nats.url, `nats://a:${REDACTED}@n1:4222,nats://b:${REDACTED}@n2:4222`);
  // Non-secrets are untouched, and so is the input.
  t.is(redacted.server.port, config.server.port);
  t.is(config.jwt.secret, secrets['jwt.secret']);
});

test('empty secrets and URLs without passwords are shown as they are', async (t) => {
  const { config } = await readConfig({ cwd: await tempDir(t), env: {} });
  const redacted = redactConfig(config);
  t.is(redacted.jwt.secret, '');
  t.is(redacted.management.token, '');
  t.is(redacted.database.url, 'postgres://svc@127.0.0.1:5432/svc');
});

test('an unparseable URL loses everything before its last @', (t) => {
  // The port is not a number, so URL parsing fails and the fallback applies.
  t.is(redactUrl('postgres://svc:p@ss@db:port/svc'), `postgres://${REDACTED}@db:port/svc`);
  t.is(redactUrl('postgres://svc:p@ss word@db/svc'), `postgres://svc:${REDACTED}@db/svc`);
});

test('former secrets kept for a rotation are redacted entry by entry', async (t) => {
  const { config } = await readConfig({
    cwd: await tempDir(t),
    env: {
      SVC_JWT_PREVIOUS_SECRETS: 'an-old-secret-value-that-must-not-print-0123456789',
      SVC_CREDENTIAL_ENCRYPTION_PREVIOUS_KEYS: 'ab'.repeat(32),
    },
  });
  t.deepEqual(config.jwt.previous_secrets, ['an-old-secret-value-that-must-not-print-0123456789']);
  const redacted = redactConfig(config);
  t.deepEqual(redacted.jwt.previous_secrets, [REDACTED]);
  t.deepEqual(redacted.credential_encryption_previous_keys, [REDACTED]);
  t.false(JSON.stringify(redacted).includes('an-old-secret'));
});
