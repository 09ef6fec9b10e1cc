/**
 * Two-factor authentication over HTTP: TOTP enrolment, the second sign-in step after a
 * password login, single use of TOTP and recovery codes, disabling, storage at rest and rate
 * limits. Codes are computed with otplib for explicit timestamps (this step, the next one), so
 * no test waits for the clock.
 */
import test from 'ava';
import { generate } from 'otplib';
import { bearer, call, native, uniqueIp, startAccountsBed, uname, type AccountsBed, type Answer } from './fixtures.js';

let bed: AccountsBed;
test.before(async () => {
  bed = await startAccountsBed('accounts-two-factor');
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: false });
});
test.after.always(async () => {
  await bed?.close();
});

const PASSWORD = 'correct horse battery';
const PERIOD_SECONDS = 30;

/** Each enrolled user talks from an address of its own, so per-address limits stay out of the way. */
const from = (ip: string): Record<string, string> => ({ ...native, 'x-forwarded-for': ip });

/** The code an authenticator shows `steps` time steps after `base` (ms). */
const codeAt = (secret: string, steps: number, base: number): Promise<string> =>
  generate({ secret, epoch: Math.floor(base / 1000) + steps * PERIOD_SECONDS });

/** Six digits that are not the code of any step near `base`, so "wrong" cannot be right by chance. */
async function wrongCode(secret: string, base: number): Promise<string> {
  const near = new Set(await Promise.all([-2, -1, 0, 1, 2, 3].map((steps) => codeAt(secret, steps, base))));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}

interface Enrolled {
  name: string;
  userId: string;
  ip: string;
  token: string;
  secret: string;
  recoveryCodes: string[];
  /** When enrolment ran: step 0 (spent by enable) is the step of this instant. */
  base: number;
}

async function signUp(): Promise<{ name: string; userId: string; ip: string; token: string }> {
  const name = uname('tf');
  const ip = uniqueIp();
  const created = await call(`${bed.url}/api/auth/password/register`, 'POST', { username: name, password: PASSWORD }, from(ip));
  if (created.status !== 201) throw new Error(`signup answered ${created.status}: ${JSON.stringify(created.body)}`);
  return { name, ip, token: String(created.body.accessToken), userId: (created.body.user as { id: string }).id };
}

const post = (path: string, body: unknown, token: string | undefined, ip: string): Promise<Answer> =>
  call(`${bed.url}${path}`, 'POST', body, { ...from(ip), ...(token ? bearer(token) : {}) });

/** A user with 2FA on, enabled with the code of the current step. */
async function enrolled(): Promise<Enrolled> {
  const user = await signUp();
  const setup = await post('/api/auth/2fa/totp/setup', undefined, user.token, user.ip);
  if (setup.status !== 200) throw new Error(`setup answered ${setup.status}: ${JSON.stringify(setup.body)}`);
  const secret = String(setup.body.secret);
  const base = Date.now();
  const enabled = await post('/api/auth/2fa/totp/enable', { code: await codeAt(secret, 0, base) }, user.token, user.ip);
  if (enabled.status !== 200) throw new Error(`enable answered ${enabled.status}: ${JSON.stringify(enabled.body)}`);
  return { ...user, secret, base, recoveryCodes: enabled.body.recoveryCodes as string[] };
}

const login = (name: string, ip: string, headers: Record<string, string> = from(ip)): Promise<Answer> =>
  call(`${bed.url}/api/auth/password/login`, 'POST', { username: name, password: PASSWORD }, headers);

async function challenge(user: { name: string; ip: string }): Promise<string> {
  const answer = await login(user.name, user.ip);
  if (answer.body.status !== 'second_factor_required') throw new Error(`login answered ${JSON.stringify(answer.body)}`);
  return String(answer.body.challengeToken);
}

const verify = (challengeToken: string, code: string, ip: string): Promise<Answer> => post('/api/auth/2fa/verify', { challengeToken, code }, undefined, ip);

