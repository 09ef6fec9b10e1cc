/**
 * OAuth2 / OIDC sign-in and signup over HTTP against a real OpenID provider run in-process:
 * authorization code with PKCE, state and nonce; enableSignup and signupNeedReview per
 * instance; the refusals (replayed or foreign state, tampered nonce, another client's
 * callback, removed instance, provider errors) and provider tokens at rest.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { generate } from 'otplib';
import { startOidcProvider, type TestOidcProvider } from '../../fixtures/oidc-provider.js';
import { bearer, call, uniqueIp, startAccountsBed, type AccountsBed } from '../fixtures.js';
import { authorize, callback, callbackParams, clientFor, oidcInstance, signInWith, type OidcInstanceSpec } from './fixtures.js';

let bed: AccountsBed;
let op: TestOidcProvider;

const corp = clientFor('corp');
const reviewed = clientFor('reviewed');
const other = clientFor('other');
// A registered redirect URL with a query: openid-client alone would drop it from the token request.
const query = clientFor('query', 'http://127.0.0.1:5173/oauth2/callback?instance=query');
const ALL = [corp, reviewed, other, query];

function providers(overrides: Record<string, Partial<OidcInstanceSpec>> = {}, only?: string[]): Array<Record<string, unknown>> {
  const defaults: Record<string, Partial<OidcInstanceSpec>> = {
    corp: { enableSignup: true },
    reviewed: { enableSignup: true, signupNeedReview: true },
    other: { enableSignup: true },
    query: { enableSignup: true },
  };
  return ALL.filter((spec) => !only || only.includes(spec.instanceName)).map((spec) =>
    oidcInstance(op, { ...spec, ...defaults[spec.instanceName], ...overrides[spec.instanceName] }),
  );
}

const configure = (overrides: Record<string, Partial<OidcInstanceSpec>> = {}, only?: string[]): Promise<void> =>
  bed.set('oauth2', { providers: providers(overrides, only) });

/** A provider account no other test uses. */
function person(claims: Record<string, unknown> = {}): string {
  const sub = `sub-${randomBytes(6).toString('hex')}`;
  op.addAccount(sub, { preferred_username: `u${sub.slice(4)}`, name: 'Test Person', email: `${sub}@example.com`, email_verified: true, ...claims });
  return sub;
}

test.before(async () => {
  bed = await startAccountsBed('oauth2-login');
  op = await startOidcProvider({
    clients: ALL.map((spec) => ({ clientId: spec.clientId, clientSecret: spec.clientSecret, redirectUris: [spec.redirectUrl] })),
  });
  await configure();
});

test.after.always(async () => {
  await op?.close();
  await bed?.close();
});

test.serial('without instances there is nothing to sign in with, and the setting lists what there is', async (t) => {
  await bed.set('oauth2', { providers: [] });
  try {
    const answer = await authorize(bed.url, 'corp', uniqueIp());
    t.is(answer.answer.status, 404);
    t.is(answer.answer.body.code, 'not_found');
    t.regex(String(answer.answer.body.message), /no OAuth2 provider instance "corp"/);
  } finally {
    await configure();
  }
  const listed = await call<{ providers: Array<Record<string, unknown>> }>(`${bed.url}/api/auth/oauth2`, 'GET');
  t.deepEqual(listed.body.providers[0], { instanceName: 'corp', provider: 'oidc', signupEnabled: true });
  t.false(JSON.stringify(listed.body).includes(corp.clientSecret), 'no client secret in the public list');
});

