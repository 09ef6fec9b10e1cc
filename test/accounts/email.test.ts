import * as opaque from '@serenity-kit/opaque';
import test from 'ava';
import { defaultConfig } from '../../config/defaults.js';
import { createMailer } from '../../mail/mailer.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../fixtures/smtp-sink.js';
import { bearer, call, logger, native, opaqueLogin, uniqueIp, startAccountsBed, uname, type AccountsBed, type Answer } from './fixtures.js';

let bed: AccountsBed;
let smtp: SmtpSink;
test.before(async () => {
  smtp = await startSmtpSink();
  const mailer = createMailer({ ...defaultConfig().smtp, host: smtp.host, port: smtp.port, username: smtp.username, password: smtp.password, sender: 'svc <noreply@svc.test>' }, logger);
  bed = await startAccountsBed('accounts-email', { mailer, publicUrl: 'https://watch.example.net/' });
});
test.after.always(async () => {
  await bed?.close();
  await smtp?.close();
});

const PASSWORD = 'correct horse battery';
const from = (ip = uniqueIp()) => ({ ...native, 'x-forwarded-for': ip });
const address = (name: string, domain = 'example.org') => `${name.replace(/[^a-z0-9]/gi, '')}@${domain}`;
const post = (path: string, body: unknown, headers: Record<string, string> = from()) => call(`${bed.url}${path}`, 'POST', body, headers);
const startSignup = (email: string, username: string) => post('/api/auth/email/signup/start', { email, username });
const codeOf = (mail: ReceivedMail): string => /code is (\d{8})/.exec(mail.text)?.[1] ?? '';

/** Starts a signup and reads the code from the email the sink received. */
async function signupCode(t: { is(a: unknown, b: unknown): void }, email: string, username: string): Promise<string> {
  const started = await startSignup(email, username);
  t.is(started.status, 202);
  const mail = await smtp.waitForMail(email, (m) => m.subject.startsWith('Your sign-up code'));
  return codeOf(mail);
}

async function opaqueRecord(path: string, body: Record<string, unknown>, password: string): Promise<{ answer: Answer; registrationRecord?: string }> {
  await opaque.ready;
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password });
  const answer = await post(path, { ...body, registrationRequest });
  if (answer.status !== 200) return { answer };
  const { registrationRecord } = opaque.client.finishRegistration({ clientRegistrationState, registrationResponse: String(answer.body.registrationResponse), password });
  return { answer, registrationRecord };
}

const login = (username: string, password = PASSWORD) => post('/api/auth/password/login', { username, password });

test.serial('email signup is off by default and sends nothing', async (t) => {
  const email = address(uname('off'));
  const answer = await startSignup(email, uname('off'));
  t.is(answer.status, 403);
  t.is(answer.body.code, 'signup_disabled');
  t.regex(String(answer.body.message), /user\.enableEmailSignup/);
  t.false(smtp.messages.some((mail) => mail.to.includes(email)));
});

test.serial('a code and a link arrive; confirming with a password creates the account, once', async (t) => {
  await bed.set('user', { enableEmailSignup: true, emailSignupNeedReview: false, enablePasswordSignup: false });
  const name = uname('Erin');
  const email = address(name);
  t.is((await startSignup(email, name)).status, 202);
  const mail = await smtp.waitForMail(email);
  const code = codeOf(mail);
  t.regex(code, /^\d{8}$/);
  // The link carries the code to the web client at the public URL.
  t.true(mail.text.includes(`https://watch.example.net/auth/confirm-email?email=${encodeURIComponent(email)}&code=${code}`));

  const confirmed = await post('/api/auth/email/signup/confirm', { email: email.toUpperCase(), code, password: PASSWORD });
  t.is(confirmed.status, 201);
  t.is(confirmed.body.status, 'signed_in');
  t.is((confirmed.body.user as { username: string }).username, name);
  const { rows } = await bed.pool.query<{ email: string }>('SELECT email FROM users WHERE username = $1', [name]);
  t.is(rows[0]?.email, email);
  // Password login works even with password signup off: the flag gates signup only.
  t.is((await login(name)).body.status, 'signed_in');

  const again = await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD });
  t.is(again.status, 401);
  t.is(again.body.code, 'unauthenticated');
});