test('setup and enable with a code of the secret; password login then asks for the second factor and hands out no tokens', async (t) => {
  const user = await signUp();
  t.is((await post('/api/auth/2fa/totp/setup', undefined, undefined, user.ip)).status, 401);

  const setup = await post('/api/auth/2fa/totp/setup', undefined, user.token, user.ip);
  t.is(setup.status, 200);
  const secret = String(setup.body.secret);
  t.regex(secret, /^[A-Z2-7]{32,}$/);
  const url = new URL(String(setup.body.otpauthUrl));
  t.is(url.protocol, 'otpauth:');
  t.is(url.searchParams.get('secret'), secret);
  t.is(url.searchParams.get('issuer'), 'svc');
  t.true(decodeURIComponent(url.pathname).endsWith(user.name));

  // Set up is not enabled: sign-in still needs one factor.
  t.is((await login(user.name, user.ip)).body.status, 'signed_in');

  const enabled = await post('/api/auth/2fa/totp/enable', { code: await codeAt(secret, 0, Date.now()) }, user.token, user.ip);
  t.is(enabled.status, 200);
  const codes = enabled.body.recoveryCodes as string[];
  t.is(codes.length, 10);
  t.is(new Set(codes).size, 10);
  for (const code of codes) t.regex(code, /^[a-z2-7]{5}-[a-z2-7]{5}$/);

  // As a browser: no refresh cookie either.
  const asked = await login(user.name, user.ip, { 'x-forwarded-for': user.ip });
  t.is(asked.status, 200);
  t.deepEqual(Object.keys(asked.body).sort(), ['challengeToken', 'methods', 'status']);
  t.is(asked.body.status, 'second_factor_required');
  t.deepEqual(asked.body.methods, ['totp', 'recovery_code']);
  t.is(asked.headers.get('set-cookie'), null);
});

test('a correct code opens a session; the same code is refused afterwards, even on a new challenge', async (t) => {
  const user = await enrolled();
  const next = await codeAt(user.secret, 1, user.base);
  const first = await verify(await challenge(user), next, user.ip);
  t.is(first.status, 200);
  t.is(first.body.status, 'signed_in');
  t.is((first.body.user as { id: string }).id, user.userId);
  t.truthy(first.body.refreshToken);
  const me = await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(first.body.accessToken)));
  t.is((me.body.user as { id: string }).id, user.userId);
  const sessions = await call<{ sessions: Array<{ id: string; method: string }> }>(`${bed.url}/api/auth/sessions`, 'GET', undefined, bearer(String(first.body.accessToken)));
  t.is(sessions.body.sessions.find((session) => session.id === first.body.sessionId)?.method, 'password+2fa');

  const second = await challenge(user);
  const replay = await verify(second, next, user.ip);
  t.is(replay.status, 401);
  t.is(replay.body.code, 'unauthenticated');
  t.is(replay.body.accessToken, undefined);
  // An older step than the last accepted one is a replay too (step 0 was spent by enable anyway).
  t.is((await verify(second, await codeAt(user.secret, 0, user.base), user.ip)).status, 401);
  // The challenge itself is still good: only the code was refused.
  t.is((await verify(second, user.recoveryCodes[0]!, user.ip)).status, 200);
});

test('two concurrent uses of one code: exactly one signs in', async (t) => {
  const user = await enrolled();
  const [a, b] = await Promise.all([challenge(user), challenge(user)]);
  const next = await codeAt(user.secret, 1, user.base);
  const answers = await Promise.all([verify(a, next, user.ip), verify(b, next, user.ip)]);
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 401]);
});

test('a wrong code and an unknown challenge are refused; a spent challenge does not open a second session', async (t) => {
  const user = await enrolled();
  const token = await challenge(user);
  const wrong = await verify(token, await wrongCode(user.secret, user.base), user.ip);
  t.is(wrong.status, 401);
  t.is(wrong.body.code, 'unauthenticated');
  t.is(wrong.body.accessToken, undefined);
  t.is((await verify('not-a-challenge', await codeAt(user.secret, 1, user.base), user.ip)).status, 401);

  t.is((await verify(token, await codeAt(user.secret, 1, user.base), user.ip)).status, 200);
  const again = await verify(token, user.recoveryCodes[0]!, user.ip);
  t.is(again.status, 401);
  t.regex(String(again.body.message), /challenge/);
});

test('a recovery code works once and not twice', async (t) => {
  const user = await enrolled();
  // Typed in capitals and without the dash: still the code.
  const typed = user.recoveryCodes[0]!.replace('-', '').toUpperCase();
  t.is((await verify(await challenge(user), typed, user.ip)).status, 200);
  const reused = await verify(await challenge(user), user.recoveryCodes[0]!, user.ip);
  t.is(reused.status, 401);
  t.is(reused.body.code, 'unauthenticated');
  t.is((await verify(await challenge(user), user.recoveryCodes[1]!, user.ip)).status, 200);
  const { rows } = await bed.pool.query<{ used: string }>('SELECT count(*) AS used FROM recovery_codes WHERE user_id = $1 AND used_at IS NOT NULL', [user.userId]);
  t.is(Number(rows[0]!.used), 2);
});