test.serial('a first-time identity creates an account (201) and signs in; the next login finds it', async (t) => {
  const sub = person({ preferred_username: 'Marta.K', name: 'Marta Kowalska' });
  const ip = uniqueIp();
  const started = await authorize(bed.url, 'corp', ip);
  t.is(started.answer.status, 200);
  const url = new URL(started.authorizationUrl);
  t.is(`${url.origin}`, op.issuer);
  t.is(url.searchParams.get('redirect_uri'), corp.redirectUrl);
  t.is(url.searchParams.get('code_challenge_method'), 'S256');
  t.truthy(url.searchParams.get('nonce'));
  t.is(url.searchParams.get('scope'), 'openid email profile');
  t.is(started.answer.headers.get('cache-control'), 'no-store');

  const redirect = await op.signIn(started.authorizationUrl, sub);
  const created = await callback(bed.url, 'corp', { ...callbackParams(redirect), clientBinding: started.clientBinding }, ip);
  t.is(created.status, 201, JSON.stringify(created.body));
  t.is(created.body.status, 'signed_in');
  const user = created.body.user as { id: string; username: string; displayName: string; email: string | null };
  t.is(user.username, 'Marta.K');
  t.is(user.displayName, 'Marta Kowalska');
  t.is(user.email, `${sub}@example.com`);
  const me = await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(created.body.accessToken)));
  t.is((me.body.user as { id: string }).id, user.id);

  const again = await signInWith(bed.url, op, 'corp', sub, ip);
  t.is(again.status, 200);
  t.is((again.body.user as { id: string }).id, user.id);
  const { rows } = await bed.pool.query<{ user_id: string; last_login_at: Date | null }>('SELECT user_id, last_login_at FROM oauth2_bindings WHERE instance_name = $1 AND subject = $2', ['corp', sub]);
  t.is(rows.length, 1);
  t.is(rows[0]?.user_id, user.id);
  t.truthy(rows[0]?.last_login_at);
});

test.serial('a taken or unusable username is derived into a free one; unverified email is not kept', async (t) => {
  const first = await signInWith(bed.url, op, 'corp', person({ preferred_username: 'samesame' }), uniqueIp());
  t.is((first.body.user as { username: string }).username, 'samesame');
  const second = await signInWith(bed.url, op, 'corp', person({ preferred_username: 'SameSame', email_verified: false }), uniqueIp());
  t.is(second.status, 201);
  const user = second.body.user as { username: string; email: string | null };
  t.regex(user.username, /^SameSame-\d{4}$/);
  t.is(user.email, null);

  // Too short after reduction ("x"), so the email's local part is used, reduced to the rule.
  const odd = await signInWith(bed.url, op, 'corp', person({ preferred_username: '  ..x', email: 'jan.kowalski+tv@example.com' }), uniqueIp());
  t.is(odd.status, 201);
  t.is((odd.body.user as { username: string }).username, 'jan.kowalski_tv');
});

test.serial('browsers carry the client binding in an httpOnly cookie, and the GET variant redirects', async (t) => {
  const sub = person();
  const ip = uniqueIp();
  const started = await call(`${bed.url}/api/auth/oauth2/corp/authorize`, 'POST', undefined, { 'x-forwarded-for': ip });
  t.is(started.status, 200);
  t.is(started.body.clientBinding, undefined);
  const cookie = started.headers.get('set-cookie') ?? '';
  t.regex(cookie, /^svc_oauth2=[A-Za-z0-9_-]{43};/);
  t.regex(cookie, /path=\/api\/auth\/oauth2/i);
  t.regex(cookie, /httponly/i);
  t.regex(cookie, /samesite=strict/i);
  const jar = cookie.split(';')[0]!;

  const redirect = await op.signIn(String(started.body.authorizationUrl), sub);
  const created = await call(`${bed.url}/api/auth/oauth2/corp/callback`, 'POST', callbackParams(redirect), { 'x-forwarded-for': ip, cookie: jar });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.is(created.body.refreshToken, undefined);
  t.regex(created.headers.get('set-cookie') ?? '', /svc_refresh=/);

  // The link variant: same flow, answered as a redirect; the browser keeps its binding.
  const link = await fetch(`${bed.url}/api/auth/oauth2/corp/authorize`, { redirect: 'manual', headers: { 'x-forwarded-for': ip, cookie: jar } });
  t.is(link.status, 302);
  const location = link.headers.get('location') ?? '';
  t.true(location.startsWith(`${op.issuer}/`));
  t.is(link.headers.get('set-cookie')?.split(';')[0], jar);
  const linked = await call(`${bed.url}/api/auth/oauth2/corp/callback`, 'POST', callbackParams(await op.signIn(location, sub)), { 'x-forwarded-for': ip, cookie: jar });
  t.is(linked.status, 200);
});

