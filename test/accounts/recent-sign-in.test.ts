/**
 * Turning on TOTP, adding a passkey and binding an OAuth2 identity need a recent sign-in, over
 * HTTP: a session that signed in more than 10 minutes ago (an old or stolen access token) is
 * refused with "sign in again"; the current password (argon2 accounts) or a fresh sign-in is
 * the proof. Sessions are aged by moving their sign-in time back, not by waiting.
 */
import test from 'ava';
import { generate } from 'otplib';
import { SoftAuthenticator } from '../fixtures/soft-authenticator.js';
import { startOidcProvider, type TestOidcProvider } from '../fixtures/oidc-provider.js';
import { callback, callbackParams, clientFor, oidcInstance, signInWith } from './oauth2/fixtures.js';
import { bearer, call, native, uniqueIp, startAccountsBed, uname, WEBAUTHN, type AccountsBed, type Answer } from './fixtures.js';
import { PasskeyClient } from './webauthn-client.js';

let bed: AccountsBed;
let op: TestOidcProvider;
const corp = clientFor('corp');
const PASSWORD = 'correct horse battery';

test.before(async () => {
  bed = await startAccountsBed('accounts-recent-sign-in');
  op = await startOidcProvider({ clients: [{ clientId: corp.clientId, clientSecret: corp.clientSecret, redirectUris: [corp.redirectUrl] }] });
  await bed.set('oauth2', { providers: [oidcInstance(op, { ...corp, enableSignup: true })] });
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: false });
});
test.after.always(async () => {
  await op?.close();
  await bed?.close();
});

interface Account {
  ip: string;
  token: string;
  sessionId: string;
}

/** An argon2 password account whose session signed in 11 minutes ago. */
async function staleAccount(): Promise<Account> {
  const ip = uniqueIp();
  const created = await call(`${bed.url}/api/auth/password/register`, 'POST', { username: uname(), password: PASSWORD }, { ...native, 'x-forwarded-for': ip });
  const account = { ip, token: String(created.body.accessToken), sessionId: String(created.body.sessionId) };
  await age(account);
  return account;
}

async function age(account: Account): Promise<void> {
  await bed.pool.query("UPDATE sessions SET created_at = now() - interval '11 minutes' WHERE id = $1", [account.sessionId]);
}

const post = (account: Account, path: string, body?: unknown): Promise<Answer> =>
  call(`${bed.url}${path}`, 'POST', body, { ...native, ...bearer(account.token), 'x-forwarded-for': account.ip });

function refusedAsStale(t: import('ava').ExecutionContext, answer: Answer, action: RegExp): void {
  t.is(answer.status, 401, JSON.stringify(answer.body));
  t.is(answer.body.code, 'unauthenticated');
  t.regex(String(answer.body.message), action);
  t.regex(String(answer.body.message), /within the last 10 minutes/);
}

test('turning on TOTP with an old session is refused; the current password proves a recent sign-in', async (t) => {
  const account = await staleAccount();
  const setup = await post(account, '/api/auth/2fa/totp/setup');
  const code = await generate({ secret: String(setup.body.secret) });
  refusedAsStale(t, await post(account, '/api/auth/2fa/totp/enable', { code }), /sign in again to turn on two-factor authentication.*currentPassword/);
  const wrong = await post(account, '/api/auth/2fa/totp/enable', { code, currentPassword: 'not the password' });
  t.is(wrong.status, 401);
  t.deepEqual(wrong.body.issues, [{ key: 'currentPassword', message: 'is wrong' }]);
  const { rows } = await bed.pool.query<{ enabled_at: Date | null }>('SELECT enabled_at FROM totp_credentials t JOIN sessions s ON s.user_id = t.user_id WHERE s.id = $1', [account.sessionId]);
  t.is(rows[0]?.enabled_at, null, 'still off');

  const enabled = await post(account, '/api/auth/2fa/totp/enable', { code, currentPassword: PASSWORD });
  t.is(enabled.status, 200, JSON.stringify(enabled.body));
  t.true(Array.isArray(enabled.body.recoveryCodes));
});

test('adding a passkey with an old session is refused at its start; with the current password it is added', async (t) => {
  const account = await staleAccount();
  const client = new PasskeyClient(bed.url, account.ip);
  const auth = SoftAuthenticator.create(WEBAUTHN.rp_origin);
  refusedAsStale(t, await client.bindOptions(account.token), /sign in again to add a passkey/);
  t.is((await client.list(account.token)).body.passkeys.length, 0);

  const added = await client.bind(auth, account.token, { proof: { currentPassword: PASSWORD } });
  t.is(added.status, 201, JSON.stringify(added.body));
  t.is((await client.list(account.token)).body.passkeys.length, 1);
});

test('binding an OAuth2 identity with an old session is refused at its start; with the current password it binds', async (t) => {
  const account = await staleAccount();
  refusedAsStale(t, await post(account, '/api/me/oauth2/corp/authorize'), /sign in again to bind an OAuth2 identity/);

  const started = await post(account, '/api/me/oauth2/corp/authorize', { currentPassword: PASSWORD });
  t.is(started.status, 200, JSON.stringify(started.body));
  const sub = `sub-${uname()}`;
  op.addAccount(sub, { name: 'Bound' });
  const redirect = await op.signIn(String(started.body.authorizationUrl), sub);
  const bound = await callback(bed.url, 'corp', { ...callbackParams(redirect), clientBinding: String(started.body.clientBinding) }, account.ip, bearer(account.token));
  t.is(bound.status, 200, JSON.stringify(bound.body));
  t.is(bound.body.status, 'bound');
});

test('an account without a password has no alternative: an old session must sign in again, and a new sign-in works', async (t) => {
  const sub = `sub-${uname()}`;
  op.addAccount(sub, { name: 'Provider Only' });
  const ip = uniqueIp();
  const created = await signInWith(bed.url, op, 'corp', sub, ip);
  const stale = { ip, token: String(created.body.accessToken), sessionId: String(created.body.sessionId) };
  await age(stale);
  const setup = await post(stale, '/api/auth/2fa/totp/setup');
  const code = await generate({ secret: String(setup.body.secret) });
  const refused = await post(stale, '/api/auth/2fa/totp/enable', { code, currentPassword: PASSWORD });
  refusedAsStale(t, refused, /sign in again to turn on two-factor authentication/);
  t.notRegex(String(refused.body.message), /currentPassword/);
  refusedAsStale(t, await post(stale, '/api/me/oauth2/corp/authorize'), /bind an OAuth2 identity/);
  refusedAsStale(t, await post(stale, '/api/me/passkeys/options'), /add a passkey/);

  const again = await signInWith(bed.url, op, 'corp', sub, ip);
  const fresh = { ip, token: String(again.body.accessToken), sessionId: String(again.body.sessionId) };
  t.is((await post(fresh, '/api/auth/2fa/totp/enable', { code: await generate({ secret: String(setup.body.secret) }) })).status, 200);
});
