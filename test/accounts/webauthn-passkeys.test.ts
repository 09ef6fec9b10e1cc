/**
 * A signed-in user's passkeys over HTTP: binding more (not a signup, so passkey signup may be
 * off), listing, deleting only one's own and never the last way in, guests kept out, binding
 * failures reported as bad fields, and the second factor still asked after a passkey sign-in.
 */
import test from 'ava';
import { generate } from 'otplib';
import { SoftAuthenticator } from '../fixtures/soft-authenticator.js';
import { bearer, call, native, uniqueIp, startAccountsBed, uname, WEBAUTHN, type AccountsBed } from './fixtures.js';
import { PasskeyClient } from './webauthn-client.js';

let bed: AccountsBed;
test.before(async () => {
  bed = await startAccountsBed('accounts-webauthn-passkeys');
  // Accounts here start with a password; passkey signup stays off throughout.
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: false, enableWebauthnSignup: false });
});
test.after.always(async () => {
  await bed?.close();
});

const PASSWORD = 'correct horse battery';
const authenticator = (): SoftAuthenticator => SoftAuthenticator.create(WEBAUTHN.rp_origin);

interface Account {
  name: string;
  userId: string;
  token: string;
  ip: string;
  client: PasskeyClient;
}

async function passwordAccount(): Promise<Account> {
  const name = uname('pk');
  const ip = uniqueIp();
  const created = await call(`${bed.url}/api/auth/password/register`, 'POST', { username: name, password: PASSWORD }, { ...native, 'x-forwarded-for': ip });
  if (created.status !== 201) throw new Error(`signup answered ${created.status}: ${JSON.stringify(created.body)}`);
  return { name, ip, userId: (created.body.user as { id: string }).id, token: String(created.body.accessToken), client: new PasskeyClient(bed.url, ip) };
}

