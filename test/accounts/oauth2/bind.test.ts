/**
 * Binding provider identities to a signed-in account, listing and removing them. Binding is
 * not a signup: the instance below has enableSignup off throughout, and bound identities sign
 * in anyway.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { startOidcProvider, type TestOidcProvider } from '../../fixtures/oidc-provider.js';
import { bearer, call, native, uniqueIp, startAccountsBed, uname, type AccountsBed, type Answer } from '../fixtures.js';
import { callback, callbackParams, clientFor, oidcInstance, signInWith } from './fixtures.js';

let bed: AccountsBed;
let op: TestOidcProvider;
const corp = clientFor('corp');
const open = clientFor('open');

test.before(async () => {
  bed = await startAccountsBed('oauth2-bind');
  op = await startOidcProvider({
    clients: [corp, open].map((spec) => ({ clientId: spec.clientId, clientSecret: spec.clientSecret, redirectUris: [spec.redirectUrl] })),
  });
  await bed.set('oauth2', { providers: [oidcInstance(op, { ...corp, enableSignup: false }), oidcInstance(op, { ...open, enableSignup: true })] });
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: false });
});

test.after.always(async () => {
  await op?.close();
  await bed?.close();
});

function person(): string {
  const sub = `sub-${randomBytes(6).toString('hex')}`;
  op.addAccount(sub, { name: 'Bound Person' });
  return sub;
}

/** A password account, signed in: its access token. */
async function passwordUser(): Promise<{ token: string; id: string }> {
  const created = await call(`${bed.url}/api/auth/password/register`, 'POST', { username: uname(), password: 'correct horse battery' }, { ...native, 'x-forwarded-for': uniqueIp() });
  return { token: String(created.body.accessToken), id: (created.body.user as { id: string }).id };
}

/** Starts a bind as `token`, signs in at the provider as `sub`, finishes with `finishAs` (default: the same token; null: none). */
async function bind(instance: string, token: string, sub: string, finishAs: string | null = token): Promise<Answer> {
  const ip = uniqueIp();
  const started = await call(`${bed.url}/api/me/oauth2/${instance}/authorize`, 'POST', undefined, { ...native, ...bearer(token), 'x-forwarded-for': ip });
  if (started.status !== 200) return started;
  const redirect = await op.signIn(String(started.body.authorizationUrl), sub);
  return callback(bed.url, instance, { ...callbackParams(redirect), clientBinding: String(started.body.clientBinding) }, ip, finishAs ? bearer(finishAs) : {});
}

test.serial('a signed-in user binds an identity; it then signs in to that account although signup is off', async (t) => {
  const user = await passwordUser();
  const sub = person();
  const bound = await bind('corp', user.token, sub);
  t.is(bound.status, 200, JSON.stringify(bound.body));
  t.is(bound.body.status, 'bound');
  t.is((bound.body.binding as { instanceName: string }).instanceName, 'corp');

  const signedIn = await signInWith(bed.url, op, 'corp', sub, uniqueIp());
  t.is(signedIn.status, 200);
  t.is((signedIn.body.user as { id: string }).id, user.id);

  const listed = await call<{ bindings: Array<Record<string, unknown>> }>(`${bed.url}/api/me/oauth2`, 'GET', undefined, bearer(user.token));
  t.is(listed.status, 200);
  t.is(listed.body.bindings.length, 1);
  t.deepEqual(Object.keys(listed.body.bindings[0]!).sort(), ['configured', 'createdAt', 'instanceName', 'lastLoginAt']);
  t.is(listed.body.bindings[0]!.configured, true);
});

test.serial('finishing a bind needs the access token of the user who started it', async (t) => {
  const user = await passwordUser();
  const stranger = await passwordUser();
  const anonymous = await bind('corp', user.token, person(), null);
  t.is(anonymous.status, 401);
  t.regex(String(anonymous.body.message), /needs the access token of the account that started it/);
  const someoneElse = await bind('corp', user.token, person(), stranger.token);
  t.is(someoneElse.status, 401);
  const { rowCount } = await bed.pool.query('SELECT 1 FROM oauth2_bindings WHERE user_id = ANY($1::uuid[])', [[user.id, stranger.id]]);
  t.is(rowCount, 0);
});

test.serial('an identity bound to one account cannot be bound to another, nor a second identity per instance', async (t) => {
  const first = await passwordUser();
  const second = await passwordUser();
  const sub = person();
  t.is((await bind('corp', first.token, sub)).status, 200);
  const taken = await bind('corp', second.token, sub);
  t.is(taken.status, 409);
  t.is(taken.body.code, 'conflict');
  t.regex(String(taken.body.message), /already signs in to another account/);
  // Binding the same identity again is harmless.
  t.is((await bind('corp', first.token, sub)).status, 200);
  const another = await bind('corp', first.token, person());
  t.is(another.status, 409);
  t.regex(String(another.body.message), /already bound to another identity/);
});

test.serial('unbinding removes the identity; the last way to sign in cannot be removed', async (t) => {
  const user = await passwordUser();
  const sub = person();
  await bind('corp', user.token, sub);
  t.is((await call(`${bed.url}/api/me/oauth2/corp`, 'DELETE', undefined, bearer(user.token))).status, 204);
  t.is((await call(`${bed.url}/api/me/oauth2/corp`, 'DELETE', undefined, bearer(user.token))).status, 404);
  // Unbound, and corp takes no new accounts.
  t.is((await signInWith(bed.url, op, 'corp', sub, uniqueIp())).body.code, 'signup_disabled');

  // An account made through a provider has nothing else until it binds a second one.
  const onlyOAuth = await signInWith(bed.url, op, 'open', person(), uniqueIp());
  t.is(onlyOAuth.status, 201);
  const token = String(onlyOAuth.body.accessToken);
  const refused = await call(`${bed.url}/api/me/oauth2/open`, 'DELETE', undefined, bearer(token));
  t.is(refused.status, 409);
  t.regex(String(refused.body.message), /last way to sign in/);
  t.is((await bind('corp', token, person())).status, 200);
  t.is((await call(`${bed.url}/api/me/oauth2/open`, 'DELETE', undefined, bearer(token))).status, 204);
  const left = await call<{ bindings: Array<{ instanceName: string }> }>(`${bed.url}/api/me/oauth2`, 'GET', undefined, bearer(token));
  t.deepEqual(left.body.bindings.map((b) => b.instanceName), ['corp']);
});

test.serial('guests and anonymous callers have no identities to bind', async (t) => {
  t.is((await call(`${bed.url}/api/me/oauth2`, 'GET')).status, 401);
  t.is((await call(`${bed.url}/api/me/oauth2/corp/authorize`, 'POST')).status, 401);
});