test.serial('a callback without the binding of the client that started it is refused (login CSRF)', async (t) => {
  const ip = uniqueIp();
  const started = await authorize(bed.url, 'corp', ip);
  const params = callbackParams(await op.signIn(started.authorizationUrl, person()));
  // Planted on a victim: their client has no binding, or its own.
  const victim = await callback(bed.url, 'corp', { ...params, clientBinding: randomBytes(32).toString('base64url') }, ip);
  t.is(victim.status, 401);
  t.is(victim.body.code, 'unauthenticated');
  t.regex(String(victim.body.message), /started by another browser or app/);
  // The state was spent by that attempt: the planted link is dead for everyone.
  const attacker = await callback(bed.url, 'corp', { ...params, clientBinding: started.clientBinding }, ip);
  t.is(attacker.status, 401);
  t.regex(String(attacker.body.message), /unknown, expired or already used/);
});

test.serial('a state is good once: a replayed callback is refused', async (t) => {
  const ip = uniqueIp();
  const started = await authorize(bed.url, 'corp', ip);
  const body = { ...callbackParams(await op.signIn(started.authorizationUrl, person())), clientBinding: started.clientBinding };
  t.is((await callback(bed.url, 'corp', body, ip)).status, 201);
  const replay = await callback(bed.url, 'corp', body, ip);
  t.is(replay.status, 401);
  t.is(replay.body.code, 'unauthenticated');
  t.regex(String(replay.body.message), /state is unknown, expired or already used; start the sign-in again/);
  const { rowCount } = await bed.pool.query('SELECT 1 FROM sessions WHERE method = $1', ['oauth2:corp']);
  t.true((rowCount ?? 0) >= 1);
});

test.serial('a state issued for one instance does not finish a sign-in at another', async (t) => {
  const ip = uniqueIp();
  const started = await authorize(bed.url, 'corp', ip);
  const body = { ...callbackParams(await op.signIn(started.authorizationUrl, person())), clientBinding: started.clientBinding };
  const crossed = await callback(bed.url, 'other', body, ip);
  t.is(crossed.status, 401);
  t.regex(String(crossed.body.message), /state was issued for OAuth2 instance "corp", not "other"/);
  // Spent there: it cannot be taken back to its own instance either.
  t.is((await callback(bed.url, 'corp', body, ip)).status, 401);
});

test.serial('an ID token whose nonce is not the one svc sent is refused', async (t) => {
  const ip = uniqueIp();
  const started = await authorize(bed.url, 'corp', ip);
  // The authorization request altered on its way through the browser: the provider signs the
  // nonce it was given, which is not the one svc keeps for this state.
  const tampered = new URL(started.authorizationUrl);
  tampered.searchParams.set('nonce', randomBytes(16).toString('base64url'));
  const sub = person();
  const params = callbackParams(await op.signIn(tampered.href, sub));
  const answer = await callback(bed.url, 'corp', { ...params, clientBinding: started.clientBinding }, ip);
  t.is(answer.status, 401);
  t.is(answer.body.code, 'unauthenticated');
  t.regex(String(answer.body.message), /nonce/);
  const { rowCount } = await bed.pool.query('SELECT 1 FROM oauth2_bindings WHERE subject = $1', [sub]);
  t.is(rowCount, 0);
});

test.serial('an error from the provider ends the flow with its words', async (t) => {
  const ip = uniqueIp();
  const started = await authorize(bed.url, 'corp', ip);
  const state = new URL(started.authorizationUrl).searchParams.get('state')!;
  const denied = await callback(bed.url, 'corp', { state, error: 'access_denied', error_description: 'End-User aborted interaction', clientBinding: started.clientBinding }, ip);
  t.is(denied.status, 401);
  t.regex(String(denied.body.message), /provider ended the sign-in with access_denied \(End-User aborted interaction\)/);
  const unknownField = await callback(bed.url, 'corp', { state: 'x'.repeat(43), clientBinding: started.clientBinding, admin: true }, ip);
  t.is(unknownField.status, 400);
  t.deepEqual(unknownField.body.issues, [{ key: 'admin', message: 'is not a known field' }]);
});

test.serial('the redirect URL is used exactly as configured, query included, in both requests', async (t) => {
  const ip = uniqueIp();
  const started = await authorize(bed.url, 'query', ip);
  t.is(new URL(started.authorizationUrl).searchParams.get('redirect_uri'), query.redirectUrl);
  const redirect = await op.signIn(started.authorizationUrl, person());
  t.true(redirect.startsWith(`${query.redirectUrl}&`));
  // The provider checks the token request's redirect_uri against the authorization request's.
  const created = await callback(bed.url, 'query', { ...callbackParams(redirect), clientBinding: started.clientBinding }, ip);
  t.is(created.status, 201, JSON.stringify(created.body));
});

