/**
 * Passkey signup and sign-in over HTTP with real ceremonies: a software authenticator on
 * node:crypto answers the server's options, and the server verifies what it signed. Covers the
 * signup flag and its review flag, approval creating the account with the pending passkey, and
 * the refusals: another origin or RP ID, a replayed challenge, a bad signature, a missing user
 * verification, and a cloned authenticator whose counter falls behind.
 */
import test, { type ExecutionContext } from 'ava';
import { flipBit, SoftAuthenticator } from '../fixtures/soft-authenticator.js';
import { bearer, call, uniqueIp, startAccountsBed, uname, WEBAUTHN, type AccountsBed, type Answer } from './fixtures.js';
import { PasskeyClient } from './webauthn-client.js';

let bed: AccountsBed;
test.before(async () => {
  bed = await startAccountsBed('accounts-webauthn-signup');
});
test.after.always(async () => {
  await bed?.close();
});

const ORIGIN = WEBAUTHN.rp_origin;
/** A client on an address of its own, so per-address limits of one test do not touch another. */
const client = (): PasskeyClient => new PasskeyClient(bed.url, uniqueIp());
const authenticator = (): SoftAuthenticator => SoftAuthenticator.create(ORIGIN);

async function signedUp(name = uname('pk')): Promise<{ name: string; auth: SoftAuthenticator; userId: string; token: string }> {
  const auth = authenticator();
  const created = await client().signup(auth, name);
  if (created.status !== 201) throw new Error(`signup answered ${created.status}: ${JSON.stringify(created.body)}`);
  return { name, auth, userId: (created.body.user as { id: string }).id, token: String(created.body.accessToken) };
}

async function storedCounter(credentialId: string): Promise<number | undefined> {
  const { rows } = await bed.pool.query<{ counter: string }>('SELECT counter FROM webauthn_credentials WHERE id = $1', [credentialId]);
  return rows[0] && Number(rows[0].counter);
}

function refused(t: ExecutionContext, answer: Answer, message: RegExp): void {
  t.is(answer.status, 401);
  t.is(answer.body.code, 'unauthenticated');
  t.regex(String(answer.body.message), message);
}

test.serial('passkey signup is off by default and names the setting that turns it on', async (t) => {
  const answer = await client().signupOptions(uname());
  t.is(answer.status, 403);
  t.is(answer.body.code, 'signup_disabled');
  t.regex(String(answer.body.message), /user\.enableWebauthnSignup/);
});

test.serial('signup with a passkey creates the account and signs in; the passkey then signs in with and without a username', async (t) => {
  await bed.set('user', { enableWebauthnSignup: true, webauthnSignupNeedReview: false });
  const name = uname('Alice');
  const auth = authenticator();
  const c = client();
  const options = await c.signupOptions(name, 'Alice A.');
  t.is(options.status, 200);
  t.is(options.body.options.rp.id, WEBAUTHN.rp_id);
  t.is(options.body.options.user.name, name);
  t.is(options.body.options.user.displayName, 'Alice A.');
  const created = await c.signupVerify({ challengeId: options.body.challengeId, response: auth.register(options.body.options), name: 'Phone' });
  t.is(created.status, 201);
  t.is(created.body.status, 'signed_in');
  const user = created.body.user as { id: string; username: string; displayName: string };
  t.is(user.username, name);
  t.is(user.displayName, 'Alice A.');
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(String(created.body.accessToken)))).status, 200);

  const { rows } = await bed.pool.query<{ user_id: string; name: string; counter: string; transports: string[] }>(
    'SELECT user_id, name, counter, transports FROM webauthn_credentials WHERE id = $1',
    [auth.credentialId],
  );
  t.deepEqual(rows, [{ user_id: user.id, name: 'Phone', counter: '0', transports: ['internal'] }]);

  const discoverable = await client().login(auth);
  t.is(discoverable.status, 200);
  t.is(discoverable.body.status, 'signed_in');
  t.is((discoverable.body.user as { id: string }).id, user.id);

  const byName = await client().login(auth, { username: name.toUpperCase() });
  t.is(byName.status, 200);
  t.is((byName.body.user as { id: string }).id, user.id);

  // Two assertions: the counter followed the authenticator and the use was recorded.
  t.is(await storedCounter(auth.credentialId), 2);
  const used = await bed.pool.query('SELECT 1 FROM webauthn_credentials WHERE id = $1 AND last_used_at IS NOT NULL', [auth.credentialId]);
  t.is(used.rowCount, 1);
});

