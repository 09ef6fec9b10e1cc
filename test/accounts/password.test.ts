import test from 'ava';
import { bearer, call, native, uniqueIp, startAccountsBed, uname, type AccountsBed } from './fixtures.js';

let bed: AccountsBed;
test.before(async () => {
  bed = await startAccountsBed('accounts-password');
});
test.after.always(async () => {
  await bed?.close();
});

const register = (username: string, password = 'correct horse battery', extra: Record<string, unknown> = {}) =>
  call(`${bed.url}/api/auth/password/register`, 'POST', { username, password, ...extra }, { ...native, 'x-forwarded-for': uniqueIp() });
const login = (username: string, password = 'correct horse battery', headers: Record<string, string> = native) =>
  call(`${bed.url}/api/auth/password/login`, 'POST', { username, password }, headers);

test.serial('password signup is off by default and says which setting turns it on', async (t) => {
  const answer = await register(uname());
  t.is(answer.status, 403);
  t.is(answer.body.code, 'signup_disabled');
  t.regex(String(answer.body.message), /user\.enablePasswordSignup/);
  t.truthy(answer.body.requestId);
});

test.serial('with signup on, register creates the account and signs it in; login works', async (t) => {
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: false });
  const name = uname('Alice');
  const created = await register(name);
  t.is(created.status, 201);
  t.is(created.body.status, 'signed_in');
  t.is((created.body.user as { username: string }).username, name);
  t.truthy(created.body.refreshToken);

  const me = await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(created.body.accessToken)));
  t.is(me.status, 200);
  t.is((me.body.user as { username: string }).username, name);

  // Case-insensitive: the account is found whatever the case typed.
  const signedIn = await login(name.toUpperCase());
  t.is(signedIn.status, 200);
  t.is(signedIn.body.status, 'signed_in');
});

test.serial('usernames are unique case-insensitively and after NFKC', async (t) => {
  const name = uname('bob');
  t.is((await register(name)).status, 201);
  const again = await register(name.toUpperCase());
  t.is(again.status, 409);
  t.is(again.body.code, 'conflict');
  // Full-width letters are the same name after NFKC.
  const fullWidth = [...name].map((ch) => (/[a-z]/.test(ch) ? String.fromCharCode(ch.charCodeAt(0) - 0x61 + 0xff41) : ch)).join('');
  t.is((await register(fullWidth)).status, 409);
});

test.serial('an unknown user and a wrong password get the same answer', async (t) => {
  const name = uname();
  await register(name);
  const wrong = await login(name, 'not the password');
  const unknown = await login(uname('ghost'), 'not the password');
  t.is(wrong.status, 401);
  t.is(unknown.status, 401);
  t.deepEqual({ ...wrong.body, requestId: '' }, { ...unknown.body, requestId: '' });
});

test.serial('bad input is named field by field and nothing is written', async (t) => {
  const name = uname();
  const unknownField = await register(name, 'correct horse battery', { admin: true });
  t.is(unknownField.status, 400);
  t.deepEqual(unknownField.body.issues, [{ key: 'admin', message: 'is not a known field' }]);
  const shortPassword = await register(name, 'short');
  t.is(shortPassword.status, 400);
  t.is((shortPassword.body.issues as Array<{ key: string }>)[0]?.key, 'password');
  const badName = await register('a b', 'correct horse battery');
  t.is((badName.body.issues as Array<{ key: string }>)[0]?.key, 'username');
  const { rowCount } = await bed.pool.query('SELECT 1 FROM users WHERE username_key = lower($1)', [name]);
  t.is(rowCount, 0);
});

test.serial('a body over the limit is refused with payload_too_large', async (t) => {
  const answer = await register(uname(), 'x'.repeat(70_000));
  t.is(answer.status, 413);
  t.is(answer.body.code, 'payload_too_large');
});

test.serial('signup under review answers 202 and sign-in says the review is pending', async (t) => {
  await bed.set('user', { passwordSignupNeedReview: true });
  try {
    const name = uname('carol');
    const pending = await register(name);
    t.is(pending.status, 202);
    t.is(pending.body.status, 'pending_review');
    t.is(pending.body.reviewId, `registration-review:password:${name.toLowerCase()}`);
    t.is(pending.headers.get('content-type')?.split(';')[0], 'application/json');
    t.is(bed.reviews.started.at(-1)?.reviewId, String(pending.body.reviewId));
    // What the review holds (the Argon2id hash, the names) is sealed in the row and in what the workflow gets.
    const { rows } = await bed.pool.query<{ payload: string }>('SELECT payload FROM registration_reviews WHERE id = $1', [pending.body.reviewId]);
    for (const sealed of [rows[0]!.payload, bed.reviews.started.at(-1)!.sealedPayload]) {
      t.regex(sealed, /^v1\./);
      t.false(sealed.includes('$argon2id$'));
      t.false(sealed.includes(name));
    }
    // A retried signup is the same request.
    t.is((await register(name)).body.reviewId, pending.body.reviewId);

    const early = await login(name);
    t.is(early.status, 403);
    t.is(early.body.code, 'review_pending');
    // Without the password the pending review is not revealed.
    const guess = await login(name, 'wrong password here');
    t.is(guess.status, 401);

    await bed.accounts.registration.reject({ reviewId: String(pending.body.reviewId), reviewer: 'rita', reason: 'spam-like name' });
    const rejected = await login(name);
    t.is(rejected.status, 403);
    t.is(rejected.body.code, 'review_rejected');
    t.regex(String(rejected.body.message), /spam-like name/);
  } finally {
    await bed.set('user', { passwordSignupNeedReview: false });
  }
});