test.serial('confirming under OPAQUE: the password never reaches the server', async (t) => {
  const name = uname('olga');
  const email = address(name);
  const code = await signupCode(t, email, name);
  const { answer, registrationRecord } = await opaqueRecord('/api/auth/email/signup/opaque', { email, code }, PASSWORD);
  t.is(answer.status, 200);
  const confirmed = await post('/api/auth/email/signup/confirm', { email, code, registrationRecord });
  t.is(confirmed.status, 201);
  const signedIn = await opaqueLogin(bed.url, name, PASSWORD);
  t.is(signedIn.status, 200);
});

test.serial('wrong codes spend the code: after five, the right one is refused too (rate_limited for the address)', async (t) => {
  const name = uname('wes');
  const email = address(name);
  const code = await signupCode(t, email, name);
  const wrong = code === '00000000' ? '11111111' : '00000000';
  for (let i = 0; i < 5; i += 1) {
    const answer = await post('/api/auth/email/signup/confirm', { email, code: wrong, password: PASSWORD });
    t.is(answer.status, 401);
    t.deepEqual(answer.body.issues, [{ key: 'code', message: 'is wrong, used or expired' }]);
  }
  const right = await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD });
  t.is(right.status, 429);
  t.is(right.body.code, 'rate_limited');
  t.is((await bed.pool.query('SELECT 1 FROM users WHERE username = $1', [name])).rowCount, 0);
});

test.serial('concurrent wrong codes for one address: at most 5 are judged, the rest rate_limited, and the code is spent', async (t) => {
  const name = uname('burst');
  const email = address(name);
  const code = await signupCode(t, email, name);
  const wrong = code === '00000000' ? '11111111' : '00000000';
  const answers = await Promise.all(Array.from({ length: 20 }, () => post('/api/auth/email/signup/confirm', { email, code: wrong, password: PASSWORD })));
  const judged = answers.filter((answer) => answer.status === 401).length;
  t.true(judged <= 5, `${judged} wrong codes were judged against a budget of 5`);
  t.is(answers.filter((answer) => answer.status === 429).length, 20 - judged);
  const { rows } = await bed.pool.query<{ attempts: number }>("SELECT attempts FROM email_codes WHERE email_key = $1 AND purpose = 'signup' AND consumed_at IS NULL", [email.toLowerCase()]);
  t.true((rows[0]?.attempts ?? 0) <= 5, `the code row counted ${rows[0]?.attempts} attempts`);
});

test.serial('a bad password keeps the code usable: nothing is written', async (t) => {
  const name = uname('pat');
  const email = address(name);
  const code = await signupCode(t, email, name);
  const short = await post('/api/auth/email/signup/confirm', { email, code, password: 'short' });
  t.is(short.status, 400);
  t.is((short.body.issues as Array<{ key: string }>)[0]?.key, 'password');
  const neither = await post('/api/auth/email/signup/confirm', { email, code });
  t.is(neither.status, 400);
  t.is((await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD })).status, 201);
});

test.serial('the allowlist: on with an empty list admits all; entries match domains or addresses, not subdomains', async (t) => {
  await bed.set('email', { whitelistEnabled: true, whitelistDomains: '' });
  t.is((await startSignup(address(uname('any'), 'anywhere.test'), uname('any'))).status, 202);

  await bed.set('email', { whitelistEnabled: true, whitelistDomains: 'Example.ORG, carol@other.test' });
  t.is((await startSignup(address(uname('dom'), 'EXAMPLE.org'), uname('dom'))).status, 202);
  t.is((await startSignup('Carol@Other.Test', uname('carol'))).status, 202);
  const sub = await startSignup(address(uname('sub'), 'eng.example.org'), uname('sub'));
  t.is(sub.status, 403);
  t.is(sub.body.code, 'forbidden');
  t.deepEqual(sub.body.issues, [{ key: 'email', message: 'is not on the allowlist' }]);
  t.is((await startSignup('dave@other.test', uname('dave'))).status, 403);
  await bed.set('email', { whitelistEnabled: false, whitelistDomains: '' });
});