test.serial('a taken username is refused before any passkey is made', async (t) => {
  const { name } = await signedUp();
  const again = await client().signupOptions(name.toUpperCase());
  t.is(again.status, 409);
  t.deepEqual(again.body.issues, [{ key: 'username', message: 'is taken' }]);
});

test.serial('the signup flag is checked again at verify: turned off in between, the signup is refused', async (t) => {
  const c = client();
  const name = uname();
  const options = await c.signupOptions(name);
  t.is(options.status, 200);
  await bed.set('user', { enableWebauthnSignup: false });
  try {
    const answer = await c.signupVerify({ challengeId: options.body.challengeId, response: authenticator().register(options.body.options) });
    t.is(answer.status, 403);
    t.is(answer.body.code, 'signup_disabled');
    const { rowCount } = await bed.pool.query('SELECT 1 FROM users WHERE username_key = lower($1)', [name]);
    t.is(rowCount, 0);
  } finally {
    await bed.set('user', { enableWebauthnSignup: true });
  }
});

test.serial('sign-in keeps working for existing passkeys when passkey signup is off', async (t) => {
  const { auth, userId } = await signedUp();
  await bed.set('user', { enableWebauthnSignup: false });
  try {
    const answer = await client().login(auth);
    t.is(answer.status, 200);
    t.is((answer.body.user as { id: string }).id, userId);
  } finally {
    await bed.set('user', { enableWebauthnSignup: true });
  }
});

test.serial('a registration or an assertion made for another origin or RP ID is refused', async (t) => {
  const name = uname();
  const phished = await client().signup(authenticator(), name, { origin: 'https://svc-login.example' });
  refused(t, phished, /origin "https:\/\/svc-login\.example"/);
  const otherRp = await client().signup(authenticator(), name, { rpId: 'example.com' });
  refused(t, otherRp, /RP ID/);
  const { rowCount } = await bed.pool.query('SELECT 1 FROM users WHERE username_key = lower($1)', [name]);
  t.is(rowCount, 0);

  const { auth } = await signedUp();
  refused(t, await client().login(auth, { overrides: { origin: 'https://svc-login.example' } }), /origin/);
  refused(t, await client().login(auth, { overrides: { rpId: 'example.com' } }), /RP ID/);
  // Refused assertions do not move the stored counter.
  t.is(await storedCounter(auth.credentialId), 0);
  t.is((await client().login(auth)).status, 200);
});

test.serial('a challenge works once: a replayed signup or sign-in response is refused', async (t) => {
  const c = client();
  const name = uname();
  const auth = authenticator();
  const options = await c.signupOptions(name);
  const body = { challengeId: options.body.challengeId, response: auth.register(options.body.options) };
  t.is((await c.signupVerify(body)).status, 201);
  refused(t, await c.signupVerify(body), /signup challenge is unknown, expired or already used/);

  const login = await c.loginOptions();
  const assertion = { challengeId: login.body.challengeId, response: auth.authenticate(login.body.options) };
  t.is((await c.loginVerify(assertion)).status, 200);
  refused(t, await c.loginVerify(assertion), /login challenge is unknown, expired or already used/);

  // The old response under a fresh challenge: it signed the old challenge, not this one.
  const fresh = await c.loginOptions();
  refused(t, await c.loginVerify({ challengeId: fresh.body.challengeId, response: assertion.response }), /challenge/);
  // A signup challenge does not finish a sign-in.
  const signupChallenge = await c.signupOptions(uname());
  refused(t, await c.loginVerify({ challengeId: signupChallenge.body.challengeId, response: auth.authenticate(signupChallenge.body.options) }), /login challenge is unknown/);
});