test('disable needs a valid code; afterwards sign-in is one step again', async (t) => {
  const user = await enrolled();
  const wrong = await post('/api/auth/2fa/disable', { code: await wrongCode(user.secret, user.base) }, user.token, user.ip);
  t.is(wrong.status, 400);
  t.is(wrong.body.code, 'invalid_argument');
  t.deepEqual(wrong.body.issues, [{ key: 'code', message: 'is wrong or was already used' }]);
  t.is((await login(user.name, user.ip)).body.status, 'second_factor_required');

  t.is((await post('/api/auth/2fa/disable', { code: await codeAt(user.secret, 1, user.base) }, user.token, user.ip)).status, 204);
  t.is((await login(user.name, user.ip)).body.status, 'signed_in');
  const left = await bed.pool.query(
    'SELECT 1 FROM totp_credentials WHERE user_id = $1 UNION ALL SELECT 1 FROM recovery_codes WHERE user_id = $1',
    [user.userId],
  );
  t.is(left.rowCount, 0);
  t.is((await post('/api/auth/2fa/disable', { code: user.recoveryCodes[0]! }, user.token, user.ip)).body.code, 'conflict');
});

test('regenerated recovery codes replace the old ones; disable accepts a recovery code', async (t) => {
  const user = await enrolled();
  const regenerated = await post('/api/auth/2fa/recovery-codes', { code: user.recoveryCodes[0]! }, user.token, user.ip);
  t.is(regenerated.status, 200);
  const fresh = regenerated.body.recoveryCodes as string[];
  t.is(fresh.length, 10);
  t.false(fresh.some((code) => user.recoveryCodes.includes(code)));

  const token = await challenge(user);
  t.is((await verify(token, user.recoveryCodes[1]!, user.ip)).status, 401);
  t.is((await verify(token, fresh[0]!, user.ip)).status, 200);
  t.is((await post('/api/auth/2fa/disable', { code: fresh[1]! }, user.token, user.ip)).status, 204);
});

test('a test reads the raw rows and finds no plaintext: the secret is sealed, recovery codes are hashed', async (t) => {
  const user = await enrolled();
  const { rows } = await bed.pool.query<{ secret: string }>('SELECT * FROM totp_credentials WHERE user_id = $1', [user.userId]);
  const raw = JSON.stringify(rows);
  t.is(rows.length, 1);
  t.false(raw.includes(user.secret));
  t.false(raw.toLowerCase().includes(user.secret.toLowerCase()));
  // It is the secret, sealed for this user's row and no other.
  t.is(bed.accounts.box.openText(rows[0]!.secret, `totp:${user.userId}`), user.secret);
  t.throws(() => bed.accounts.box.openText(rows[0]!.secret, 'totp:someone-else'));

  const codes = await bed.pool.query<{ code_hash: string }>('SELECT * FROM recovery_codes WHERE user_id = $1', [user.userId]);
  t.is(codes.rowCount, 10);
  const rawCodes = JSON.stringify(codes.rows);
  for (const code of user.recoveryCodes) {
    t.false(rawCodes.includes(code));
    t.false(rawCodes.includes(code.replace('-', '')));
  }
  for (const row of codes.rows) t.regex(row.code_hash, /^[0-9a-f]{64}$/);
});

test('enable with a wrong code fails and leaves 2FA off', async (t) => {
  const user = await signUp();
  const setup = await post('/api/auth/2fa/totp/setup', undefined, user.token, user.ip);
  const secret = String(setup.body.secret);
  const base = Date.now();
  const wrong = await post('/api/auth/2fa/totp/enable', { code: await wrongCode(secret, base) }, user.token, user.ip);
  t.is(wrong.status, 400);
  t.deepEqual(wrong.body.issues, [{ key: 'code', message: 'is wrong or was already used' }]);
  const { rows } = await bed.pool.query('SELECT enabled_at FROM totp_credentials WHERE user_id = $1', [user.userId]);
  t.deepEqual(rows, [{ enabled_at: null }]);
  t.is((await bed.pool.query('SELECT 1 FROM recovery_codes WHERE user_id = $1', [user.userId])).rowCount, 0);
  t.is((await login(user.name, user.ip)).body.status, 'signed_in');
  // The right code still enables it: the refusal was about the code.
  t.is((await post('/api/auth/2fa/totp/enable', { code: await codeAt(secret, 0, base) }, user.token, user.ip)).status, 200);
});