test.serial('approval creates the account exactly once, even when repeated', async (t) => {
  await bed.set('user', { passwordSignupNeedReview: true });
  try {
    const name = uname('dave');
    const pending = await register(name);
    const started = bed.reviews.started.find((entry) => entry.reviewId === pending.body.reviewId)!;
    const approve = () => bed.accounts.registration.approve({ reviewId: started.reviewId, sealedPayload: started.sealedPayload, reviewer: 'rita' });
    const [first, second] = await Promise.all([approve(), approve()]);
    t.is(first.userId, second.userId);
    t.deepEqual(await approve(), first);
    const { rows } = await bed.pool.query('SELECT id FROM users WHERE username_key = lower($1)', [name]);
    t.is(rows.length, 1);
    t.is((await login(name)).status, 200);
  } finally {
    await bed.set('user', { passwordSignupNeedReview: false });
  }
});

test.serial('refresh tokens rotate; a reused one revokes the session', async (t) => {
  const name = uname();
  const created = await register(name);
  const first = String(created.body.refreshToken);
  const refreshed = await call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: first }, native);
  t.is(refreshed.status, 200);
  const second = String(refreshed.body.refreshToken);
  t.not(second, first);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(refreshed.body.accessToken)))).status, 200);

  // The old token again, once the grace window for concurrent refreshes has passed (moved back in
  // the database rather than waited for): someone else has it. Both holders are signed out.
  await bed.pool.query("UPDATE refresh_tokens SET rotated_at = rotated_at - interval '1 minute' WHERE session_id = $1", [refreshed.body.sessionId]);
  const reused = await call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: first }, native);
  t.is(reused.status, 401);
  t.regex(String(reused.body.message), /already used/);
  t.is((await call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: second }, native)).status, 401);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(refreshed.body.accessToken)))).status, 401);
});

test.serial('two refreshes with one token at once (two tabs) both get the same new token, and the session lives', async (t) => {
  const name = uname('tabs');
  const first = String((await register(name)).body.refreshToken);
  const answers = await Promise.all([1, 2].map(() => call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: first }, native)));
  t.deepEqual(
    answers.map((answer) => answer.status),
    [200, 200],
    JSON.stringify(answers.map((answer) => answer.body)),
  );
  const [one, two] = answers.map((answer) => answer.body);
  t.is(one!.refreshToken, two!.refreshToken);
  t.not(one!.refreshToken, first);
  for (const answer of [one!, two!]) t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(answer.accessToken)))).status, 200);
  // The shared new token goes on rotating as usual.
  const next = await call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: one!.refreshToken }, native);
  t.is(next.status, 200);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(next.body.accessToken)))).status, 200);
});

test.serial('within the grace window, the old token after its successor was itself exchanged still revokes the session', async (t) => {
  const first = String((await register(uname('late'))).body.refreshToken);
  const second = await call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: first }, native);
  const third = await call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: second.body.refreshToken }, native);
  t.is(third.status, 200);
  const reused = await call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: first }, native);
  t.is(reused.status, 401);
  t.regex(String(reused.body.message), /already used/);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(third.body.accessToken)))).status, 401);
});

test.serial('browsers get the refresh token as an httpOnly cookie, never in the body', async (t) => {
  const name = uname();
  await register(name);
  const signedIn = await login(name, 'correct horse battery', {});
  t.is(signedIn.body.refreshToken, undefined);
  const cookie = signedIn.headers.get('set-cookie') ?? '';
  t.regex(cookie, /^svc_refresh=[^;]+;/);
  t.regex(cookie, /httponly/i);
  t.regex(cookie, /samesite=strict/i);
  t.regex(cookie, /path=\/api\/auth/i);
  const refreshed = await call(`${bed.url}/api/auth/refresh`, 'POST', undefined, { cookie: cookie.split(';')[0]! });
  t.is(refreshed.status, 200);
  t.not(refreshed.headers.get('set-cookie')?.split(';')[0], cookie.split(';')[0]);
});