async function bound(account: Account, name?: string): Promise<SoftAuthenticator> {
  const auth = authenticator();
  const answer = await account.client.bind(auth, account.token, name ? { name } : {});
  if (answer.status !== 201) throw new Error(`bind answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return auth;
}

test.serial('binding a passkey is not a signup: it works with passkey signup off, and the passkey signs in', async (t) => {
  const account = await passwordAccount();
  const auth = authenticator();
  const options = await account.client.bindOptions(account.token);
  t.is(options.status, 200);
  t.is(options.body.options.user.name, account.name);
  t.deepEqual(options.body.options.excludeCredentials, []);
  const added = await account.client.bindVerify(account.token, { challengeId: options.body.challengeId, response: auth.register(options.body.options), name: 'Laptop' });
  t.is(added.status, 201);
  t.like(added.body, { id: auth.credentialId, name: 'Laptop', transports: ['internal'], lastUsedAt: null });

  const signedIn = await new PasskeyClient(bed.url, uniqueIp()).login(auth);
  t.is(signedIn.status, 200);
  t.is((signedIn.body.user as { id: string }).id, account.userId);
});

test.serial("bind options exclude the account's passkeys; the same passkey twice is a conflict", async (t) => {
  const account = await passwordAccount();
  const first = await bound(account);
  const options = await account.client.bindOptions(account.token);
  t.deepEqual(
    options.body.options.excludeCredentials.map((c) => c.id),
    [first.credentialId],
  );
  // A client that ignores the list gets the conflict from the server.
  const again = await account.client.bindVerify(account.token, { challengeId: options.body.challengeId, response: first.register(options.body.options, { ignoreCredentialLists: true }) });
  t.is(again.status, 409);
  t.is(again.body.code, 'conflict');
  t.is((await account.client.list(account.token)).body.passkeys.length, 1);
});

test.serial('list and delete your own passkeys; nobody else can delete them', async (t) => {
  const owner = await passwordAccount();
  const phone = await bound(owner, 'Phone');
  const key = await bound(owner, 'Security key');
  t.is((await new PasskeyClient(bed.url, uniqueIp()).login(phone)).status, 200);

  const listed = await owner.client.list(owner.token);
  t.is(listed.status, 200);
  t.deepEqual(
    listed.body.passkeys.map((p) => [p.id, p.name]),
    [
      [phone.credentialId, 'Phone'],
      [key.credentialId, 'Security key'],
    ],
  );
  t.truthy(listed.body.passkeys[0]!.lastUsedAt);
  t.is(listed.body.passkeys[1]!.lastUsedAt, null);
  t.false(JSON.stringify(listed.body).includes('publicKey'));

  const other = await passwordAccount();
  t.deepEqual((await other.client.list(other.token)).body.passkeys, []);
  const stolen = await other.client.remove(other.token, phone.credentialId);
  t.is(stolen.status, 404);
  t.is(stolen.body.code, 'not_found');
  t.is((await owner.client.list(owner.token)).body.passkeys.length, 2);

  t.is((await owner.client.remove(owner.token, phone.credentialId)).status, 204);
  t.deepEqual(
    (await owner.client.list(owner.token)).body.passkeys.map((p) => p.id),
    [key.credentialId],
  );
  const gone = await new PasskeyClient(bed.url, uniqueIp()).login(phone);
  t.is(gone.status, 401);
  t.regex(String(gone.body.message), /not registered/);
  t.is((await owner.client.remove(owner.token, phone.credentialId)).status, 404);
});

test.serial('the only way into an account cannot be deleted', async (t) => {
  await bed.set('user', { enableWebauthnSignup: true });
  let signup;
  const auth = authenticator();
  const ip = uniqueIp();
  try {
    signup = await new PasskeyClient(bed.url, ip).signup(auth, uname());
  } finally {
    await bed.set('user', { enableWebauthnSignup: false });
  }
  t.is(signup.status, 201);
  const token = String(signup.body.accessToken);
  const client = new PasskeyClient(bed.url, ip);
  const refused = await client.remove(token, auth.credentialId);
  t.is(refused.status, 409);
  t.regex(String(refused.body.message), /only way to sign in/);
  // With a second passkey, the first may go.
  const second = authenticator();
  t.is((await client.bind(second, token)).status, 201);
  t.is((await client.remove(token, auth.credentialId)).status, 204);
  t.is((await new PasskeyClient(bed.url, uniqueIp()).login(second)).status, 200);
});

test.serial('guests and anonymous callers cannot bind or list passkeys', async (t) => {
  const ip = uniqueIp();
  const guest = await call(`${bed.url}/api/auth/guest`, 'POST', { displayName: 'Visitor' }, { ...native, 'x-forwarded-for': ip });
  t.is(guest.status, 200);
  const client = new PasskeyClient(bed.url, ip);
  const token = String(guest.body.accessToken);
  const options = await client.bindOptions(token);
  t.is(options.status, 403);
  t.is(options.body.code, 'forbidden');
  t.is((await client.list(token)).status, 403);
  t.is((await call(`${bed.url}/api/me/passkeys/options`, 'POST')).status, 401);
});

test.serial('a bind challenge belongs to its account and works once; failures are bad fields, not a bad session', async (t) => {
  const alice = await passwordAccount();
  const mallory = await passwordAccount();
  const options = await alice.client.bindOptions(alice.token);
  const response = authenticator().register(options.body.options);
  const taken = await mallory.client.bindVerify(mallory.token, { challengeId: options.body.challengeId, response });
  t.is(taken.status, 400);
  t.deepEqual(taken.body.issues, [{ key: 'challengeId', message: 'was issued to another account' }]);
  const replay = await alice.client.bindVerify(alice.token, { challengeId: options.body.challengeId, response });
  t.is(replay.status, 400);
  t.is((replay.body.issues as Array<{ key: string }>)[0]?.key, 'challengeId');

  const phished = await alice.client.bind(authenticator(), alice.token, { overrides: { origin: 'https://svc-login.example' } });
  t.is(phished.status, 400);
  t.is((phished.body.issues as Array<{ key: string }>)[0]?.key, 'response');
  t.regex(String(phished.body.message), /origin/);
  t.is((await call(`${bed.url}/api/me`, 'GET', undefined, bearer(alice.token))).status, 200);
  t.deepEqual((await alice.client.list(alice.token)).body.passkeys, []);
});

test.serial('with two-factor on, a passkey sign-in asks for the second factor', async (t) => {
  const account = await passwordAccount();
  const auth = await bound(account);
  const post = (path: string, body?: unknown) => call(`${bed.url}${path}`, 'POST', body, { ...native, 'x-forwarded-for': account.ip, ...bearer(account.token) });
  const setup = await post('/api/auth/2fa/totp/setup');
  const secret = String(setup.body.secret);
  const now = Math.floor(Date.now() / 1000);
  t.is((await post('/api/auth/2fa/totp/enable', { code: await generate({ secret, epoch: now }) })).status, 200);

  const first = await new PasskeyClient(bed.url, uniqueIp()).login(auth);
  t.is(first.status, 200);
  t.is(first.body.status, 'second_factor_required');
  t.is(first.body.accessToken, undefined);
  const verified = await call(
    `${bed.url}/api/auth/2fa/verify`,
    'POST',
    { challengeToken: first.body.challengeToken, code: await generate({ secret, epoch: now + 30 }) },
    { ...native, 'x-forwarded-for': uniqueIp() },
  );
  t.is(verified.status, 200);
  t.is((verified.body.user as { id: string }).id, account.userId);
});