test('setup again before enabling replaces the secret; setup or enable once enabled is a conflict', async (t) => {
  const user = await signUp();
  const first = String((await post('/api/auth/2fa/totp/setup', undefined, user.token, user.ip)).body.secret);
  const second = String((await post('/api/auth/2fa/totp/setup', undefined, user.token, user.ip)).body.secret);
  t.not(first, second);
  const base = Date.now();
  t.is((await post('/api/auth/2fa/totp/enable', { code: await codeAt(first, 0, base) }, user.token, user.ip)).status, 400);
  t.is((await post('/api/auth/2fa/totp/enable', { code: await codeAt(second, 0, base) }, user.token, user.ip)).status, 200);

  const again = await post('/api/auth/2fa/totp/setup', undefined, user.token, user.ip);
  t.is(again.status, 409);
  t.is(again.body.code, 'conflict');
  t.is((await post('/api/auth/2fa/totp/enable', { code: await codeAt(second, 1, base) }, user.token, user.ip)).status, 409);
  // The enabled secret was not replaced by the refused setup.
  t.is((await verify(await challenge(user), await codeAt(second, 1, base), user.ip)).status, 200);
});

test('repeated wrong codes for one account are rate limited with Retry-After, from any address', async (t) => {
  const user = await enrolled();
  const token = await challenge(user);
  const wrong = await wrongCode(user.secret, user.base);
  let answer = await verify(token, wrong, uniqueIp());
  let refused = 0;
  while (answer.status === 401 && refused < 20) {
    refused++;
    answer = await verify(token, wrong, uniqueIp());
  }
  t.is(answer.status, 429);
  t.is(answer.body.code, 'rate_limited');
  t.true(Number(answer.headers.get('retry-after')) > 0);
  // codeFailuresPerAccount allows 5 failures; the block comes right after, not before.
  t.true(refused >= 5 && refused <= 6, `${refused} wrong codes were answered before the limit`);
  // Now even the right code waits, on this challenge or a new one.
  const right = await codeAt(user.secret, 1, user.base);
  t.is((await verify(token, right, uniqueIp())).status, 429);
  t.is((await verify(await challenge(user), right, uniqueIp())).status, 429);
});

test('concurrent wrong codes for one account: at most the budget of 5 is judged, the rest rate_limited', async (t) => {
  const user = await enrolled();
  const token = await challenge(user);
  const wrong = await wrongCode(user.secret, user.base);
  const answers = await Promise.all(Array.from({ length: 20 }, () => verify(token, wrong, uniqueIp())));
  const judged = answers.filter((answer) => answer.status === 401).length;
  t.true(judged <= 5, `${judged} wrong codes were judged against a budget of 5`);
  t.is(answers.filter((answer) => answer.status === 429).length, 20 - judged);
});

test('codes tried from one address are limited across challenges', async (t) => {
  const ip = uniqueIp();
  let answer = await verify('no-such-challenge', '123456', ip);
  let tries = 1;
  while (answer.status === 401 && tries < 40) {
    tries++;
    answer = await verify('no-such-challenge', '123456', ip);
  }
  t.is(answer.status, 429);
  t.true(Number(answer.headers.get('retry-after')) > 0);
  t.is(tries, 31, 'codesPerIp allows 30 a minute');
});

test('the OpenAPI document lists the two-factor endpoints', async (t) => {
  const document = await call<{ paths: Record<string, unknown> }>(`${bed.url}/api/openapi.json`, 'GET');
  for (const path of ['/api/auth/2fa/totp/setup', '/api/auth/2fa/totp/enable', '/api/auth/2fa/disable', '/api/auth/2fa/verify', '/api/auth/2fa/recovery-codes']) {
    t.truthy(document.body.paths[path], path);
  }
});

test('TOTP secrets and recovery codes are not stored in plaintext', async (t) => {
  const user = await enrolled();
  const { rows: totp } = await bed.pool.query<{ secret: string }>('SELECT secret FROM totp_credentials WHERE user_id = $1', [user.userId]);
  t.is(totp.length, 1);
  t.false(totp[0]!.secret.includes(user.secret));
  t.regex(totp[0]!.secret, /^v1\./);
  const { rows: codes } = await bed.pool.query<{ code_hash: string }>('SELECT code_hash FROM recovery_codes WHERE user_id = $1', [user.userId]);
  t.is(codes.length, user.recoveryCodes.length);
  const stored = JSON.stringify(codes);
  for (const code of user.recoveryCodes) t.false(stored.includes(code));
});