test.serial('a cloned authenticator is refused once the original has moved the counter on', async (t) => {
  const { auth, userId } = await signedUp();
  const copy = auth.clone();
  t.is((await client().login(auth)).status, 200);
  t.is(await storedCounter(auth.credentialId), 1);

  // The copy signs with counter 1, which the server has already seen.
  const cloned = await client().login(copy);
  refused(t, cloned, /counter did not advance \(last seen 1, presented 1\).*cloned/);
  t.is(await storedCounter(auth.credentialId), 1);
  const lower = auth.clone();
  lower.setCounter(0);
  refused(t, await client().login(lower), /last seen 1, presented 1/);

  // The original goes on.
  const next = await client().login(auth);
  t.is(next.status, 200);
  t.is((next.body.user as { id: string }).id, userId);
  t.is(await storedCounter(auth.credentialId), 2);
});

test.serial('an authenticator that keeps no counter (always 0) signs in every time', async (t) => {
  const auth = SoftAuthenticator.create(ORIGIN, { counts: false });
  t.is((await client().signup(auth, uname())).status, 201);
  t.is((await client().login(auth)).status, 200);
  t.is((await client().login(auth)).status, 200);
  t.is(await storedCounter(auth.credentialId), 0);
});

test.serial('a bad signature and a missing user verification are refused', async (t) => {
  const { auth } = await signedUp();
  const c = client();
  const options = await c.loginOptions();
  const response = auth.authenticate(options.body.options);
  const forged = { ...response, response: { ...response.response, signature: flipBit(response.response.signature) } };
  refused(t, await c.loginVerify({ challengeId: options.body.challengeId, response: forged }), /did not verify/);
  refused(t, await client().login(auth, { overrides: { userVerified: false } }), /User verification/);
  refused(t, await client().signup(authenticator(), uname(), { userVerified: false }), /User verification/);
});

test.serial('a passkey the server does not know is refused, and says so', async (t) => {
  refused(t, await client().login(authenticator()), /not registered on this server/);
});

test.serial('sign-in options show every username the same way, and a username-bound challenge takes only its passkeys', async (t) => {
  const alice = await signedUp();
  const bob = await signedUp();
  const c = client();
  const known = await c.loginOptions(alice.name);
  t.deepEqual(
    known.body.options.allowCredentials?.map((x) => x.id),
    [alice.auth.credentialId],
  );
  // An unknown username gets one stand-in id, the same each time, shaped like a real one.
  const ghost = uname('ghost');
  const first = await c.loginOptions(ghost);
  const second = await c.loginOptions(ghost);
  t.is(first.body.options.allowCredentials?.length, 1);
  t.deepEqual(first.body.options.allowCredentials, second.body.options.allowCredentials);
  t.regex(first.body.options.allowCredentials![0]!.id, /^[A-Za-z0-9_-]{43}$/);

  // Bob's passkey against a challenge issued for Alice.
  const forAlice = await c.loginOptions(alice.name);
  const answer = await c.loginVerify({ challengeId: forAlice.body.challengeId, response: bob.auth.authenticate(forAlice.body.options, { ignoreCredentialLists: true }) });
  refused(t, answer, /does not belong to the account/);
});

test.serial('malformed responses are invalid_argument naming the field; nothing is written', async (t) => {
  const c = client();
  const name = uname();
  const options = await c.signupOptions(name);
  const response = authenticator().register(options.body.options);
  const notBase64 = await c.signupVerify({ challengeId: options.body.challengeId, response: { ...response, id: 'not base64url!' } });
  t.is(notBase64.status, 400);
  t.is((notBase64.body.issues as Array<{ key: string }>)[0]?.key, 'response.id');
  const unknownField = await c.signupVerify({ challengeId: options.body.challengeId, response: { ...response, response: { ...response.response, extra: 1 } } });
  t.deepEqual(unknownField.body.issues, [{ key: 'response.response.extra', message: 'is not a known field' }]);
  const wrongType = await c.signupVerify({ challengeId: options.body.challengeId, response: { ...response, type: 'password' } });
  t.is((wrongType.body.issues as Array<{ key: string }>)[0]?.key, 'response.type');
  // Refused before the challenge was looked at: it still works.
  t.is((await c.signupVerify({ challengeId: options.body.challengeId, response })).status, 201);
});

