import * as opaque from '@serenity-kit/opaque';
import test from 'ava';
import { accountKey } from '../../accounts/methods/password.js';
import { LIMITS } from '../../accounts/rate-limits.js';
import { bearer, call, opaqueLogin, opaqueRegister, uniqueIp, startAccountsBed, uname, type AccountsBed } from './fixtures.js';

let bed: AccountsBed;
test.before(async () => {
  bed = await startAccountsBed('accounts-opaque');
  await bed.set('user', { enablePasswordSignup: true });
});
test.after.always(async () => {
  await bed?.close();
});

test('OPAQUE registration and login open a session; the server never stores the password', async (t) => {
  const name = uname('olga');
  const password = 'a long passphrase only the client sees';
  const created = await opaqueRegister(bed.url, name, password);
  t.is(created.status, 201);
  const signedIn = await opaqueLogin(bed.url, name, password);
  t.is(signedIn.status, 200);
  if (signedIn.status !== 200 || !('body' in signedIn)) return;
  t.is(signedIn.body.status, 'signed_in');
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(signedIn.body.accessToken)))).status, 200);

  const { rows } = await bed.pool.query<{ kind: string; secret: string }>(
    'SELECT kind, secret FROM password_credentials p JOIN users u ON u.id = p.user_id WHERE u.username_key = lower($1)',
    [name],
  );
  t.is(rows[0]?.kind, 'opaque');
  t.false(rows[0]!.secret.includes(password));
  t.false(Buffer.from(rows[0]!.secret, 'base64url').includes(Buffer.from(password)));
});

test('an unknown user and a wrong password look the same to the client', async (t) => {
  const name = uname('oscar');
  await opaqueRegister(bed.url, name, 'the right passphrase');
  const wrong = await opaqueLogin(bed.url, name, 'the wrong passphrase');
  const unknown = await opaqueLogin(bed.url, uname('nobody'), 'the wrong passphrase');
  // Both got a well-formed login response of the same size, and the client refused both.
  t.is(wrong.status, 'client_refused');
  t.is(unknown.status, 'client_refused');
  if (wrong.status !== 'client_refused' || unknown.status !== 'client_refused') return;
  t.is(wrong.start.status, 200);
  t.is(unknown.start.status, 200);
  t.is(String(wrong.start.body.loginResponse).length, String(unknown.start.body.loginResponse).length);
});

test('a forged proof is refused like a wrong password', async (t) => {
  const name = uname('olaf');
  await opaqueRegister(bed.url, name, 'the right passphrase');
  const refused = await opaqueLogin(bed.url, name, 'the wrong passphrase');
  if (refused.status !== 'client_refused') return t.fail('the client should have refused');
  const forged = await call(`${bed.url}/api/auth/opaque/login/finish`, 'POST', {
    loginId: refused.start.body.loginId,
    finishLoginRequest: 'A'.repeat(86),
  });
  t.is(forged.status, 401);
  t.is(forged.body.code, 'unauthenticated');
  // The login state is single-use.
  const replay = await call(`${bed.url}/api/auth/opaque/login/finish`, 'POST', { loginId: refused.start.body.loginId, finishLoginRequest: 'A'.repeat(86) });
  t.is(replay.status, 401);
});

test('malformed protocol messages are invalid_argument naming the field', async (t) => {
  const answer = await call(`${bed.url}/api/auth/opaque/register/start`, 'POST', { username: uname(), registrationRequest: 'not-a-message' });
  t.is(answer.status, 400);
  t.is((answer.body.issues as Array<{ key: string }>)[0]?.key, 'registrationRequest');
});

test('successful sign-ins do not add up to a lock: the failure counted at start is given back', async (t) => {
  const name = uname('frequent');
  await opaqueRegister(bed.url, name, 'the right passphrase');
  // The account's failure count one short of its budget (50 in 15 min), as 49 failed sign-ins
  // from anywhere leave it: counted here rather than by 49 key-stretching sign-ins.
  const { points } = LIMITS.failuresPerAccount;
  for (let i = 0; i < points - 1; i += 1) await bed.accounts.limits.attempt('failuresPerAccount', accountKey(name), 'failed sign-ins for this account');
  // Each sign-in counts one more at its start (the 50th, allowed) and gives it back once the
  // password is proved: without that the second would be the 51st and refused.
  for (let i = 0; i < 3; i += 1) {
    const answer = await opaqueLogin(bed.url, name, 'the right passphrase', { 'x-forwarded-for': uniqueIp() });
    t.is(answer.status, 200, `sign-in ${i + 1}`);
  }
});

