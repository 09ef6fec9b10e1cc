/**
 * A binding signs in only through the identity provider that vouched for it. Two real OpenID
 * providers (test/fixtures/oidc-provider.ts) know the same subject; pointing instance "corp"
 * from the first to the second (what an operator, or an attacker with the setting, does) must
 * not sign that subject in to the account bound at the first. The owner can bind again.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { startOidcProvider, type TestOidcProvider } from '../../fixtures/oidc-provider.js';
import { bearer, call, native, uniqueIp, startAccountsBed, uname, type AccountsBed } from '../fixtures.js';
import { callback, callbackParams, clientFor, oidcInstance, signInWith } from './fixtures.js';

let bed: AccountsBed;
let first: TestOidcProvider;
let second: TestOidcProvider;
const corp = clientFor('corp');

const pointCorpAt = (op: TestOidcProvider): Promise<void> => bed.set('oauth2', { providers: [oidcInstance(op, { ...corp, enableSignup: true })] });

test.before(async () => {
  bed = await startAccountsBed('oauth2-issuer-binding');
  const clients = [{ clientId: corp.clientId, clientSecret: corp.clientSecret, redirectUris: [corp.redirectUrl] }];
  [first, second] = await Promise.all([startOidcProvider({ clients }), startOidcProvider({ clients })]);
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: false });
});

test.after.always(async () => {
  await first?.close();
  await second?.close();
  await bed?.close();
});

/** The same subject at both providers, as an attacker's provider would claim it. */
function subjectAtBoth(): string {
  const sub = `sub-${randomBytes(6).toString('hex')}`;
  first.addAccount(sub, { name: 'Victim' });
  second.addAccount(sub, { name: 'Impostor' });
  return sub;
}

async function sessionsOf(userId: string): Promise<number> {
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [userId]);
  return rows[0]!.n;
}

test.serial('after the instance is pointed at another issuer, the same subject does not sign in the account bound at the old one', async (t) => {
  await pointCorpAt(first);
  const sub = subjectAtBoth();
  const created = await signInWith(bed.url, first, 'corp', sub, uniqueIp());
  t.is(created.status, 201, JSON.stringify(created.body));
  const userId = (created.body.user as { id: string }).id;
  const { rows } = await bed.pool.query('SELECT provider_kind, issuer FROM oauth2_bindings WHERE instance_name = $1 AND subject = $2', ['corp', sub]);
  t.deepEqual(rows, [{ provider_kind: 'oidc', issuer: first.issuer }]);

  await pointCorpAt(second);
  const impostor = await signInWith(bed.url, second, 'corp', sub, uniqueIp());
  t.is(impostor.status, 401, JSON.stringify(impostor.body));
  t.is(impostor.body.code, 'unauthenticated');
  t.regex(String(impostor.body.message), /bound through another identity provider than OAuth2 instance "corp" uses now .* no longer signs in/);
  t.is(impostor.body.accessToken, undefined);
  t.is(await sessionsOf(userId), 1, 'no session was opened for the bound account');

  // The binding itself is intact: back at the issuer that vouched for it, it signs in again.
  await pointCorpAt(first);
  const back = await signInWith(bed.url, first, 'corp', sub, uniqueIp());
  t.is(back.status, 200, JSON.stringify(back.body));
  t.is((back.body.user as { id: string }).id, userId);
});

test.serial('the owner binds the identity again at the new issuer; from then on it signs in there', async (t) => {
  await pointCorpAt(first);
  const registered = await call(`${bed.url}/api/auth/password/register`, 'POST', { username: uname(), password: 'correct horse battery' }, { ...native, 'x-forwarded-for': uniqueIp() });
  const owner = { id: (registered.body.user as { id: string }).id, token: String(registered.body.accessToken) };
  const sub = subjectAtBoth();
  const bind = async (op: TestOidcProvider) => {
    const ip = uniqueIp();
    const started = await call(`${bed.url}/api/me/oauth2/corp/authorize`, 'POST', undefined, { ...native, ...bearer(owner.token), 'x-forwarded-for': ip });
    const redirect = await op.signIn(String(started.body.authorizationUrl), sub);
    return callback(bed.url, 'corp', { ...callbackParams(redirect), clientBinding: String(started.body.clientBinding) }, ip, bearer(owner.token));
  };
  t.is((await bind(first)).status, 200);

  const signsIn = async () => (await call<{ bindings: Array<{ configured: boolean }> }>(`${bed.url}/api/me/oauth2`, 'GET', undefined, bearer(owner.token))).body.bindings[0]?.configured;
  t.true(await signsIn());
  await pointCorpAt(second);
  t.is((await signInWith(bed.url, second, 'corp', sub, uniqueIp())).status, 401);
  t.false(await signsIn(), 'the listing says the binding no longer signs in');
  const rebound = await bind(second);
  t.is(rebound.status, 200, JSON.stringify(rebound.body));
  t.true(await signsIn());
  const signedIn = await signInWith(bed.url, second, 'corp', sub, uniqueIp());
  t.is(signedIn.status, 200, JSON.stringify(signedIn.body));
  t.is((signedIn.body.user as { id: string }).id, owner.id);
  // And the first issuer no longer vouches for it.
  await pointCorpAt(first);
  t.is((await signInWith(bed.url, first, 'corp', sub, uniqueIp())).status, 401);
});
