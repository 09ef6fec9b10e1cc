import * as opaque from '@serenity-kit/opaque';
import test from 'ava';
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
  // More than the per-account failure budget (50 in 15 min), each from its own address.
  for (let i = 0; i < 55; i += 1) {
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
