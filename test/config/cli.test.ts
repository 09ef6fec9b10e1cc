import test from 'ava';
import { parse } from 'yaml';
import { runSvc } from '../harness/svc-process.js';
import { secretsEnv, tempDir, writeText } from './fixtures.js';

/** `KEY=value` lines of an env file, comments skipped. */
function parseEnvFile(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const eq = line.indexOf('=');
      return [line.slice(0, eq), line.slice(eq + 1)] as const;
    });
  return Object.fromEntries(entries);
}

test('secrets generate prints four env lines that config validate accepts', async (t) => {
  const dir = await tempDir(t);
  const generated = await runSvc(['secrets', 'generate'], {});
  t.is(generated.code, 0, generated.stderr);
  const env = parseEnvFile(generated.stdout);
  t.deepEqual(Object.keys(env), [
    'SVC_JWT_SECRET',
    'SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET',
    'SVC_CREDENTIAL_ENCRYPTION_KEY',
    'SVC_MANAGEMENT_TOKEN',
  ]);

  // The token belongs to a TCP endpoint; with the default Unix socket it must be left out.
  const { SVC_MANAGEMENT_TOKEN: token, ...serverSecrets } = env;
  const unix = await runSvc(['config', 'validate'], { ...serverSecrets, SVC_DATA_DIR: dir });
  t.is(unix.code, 0, unix.stderr);
  t.is(unix.stdout, 'configuration is valid\n');

  const tcp = await runSvc(['config', 'validate'], {
    ...env,
    SVC_DATA_DIR: dir,
    SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1:9400',
  });
  t.is(tcp.code, 0, tcp.stderr);
  t.truthy(token);
});

test('secrets generate --output yaml is a config file config validate accepts', async (t) => {
  const dir = await tempDir(t);
  const generated = await runSvc(['secrets', 'generate', '--output', 'yaml'], {});
  t.is(generated.code, 0, generated.stderr);
  const doc = parse(generated.stdout) as { jwt: { secret: string }; management: { token: string } };
  t.regex(doc.jwt.secret, /^[A-Za-z0-9_-]{64}$/);
  const file = await writeText(dir, 'secrets.yaml', generated.stdout);
  const result = await runSvc(['config', 'validate', '--config', file], {
    SVC_DATA_DIR: dir,
    SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1:9400',
  });
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, 'configuration is valid\n');
});

test('config validate lists every issue, first first, and exits 1', async (t) => {
  const dir = await tempDir(t);
  const secrets = await secretsEnv();
  const result = await runSvc(['config', 'validate'], {
    ...secrets,
    SVC_DATA_DIR: dir,
    SVC_JWT_SECRET: 'change-me',
    SVC_CREDENTIAL_ENCRYPTION_KEY: 'abc123',
    SVC_SERVER_CORS_ALLOWED_ORIGINS: 'https://app.example.com/',
  });
  t.is(result.code, 1);
  t.is(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  t.deepEqual(
    lines.map((line) => line.slice(0, line.indexOf(':'))),
    ['server.cors_allowed_origins', 'jwt.secret', 'credential_encryption_key'],
  );
  t.regex(lines[1]!, /^jwt\.secret: looks like a placeholder/);
  t.false(result.stderr.includes(secrets.SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET));
});

test('config show prints the effective configuration, redacted unless asked', async (t) => {
  const dir = await tempDir(t);
  const secrets = await secretsEnv();
  const file = await writeText(dir, 'svc.yaml', 'server:\n  port: 8181\n');
  const env = { ...secrets, SVC_DATA_DIR: dir, SVC_DATABASE_URL: 'postgres://svc:db-password@db/svc' };

  const yamlOut = await runSvc(['config', 'show', '--config', file], env);
  t.is(yamlOut.code, 0, yamlOut.stderr);
  t.is(yamlOut.stderr, '');
  const shown = parse(yamlOut.stdout) as { server: { port: number }; jwt: { secret: string }; database: { url: string }; data_dir: string };
  t.is(shown.server.port, 8181);
  t.is(shown.data_dir, dir);
  t.is(shown.jwt.secret, '[redacted]');
  t.is(shown.database.url, 'postgres://svc:[redacted]@db/svc');
  for (const secret of [...Object.values(secrets), 'db-password']) t.false(yamlOut.stdout.includes(secret));

  const jsonOut = await runSvc(['config', 'show', '--config', file, '--output', 'json', '--show-secrets'], env);
  t.is(jsonOut.code, 0, jsonOut.stderr);
  const json = JSON.parse(jsonOut.stdout) as { jwt: { secret: string }; database: { url: string } };
  t.is(json.jwt.secret, secrets.SVC_JWT_SECRET);
  t.is(json.database.url, 'postgres://svc:db-password@db/svc');
});

test('config show prints an invalid configuration with a note, but fails when it cannot load', async (t) => {
  const dir = await tempDir(t);
  const invalid = await runSvc(['config', 'show'], { SVC_DATA_DIR: dir });
  t.is(invalid.code, 0);
  t.regex(invalid.stdout, /^jwt:\n {2}secret: ""$/m);
  t.regex(invalid.stderr, /^note: this configuration has 3 validation issues; run `svc config validate`/);

  const unknown = await runSvc(['config', 'show'], { SVC_DATA_DIR: dir, SVC_SERVER_PROT: '1' });
  t.is(unknown.code, 1);
  t.is(unknown.stdout, '');
  t.regex(unknown.stderr, /^error\[invalid_argument\]: SVC_SERVER_PROT: unknown environment variable/);

  const badFormat = await runSvc(['config', 'show', '--output', 'toml'], { SVC_DATA_DIR: dir });
  t.is(badFormat.code, 1);
  t.regex(badFormat.stderr, /--output: must be one of yaml, json/);
});