test.serial('sessions: list, revoke one, log out everywhere', async (t) => {
  const name = uname();
  await register(name);
  const a = await login(name);
  const b = await login(name);
  const tokenA = String(a.body.accessToken);
  const tokenB = String(b.body.accessToken);
  const listed = await call<{ sessions: Array<{ id: string; current: boolean }> }>(`${bed.url}/api/auth/sessions`, 'GET', undefined, bearer(tokenA));
  t.is(listed.status, 200);
  t.true(listed.body.sessions.some((s) => s.id === a.body.sessionId && s.current));
  t.true(listed.body.sessions.some((s) => s.id === b.body.sessionId && !s.current));

  t.is((await call(`${bed.url}/api/auth/sessions/${String(b.body.sessionId)}`, 'DELETE', undefined, bearer(tokenA))).status, 204);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(tokenB))).status, 401);
  t.is((await call(`${bed.url}/api/auth/sessions/${String(b.body.sessionId)}`, 'DELETE', undefined, bearer(tokenA))).status, 404);

  const c = await login(name);
  const all = await call(`${bed.url}/api/auth/logout-all`, 'POST', undefined, bearer(tokenA));
  // The signup's own session, a and c (b was revoked above).
  t.is(all.body.revoked, 3);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(tokenA))).status, 401);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(c.body.accessToken)))).status, 401);
});

test.serial('a ban takes effect on the next request, not at token expiry', async (t) => {
  const name = uname();
  const created = await register(name);
  const token = String(created.body.accessToken);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(token))).status, 200);
  await bed.pool.query("UPDATE users SET state = 'banned' WHERE username_key = lower($1)", [name]);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(token))).status, 401);
  t.is((await call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: created.body.refreshToken }, native)).status, 401);
  const again = await login(name);
  t.is(again.status, 403);
  t.is(again.body.code, 'account_banned');
});

test.serial('failed sign-ins back off with Retry-After; the owner from another address is not locked out', async (t) => {
  const name = uname();
  await register(name);
  const from = (ip: string) => ({ ...native, 'x-forwarded-for': ip });
  let answer = await login(name, 'wrong password!', from('203.0.113.7'));
  for (let i = 0; i < 12 && answer.status === 401; i++) answer = await login(name, 'wrong password!', from('203.0.113.7'));
  t.is(answer.status, 429);
  t.is(answer.body.code, 'rate_limited');
  t.true(Number(answer.headers.get('retry-after')) > 0);
  // Even the right password from the attacking address waits.
  t.is((await login(name, 'correct horse battery', from('203.0.113.7'))).status, 429);
  // The owner elsewhere still gets in.
  t.is((await login(name, 'correct horse battery', from('198.51.100.9'))).status, 200);
});

test.serial('concurrent wrong passwords for one account from one address: at most the failure budget (10) is judged, the rest rate_limited', async (t) => {
  const name = uname('rush');
  await register(name);
  const from = { ...native, 'x-forwarded-for': uniqueIp() };
  const answers = await Promise.all(Array.from({ length: 20 }, () => login(name, 'wrong password!', from)));
  const judged = answers.filter((answer) => answer.status === 401).length;
  t.true(judged <= 10, `${judged} wrong passwords were judged against a budget of 10`);
  t.is(answers.filter((answer) => answer.status === 429).length, 20 - judged);
  // A right password clears the back-off only where it was proved, not for the refused address.
  t.is((await login(name, 'correct horse battery', from)).status, 429);
  t.is((await login(name, 'correct horse battery', { ...native, 'x-forwarded-for': uniqueIp() })).status, 200);
});

test.serial('one address gets 20 signups an hour and 60 sign-in attempts a minute, then rate_limited', async (t) => {
  const ip = uniqueIp();
  const from = { ...native, 'x-forwarded-for': ip };
  for (let i = 0; i < 20; i += 1) {
    const created = await call(`${bed.url}/api/auth/password/register`, 'POST', { username: uname('many'), password: 'correct horse battery' }, from);
    t.is(created.status, 201, `signup ${i + 1}`);
  }
  const refused = await call(`${bed.url}/api/auth/password/register`, 'POST', { username: uname('many'), password: 'correct horse battery' }, from);
  t.is(refused.status, 429);
  t.is(refused.body.code, 'rate_limited');
  t.true(Number(refused.headers.get('retry-after')) > 60);

  // Sign-in attempts, right or wrong, for any accounts: the address's own budget.
  const attempts = await Promise.all(Array.from({ length: 61 }, () => login(uname('ghost'), 'not a password', from)));
  t.is(attempts.filter((answer) => answer.status === 401).length, 60);
  t.is(attempts.filter((answer) => answer.status === 429).length, 1);
});