test.serial('enableSignup false refuses only new identities: bound ones keep signing in', async (t) => {
  const known = person();
  t.is((await signInWith(bed.url, op, 'corp', known, uniqueIp())).status, 201);
  await configure({ corp: { enableSignup: false } });
  try {
    const stranger = await signInWith(bed.url, op, 'corp', person(), uniqueIp());
    t.is(stranger.status, 403);
    t.is(stranger.body.code, 'signup_disabled');
    t.regex(String(stranger.body.message), /enableSignup of instance "corp"/);
    const again = await signInWith(bed.url, op, 'corp', known, uniqueIp());
    t.is(again.status, 200);
    t.is(again.body.status, 'signed_in');
  } finally {
    await configure();
  }
});

test.serial('signupNeedReview: 202, then review_pending; approval creates the account with its binding', async (t) => {
  const sub = person({ preferred_username: 'reviewme' });
  const pending = await signInWith(bed.url, op, 'reviewed', sub, uniqueIp());
  t.is(pending.status, 202);
  t.deepEqual(pending.body, { status: 'pending_review', reviewId: `registration-review:oauth2:reviewed:${sub}` });
  t.is((await bed.pool.query('SELECT 1 FROM users WHERE username_key = $1', ['reviewme'])).rowCount, 0);

  const early = await signInWith(bed.url, op, 'reviewed', sub, uniqueIp());
  t.is(early.status, 403);
  t.is(early.body.code, 'review_pending');

  // The review holds the provider tokens sealed, never in clear.
  const review = await bed.pool.query<{ payload: string }>('SELECT payload FROM registration_reviews WHERE id = $1', [pending.body.reviewId]);
  const opened = await bed.accounts.registration.openOrRejectedReview({ externalKey: `reviewed:${sub}` });
  const credential = opened?.account.credential;
  t.is(credential?.type, 'oauth2');
  const accessToken = credential?.type === 'oauth2' ? String(credential.binding.tokens?.access_token) : '';
  t.true(accessToken.length > 10);
  t.false(review.rows[0]!.payload.includes(accessToken));

  const started = bed.reviews.started.find((entry) => entry.reviewId === pending.body.reviewId)!;
  t.is(started.mode, 'oauth2');
  const { userId } = await bed.accounts.registration.approve({ reviewId: started.reviewId, sealedPayload: started.sealedPayload, reviewer: 'rita' });
  const binding = await bed.pool.query<{ user_id: string }>('SELECT user_id FROM oauth2_bindings WHERE instance_name = $1 AND subject = $2', ['reviewed', sub]);
  t.is(binding.rows[0]?.user_id, userId);

  const signedIn = await signInWith(bed.url, op, 'reviewed', sub, uniqueIp());
  t.is(signedIn.status, 200);
  t.is((signedIn.body.user as { id: string; username: string }).id, userId);
  t.is((signedIn.body.user as { username: string }).username, 'reviewme');
});

test.serial('a rejected signup says so with the reason', async (t) => {
  const sub = person();
  const pending = await signInWith(bed.url, op, 'reviewed', sub, uniqueIp());
  await bed.accounts.registration.reject({ reviewId: String(pending.body.reviewId), reviewer: 'rita', reason: 'not from our company' });
  const answer = await signInWith(bed.url, op, 'reviewed', sub, uniqueIp());
  t.is(answer.status, 403);
  t.is(answer.body.code, 'review_rejected');
  t.regex(String(answer.body.message), /not from our company/);
});

test.serial('an instance removed from the setting stops at once: authorize and a callback in flight', async (t) => {
  const ip = uniqueIp();
  const started = await authorize(bed.url, 'other', ip);
  const params = callbackParams(await op.signIn(started.authorizationUrl, person()));
  await configure({}, ['corp', 'reviewed', 'query']);
  try {
    const late = await callback(bed.url, 'other', { ...params, clientBinding: started.clientBinding }, ip);
    t.is(late.status, 404);
    t.is(late.body.code, 'not_found');
    t.regex(String(late.body.message), /no OAuth2 provider instance "other"/);
    t.is((await authorize(bed.url, 'other', ip)).answer.status, 404);
    const listed = await call<{ providers: Array<{ instanceName: string }> }>(`${bed.url}/api/auth/oauth2`, 'GET');
    t.deepEqual(listed.body.providers.map((p) => p.instanceName), ['corp', 'reviewed', 'query']);
  } finally {
    await configure();
  }
});

