import test from 'ava';
import { loadConfig } from '../../config/load.js';
import { generateSecrets } from '../../config/secrets.js';
import { tempDir } from './fixtures.js';

test('generated secrets have the documented formats and differ on every call', async (t) => {
  const [a, b] = await Promise.all([generateSecrets(), generateSecrets()]);
  t.regex(a['jwt.secret'], /^[A-Za-z0-9_-]{64}$/);
  t.regex(a.credential_encryption_key, /^[0-9a-f]{64}$/);
  t.regex(a['management.token'], /^[A-Za-z0-9_-]{43}$/);
  t.true(a['security.opaque_server_setup_secret'].length > 100);
  for (const key of Object.keys(a) as Array<keyof typeof a>) t.not(a[key], b[key], key);
});

test('generated secrets pass validation, the token with a TCP management endpoint', async (t) => {
  const secrets = await generateSecrets();
  const result = await loadConfig({
    cwd: await tempDir(t),
    env: {
      SVC_JWT_SECRET: secrets['jwt.secret'],
      SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET: secrets['security.opaque_server_setup_secret'],
      SVC_CREDENTIAL_ENCRYPTION_KEY: secrets.credential_encryption_key,
      SVC_MANAGEMENT_ENDPOINT: 'tcp://127.0.0.1:9400',
      SVC_MANAGEMENT_TOKEN: secrets['management.token'],
    },
  });
  t.deepEqual(result.issues, []);
});