test.serial('the allowlist is checked again at confirmation: an address taken off it after the code was sent is refused', async (t) => {
  const name = uname('late');
  const email = address(name, 'allowed.test');
  await bed.set('email', { whitelistEnabled: true, whitelistDomains: 'allowed.test' });
  try {
    const code = await signupCode(t, email, name);
    await bed.set('email', { whitelistEnabled: true, whitelistDomains: 'other.test' });
    const refused = await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD });
    t.is(refused.status, 403);
    t.is(refused.body.code, 'forbidden');
    t.regex(String(refused.body.message), /no longer allowed.*allowlist changed/);
    t.deepEqual(refused.body.issues, [{ key: 'email', message: 'is not on the allowlist' }]);
    const opaqueStep = await opaqueRecord('/api/auth/email/signup/opaque', { email, code }, PASSWORD);
    t.is(opaqueStep.answer.status, 403);
    t.is((await bed.pool.query('SELECT 1 FROM users WHERE username = $1', [name])).rowCount, 0);
    // Back on the list, the same code still works: the refusal did not spend it.
    await bed.set('email', { whitelistEnabled: true, whitelistDomains: 'allowed.test' });
    t.is((await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD })).status, 201);
  } finally {
    await bed.set('email', { whitelistEnabled: false, whitelistDomains: '' });
  }
});

test.serial('an address with an account gets a notice, not a code, and the same answer', async (t) => {
  const name = uname('kim');
  const email = address(name);
  const code = await signupCode(t, email, name);
  t.is((await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD })).status, 201);

  const second = await startSignup(email, uname('kim2'));
  t.is(second.status, 202);
  t.is(second.body.status, 'code_sent');
  const notice = await smtp.waitForMail(email, (mail) => mail.subject === 'You already have an account');
  t.true(notice.text.includes(name));
  t.is((await bed.pool.query("SELECT 1 FROM email_codes WHERE email_key = $1 AND consumed_at IS NULL", [email.toLowerCase()])).rowCount, 0);
});

test.serial('under review, confirmation files the account; sign-in says pending until approval', async (t) => {
  await bed.set('user', { emailSignupNeedReview: true });
  try {
    const name = uname('rey');
    const email = address(name);
    const code = await signupCode(t, email, name);
    const pending = await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD });
    t.is(pending.status, 202);
    t.is(pending.body.reviewId, `registration-review:email:${name.toLowerCase()}`);
    t.is((await login(name)).body.code, 'review_pending');
    const started = bed.reviews.started.find((entry) => entry.reviewId === pending.body.reviewId)!;
    await bed.accounts.registration.approve({ reviewId: started.reviewId, sealedPayload: started.sealedPayload, reviewer: 'rita' });
    t.is((await login(name)).body.status, 'signed_in');
  } finally {
    await bed.set('user', { emailSignupNeedReview: false });
  }
});

test.serial('at most five emails an hour reach one address, whoever asks', async (t) => {
  const email = address(uname('flood'));
  for (let i = 0; i < 5; i += 1) t.is((await post('/api/auth/password/reset/start', { email })).status, 202, `request ${i + 1}`);
  const refused = await post('/api/auth/password/reset/start', { email });
  t.is(refused.status, 429);
  t.is(refused.body.code, 'rate_limited');
  t.regex(String(refused.body.message), /emails to this address/);
});

test.serial('codes and pending signups are not stored in plaintext', async (t) => {
  const name = uname('pia');
  const email = address(name);
  const code = await signupCode(t, email, name);
  const { rows } = await bed.pool.query<{ code_hash: string; payload: string }>('SELECT code_hash, payload FROM email_codes WHERE email_key = $1 AND consumed_at IS NULL', [email.toLowerCase()]);
  t.is(rows.length, 1);
  t.false(JSON.stringify(rows).includes(code));
  t.false(JSON.stringify(rows).includes(name));
  t.false(rows[0]!.payload.includes(email));
});

test.serial('password reset by emailed code sets the new password and signs out every session', async (t) => {
  const name = uname('rosa');
  const email = address(name);
  const code = await signupCode(t, email, name);
  const signedUp = await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD });
  const oldToken = String(signedUp.body.accessToken);
  const oldRefresh = String(signedUp.body.refreshToken);

  t.is((await post('/api/auth/password/reset/start', { email })).status, 202);
  const mail = await smtp.waitForMail(email, (m) => m.subject.startsWith('Your password reset code'));
  const resetCode = codeOf(mail);
  t.true(mail.text.includes(`https://watch.example.net/auth/reset?email=${encodeURIComponent(email)}&code=${resetCode}`));

  const finished = await post('/api/auth/password/reset/finish', { email, code: resetCode, password: 'a brand new passphrase' });
  t.is(finished.status, 204);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(oldToken))).status, 401);
  t.is((await post('/api/auth/refresh', { refreshToken: oldRefresh })).status, 401);
  t.is((await login(name)).status, 401);
  t.is((await login(name, 'a brand new passphrase')).body.status, 'signed_in');
  t.is((await post('/api/auth/password/reset/finish', { email, code: resetCode, password: 'yet another passphrase' })).status, 401);
});