test.serial('a sign-in started under other client settings is not finished under the new ones', async (t) => {
  const ip = uniqueIp();
  const started = await authorize(bed.url, 'other', ip);
  const params = callbackParams(await op.signIn(started.authorizationUrl, person()));
  await configure({ other: { clientSecret: 'rotated-secret' } });
  try {
    const answer = await callback(bed.url, 'other', { ...params, clientBinding: started.clientBinding }, ip);
    t.is(answer.status, 401);
    t.regex(String(answer.body.message), /settings of OAuth2 instance "other" changed during the sign-in/);
  } finally {
    await configure();
  }
});

test.serial('provider tokens are sealed at rest in oauth2_bindings', async (t) => {
  const sub = person();
  t.is((await signInWith(bed.url, op, 'corp', sub, uniqueIp())).status, 201);
  const { rows } = await bed.pool.query<{ provider_tokens: string }>('SELECT provider_tokens FROM oauth2_bindings WHERE instance_name = $1 AND subject = $2', ['corp', sub]);
  const sealed = rows[0]!.provider_tokens;
  t.regex(sealed, /^v1\./);
  const tokens = JSON.parse(bed.accounts.box.openText(sealed, `oauth2-tokens:corp:${sub}`)) as Record<string, unknown>;
  t.is(typeof tokens.access_token, 'string');
  t.is(tokens.id_token, undefined);
  t.false(sealed.includes(String(tokens.access_token)));
  t.false(sealed.includes('access_token'));
});

test.serial('a banned account cannot sign in through its provider identity', async (t) => {
  const sub = person();
  const created = await signInWith(bed.url, op, 'corp', sub, uniqueIp());
  await bed.pool.query("UPDATE users SET state = 'banned' WHERE id = $1", [(created.body.user as { id: string }).id]);
  const answer = await signInWith(bed.url, op, 'corp', sub, uniqueIp());
  t.is(answer.status, 403);
  t.is(answer.body.code, 'account_banned');
});

test.serial('two-factor authentication applies to provider sign-ins', async (t) => {
  const sub = person();
  const ip = uniqueIp();
  const created = await signInWith(bed.url, op, 'corp', sub, ip);
  const auth = { ...bearer(String(created.body.accessToken)), 'x-forwarded-for': ip };
  const setup = await call<{ secret: string }>(`${bed.url}/api/auth/2fa/totp/setup`, 'POST', undefined, auth);
  const enabled = await call(`${bed.url}/api/auth/2fa/totp/enable`, 'POST', { code: await generate({ secret: setup.body.secret }) }, auth);
  t.is(enabled.status, 200);
  const answer = await signInWith(bed.url, op, 'corp', sub, ip);
  t.is(answer.status, 200);
  t.is(answer.body.status, 'second_factor_required');
  t.is(answer.body.accessToken, undefined);
});

test.serial('starting sign-ins is rate limited per address', async (t) => {
  const ip = uniqueIp();
  let answer = await authorize(bed.url, 'corp', ip);
  for (let i = 0; i < 40 && answer.answer.status === 200; i++) answer = await authorize(bed.url, 'corp', ip);
  t.is(answer.answer.status, 429);
  t.is(answer.answer.body.code, 'rate_limited');
  t.true(Number(answer.answer.headers.get('retry-after')) > 0);
  // Another address is not affected.
  t.is((await authorize(bed.url, 'corp', uniqueIp())).answer.status, 200);
});

test('the OpenAPI document lists the OAuth2 endpoints', async (t) => {
  const document = await call<{ paths: Record<string, Record<string, unknown>> }>(`${bed.url}/api/openapi.json`, 'GET');
  for (const path of ['/api/auth/oauth2', '/api/auth/oauth2/{instance}/authorize', '/api/auth/oauth2/{instance}/callback', '/api/me/oauth2', '/api/me/oauth2/{instance}', '/api/me/oauth2/{instance}/authorize']) {
    t.truthy(document.body.paths[path], path);
  }
  t.truthy(document.body.paths['/api/auth/oauth2/{instance}/authorize']?.get);
  t.truthy(document.body.paths['/api/auth/oauth2/{instance}/authorize']?.post);
});
