import test from 'ava';
import { coerceValue } from '../../config/coerce.js';
import { envName, findKey, STARTUP_KEYS } from '../../config/keys.js';

test('every key has a distinct environment name and a non-empty description', (t) => {
  const names = STARTUP_KEYS.map((k) => envName(k.key));
  t.is(new Set(names).size, names.length);
  t.is(envName('server.cors_allowed_origins'), 'SVC_SERVER_CORS_ALLOWED_ORIGINS');
  t.is(envName('security.opaque_server_setup_secret'), 'SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET');
  for (const key of STARTUP_KEYS) t.true(key.description.trim().length > 0, key.key);
});

test('every default has its key type', (t) => {
  for (const key of STARTUP_KEYS) {
    const value = key.defaultValue();
    const coerced = coerceValue(key, value);
    t.true(coerced.ok, key.key);
    if (coerced.ok) t.deepEqual(coerced.value, value, key.key);
  }
});

test('secrets are marked sensitive, ordinary keys are not', (t) => {
  const sensitive = STARTUP_KEYS.filter((k) => k.sensitivity === 'value').map((k) => k.key);
  t.deepEqual(sensitive.sort(), [
    'credential_encryption_key',
    'credential_encryption_previous_keys',
    'jwt.previous_secrets',
    'jwt.secret',
    'management.token',
    'security.opaque_server_setup_secret',
    'sfu.api_secret',
    'smtp.password',
    'turn.shared_secret',
  ]);
  t.is(findKey('database.url')?.sensitivity, 'url_credentials');
  t.is(findKey('server.port')?.sensitivity, 'none');
});

test('list defaults are fresh copies', (t) => {
  const key = findKey('server.cors_allowed_origins')!;
  const first = key.defaultValue() as string[];
  first.push('https://mutated.example.com');
  t.deepEqual(key.defaultValue(), []);
});