test('a login started before the password changed cannot finish after it', async (t) => {
  const name = uname('switch');
  await opaqueRegister(bed.url, name, 'the old passphrase');
  await opaque.ready;
  const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password: 'the old passphrase' });
  const start = await call<{ loginId: string; loginResponse: string }>(`${bed.url}/api/auth/opaque/login/start`, 'POST', { username: name, startLoginRequest }, { 'x-forwarded-for': uniqueIp() });
  const finished = opaque.client.finishLogin({ clientLoginState, loginResponse: start.body.loginResponse, password: 'the old passphrase' });
  t.truthy(finished);
  // A reset lands in between (any new record does).
  const other = await opaqueRegister(bed.url, uname('donor'), 'some other passphrase');
  t.is(other.status, 201);
  await bed.pool.query(
    `UPDATE password_credentials SET secret = (SELECT p.secret FROM password_credentials p JOIN users u ON u.id = p.user_id WHERE u.username = $2)
      WHERE user_id = (SELECT id FROM users WHERE username = $1)`,
    [name, (other.body.user as { username: string }).username],
  );
  const answer = await call(`${bed.url}/api/auth/opaque/login/finish`, 'POST', { loginId: start.body.loginId, finishLoginRequest: finished!.finishLoginRequest }, { 'x-forwarded-for': uniqueIp() });
  t.is(answer.status, 401);
  t.regex(String(answer.body.message), /password changed during sign-in/);
});

/** A well-formed record made offline, against a server setup of the client's own: no register/start spent on it. */
async function offlineRecord(password: string): Promise<string> {
  await opaque.ready;
  const serverSetup = opaque.server.createSetup();
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password });
  const { registrationResponse } = opaque.server.createRegistrationResponse({ serverSetup, userIdentifier: 'offline', registrationRequest });
  return opaque.client.finishRegistration({ clientRegistrationState, registrationResponse, password }).registrationRecord;
}

/** register/start from `ip`; answers the record the client made against the server's response. */
async function startRegistration(username: string, password: string, ip: string): Promise<{ status: number; registrationRecord?: string }> {
  await opaque.ready;
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password });
  const start = await call<{ registrationResponse: string }>(`${bed.url}/api/auth/opaque/register/start`, 'POST', { username, registrationRequest }, { 'x-forwarded-for': ip });
  if (start.status !== 200) return { status: start.status };
  const { registrationRecord } = opaque.client.finishRegistration({ clientRegistrationState, registrationResponse: start.body.registrationResponse, password });
  return { status: start.status, registrationRecord };
}

const finishRegistration = (username: string, registrationRecord: string, ip: string) =>
  call(`${bed.url}/api/auth/opaque/register/finish`, 'POST', { username, registrationRecord }, { 'x-forwarded-for': ip });

test('register/finish belongs to a register/start of the same username, once', async (t) => {
  const ip = uniqueIp();
  const alone = uname('alone');
  const withoutStart = await finishRegistration(alone, await offlineRecord('a passphrase'), ip);
  t.is(withoutStart.status, 401);
  t.is(withoutStart.body.code, 'unauthenticated');
  t.regex(String(withoutStart.body.message), /register\/start/);

  const started = uname('started');
  const { registrationRecord } = await startRegistration(started, 'a passphrase', ip);
  const otherName = await finishRegistration(uname('other'), registrationRecord!, ip);
  t.is(otherName.status, 401);
  t.is((await finishRegistration(started, registrationRecord!, ip)).status, 201);
  const twice = await finishRegistration(started, registrationRecord!, ip);
  t.is(twice.status, 401);
  t.is((await bed.pool.query('SELECT 1 FROM users WHERE username_key = lower($1) OR username_key = lower($2)', [alone, 'other'])).rowCount, 0);
});

test('OPAQUE signups from one address stop at the signup limit (20 an hour), as password/register does', async (t) => {
  const ip = uniqueIp();
  // Finish alone, with records made offline, used to create an account each time.
  const record = await offlineRecord('a passphrase');
  const direct = await Promise.all(Array.from({ length: 25 }, () => finishRegistration(uname('direct'), record, ip)));
  t.deepEqual([...new Set(direct.map((answer) => answer.status))], [401]);
  // With starts: the server cannot tell a record from the response it answered, so one request
  // and one offline record serve every signup (no key stretching per account in this process).
  await opaque.ready;
  const { registrationRequest } = opaque.client.startRegistration({ password: 'a passphrase' });
  let created = 0;
  for (let i = 0; i < 21; i += 1) {
    const name = uname('bulk');
    const start = await call(`${bed.url}/api/auth/opaque/register/start`, 'POST', { username: name, registrationRequest }, { 'x-forwarded-for': ip });
    if (start.status !== 200) {
      t.is(start.status, 429, `signup ${i + 1}`);
      break;
    }
    t.is((await finishRegistration(name, record, ip)).status, 201, `signup ${i + 1}`);
    created += 1;
  }
  t.is(created, 20);
});

test('a record that is not a well-formed OPAQUE registration record is invalid_argument naming it, and the start stays usable', async (t) => {
  const ip = uniqueIp();
  const name = uname('garbage');
  const { registrationRecord } = await startRegistration(name, 'a passphrase', ip);
  for (const garbage of ['A'.repeat(256), Buffer.alloc(192, 0xff).toString('base64url'), `${registrationRecord!}AAAA`, 'A'.repeat(60)]) {
    const refused = await finishRegistration(name, garbage, ip);
    t.is(refused.status, 400, garbage.slice(0, 16));
    t.deepEqual((refused.body.issues as Array<{ key: string }>).map((issue) => issue.key), ['registrationRecord']);
  }
  t.is((await bed.pool.query('SELECT 1 FROM users WHERE username_key = lower($1)', [name])).rowCount, 0);
  t.is((await finishRegistration(name, registrationRecord!, ip)).status, 201);
});