test.serial('signup under review: 202, sign-in says pending, approval creates the account with the pending passkey', async (t) => {
  await bed.set('user', { webauthnSignupNeedReview: true });
  try {
    const name = uname('carol');
    const auth = authenticator();
    const pending = await client().signup(auth, name);
    t.is(pending.status, 202);
    t.deepEqual(pending.body, { status: 'pending_review', reviewId: `registration-review:webauthn:${name.toLowerCase()}` });
    const reviewId = String(pending.body.reviewId);
    t.is(bed.reviews.started.at(-1)?.reviewId, reviewId);
    t.is((await bed.pool.query('SELECT 1 FROM webauthn_credentials WHERE id = $1', [auth.credentialId])).rowCount, 0);

    // The review holds the passkey sealed: neither its id nor its key is readable in the row.
    const { rows } = await bed.pool.query<{ payload: string; external_key: string }>('SELECT payload, external_key FROM registration_reviews WHERE id = $1', [reviewId]);
    const row = rows[0]!;
    t.is(row.external_key, auth.credentialId);
    t.false(row.payload.includes(auth.credentialId));
    t.false(row.payload.includes(name));

    // The owner, proving the passkey, learns the state; by username as well as discoverable.
    const early = await client().login(auth);
    t.is(early.status, 403);
    t.is(early.body.code, 'review_pending');
    t.is((await client().login(auth, { username: name })).body.code, 'review_pending');
    // The name is held: nobody else can start a signup with it meanwhile.
    t.is((await client().signupOptions(name)).status, 409);
    // Nor can the pending passkey's id be filed a second time (its approval would then fail).
    const copied = await client().signup(auth.clone(), uname());
    t.is(copied.status, 409);
    t.regex(String(copied.body.message), /already registered/);

    const approved = await bed.accounts.registration.approve({ reviewId, sealedPayload: row.payload, reviewer: 'rita' });
    const signedIn = await client().login(auth);
    t.is(signedIn.status, 200);
    t.is(signedIn.body.status, 'signed_in');
    t.is((signedIn.body.user as { id: string; username: string }).id, approved.userId);
    t.is((signedIn.body.user as { username: string }).username, name);
  } finally {
    await bed.set('user', { webauthnSignupNeedReview: false });
  }
});

test.serial('a pending review is told only to the holder of its passkey, and a rejection carries the reason', async (t) => {
  await bed.set('user', { webauthnSignupNeedReview: true });
  try {
    const name = uname('dan');
    const auth = authenticator();
    const pending = await client().signup(auth, name);
    t.is(pending.status, 202);

    // A forged assertion for the pending credential id: refused without naming the review.
    const c = client();
    const options = await c.loginOptions();
    const response = auth.authenticate(options.body.options);
    const forged = { ...response, response: { ...response.response, signature: flipBit(response.response.signature) } };
    const answer = await c.loginVerify({ challengeId: options.body.challengeId, response: forged });
    refused(t, answer, /did not verify/);

    await bed.accounts.registration.reject({ reviewId: String(pending.body.reviewId), reviewer: 'rita', reason: 'looks automated' });
    const rejected = await client().login(auth);
    t.is(rejected.status, 403);
    t.is(rejected.body.code, 'review_rejected');
    t.regex(String(rejected.body.message), /looks automated/);
  } finally {
    await bed.set('user', { webauthnSignupNeedReview: false });
  }
});

test.serial('failed passkey sign-ins back off with Retry-After; the owner from another address still gets in', async (t) => {
  const { auth } = await signedUp();
  const attacker = client();
  let answer = await attacker.login(auth, { overrides: { origin: 'https://svc-login.example' } });
  for (let i = 0; i < 12 && answer.status === 401; i++) answer = await attacker.login(auth, { overrides: { origin: 'https://svc-login.example' } });
  t.is(answer.status, 429);
  t.is(answer.body.code, 'rate_limited');
  t.true(Number(answer.headers.get('retry-after')) > 0);
  // Even a valid assertion from that address waits.
  t.is((await attacker.login(auth)).status, 429);
  t.is((await client().login(auth)).status, 200);
});