test.serial('reset under OPAQUE, and an unknown address gets the same answer and no code', async (t) => {
  const name = uname('otto');
  const email = address(name);
  const code = await signupCode(t, email, name);
  await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD });

  const unknown = address(uname('nobody'));
  const ghost = await post('/api/auth/password/reset/start', { email: unknown });
  t.is(ghost.status, 202);
  t.is(ghost.body.status, 'code_sent');
  t.is((await bed.pool.query('SELECT 1 FROM email_codes WHERE email_key = $1', [unknown])).rowCount, 0);

  await post('/api/auth/password/reset/start', { email });
  const resetCode = codeOf(await smtp.waitForMail(email, (m) => m.subject.startsWith('Your password reset code')));
  const { answer, registrationRecord } = await opaqueRecord('/api/auth/password/reset/opaque', { email, code: resetCode }, 'opaque passphrase now');
  t.is(answer.status, 200);
  t.is((await post('/api/auth/password/reset/finish', { email, code: resetCode, registrationRecord })).status, 204);
  t.is((await opaqueLogin(bed.url, name, 'opaque passphrase now')).status, 200);
  t.is((await login(name)).status, 401);
});

test.serial('changing an Argon2id password needs the current one; once a direct sign-in has upgraded it, the current one still proves it, and the change signs out the other sessions', async (t) => {
  const name = uname('cleo');
  const email = address(name);
  const code = await signupCode(t, email, name);
  const first = await post('/api/auth/email/signup/confirm', { email, code, password: PASSWORD });
  const changeAs = (token: string) => (body: Record<string, unknown>) => call(`${bed.url}/api/me/password`, 'POST', body, { ...bearer(token), ...from() });

  // Still Argon2id (no direct sign-in yet): the current password is required, and checked.
  const asFirst = changeAs(String(first.body.accessToken));
  const missing = await asFirst({ password: 'the next passphrase' });
  t.is(missing.status, 400);
  t.deepEqual(missing.body.issues, [{ key: 'currentPassword', message: 'is required to change an existing password' }]);
  const wrong = await asFirst({ currentPassword: 'not it at all', password: 'the next passphrase' });
  t.is(wrong.status, 401);

  // A direct sign-in turns the hash into an OPAQUE record; the typed current password still proves it.
  const second = await login(name);
  t.is(second.body.status, 'signed_in');
  const asSecond = changeAs(String(second.body.accessToken));
  t.is((await asSecond({ currentPassword: 'not it at all', password: 'the next passphrase' })).status, 401);
  const changed = await asSecond({ currentPassword: PASSWORD, password: 'the next passphrase' });
  t.is(changed.status, 200);
  t.true(Number(changed.body.revokedSessions) >= 1);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(first.body.accessToken)))).status, 401);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(second.body.accessToken)))).status, 200);
  t.is((await login(name, 'the next passphrase')).body.status, 'signed_in');
});

test.serial('changing an OPAQUE password needs a recent sign-in', async (t) => {
  const name = uname('ola');
  const email = address(name);
  const code = await signupCode(t, email, name);
  const { registrationRecord } = await opaqueRecord('/api/auth/email/signup/opaque', { email, code }, PASSWORD);
  const signedUp = await post('/api/auth/email/signup/confirm', { email, code, registrationRecord });
  const token = String(signedUp.body.accessToken);

  await opaque.ready;
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password: 'second opaque pass' });
  const start = await call(`${bed.url}/api/me/password/opaque`, 'POST', { registrationRequest }, bearer(token));
  t.is(start.status, 200);
  const record = opaque.client.finishRegistration({ clientRegistrationState, registrationResponse: String(start.body.registrationResponse), password: 'second opaque pass' });
  t.is((await call(`${bed.url}/api/me/password`, 'POST', { registrationRecord: record.registrationRecord }, bearer(token))).status, 200);
  t.is((await opaqueLogin(bed.url, name, 'second opaque pass')).status, 200);

  // Eleven minutes later the same session may not change it again.
  await bed.pool.query("UPDATE sessions SET created_at = now() - interval '11 minutes' WHERE id = $1", [signedUp.body.sessionId]);
  const stale = await call(`${bed.url}/api/me/password/opaque`, 'POST', { registrationRequest }, bearer(token));
  t.is(stale.status, 401);
  t.regex(String(stale.body.message), /sign in again/);
});
