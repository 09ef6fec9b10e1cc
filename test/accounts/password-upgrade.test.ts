/**
 * One sign-in button for every account (docs/2026-11-26-one-sign-in-button.md): accounts the
 * operator made or reset with an OPAQUE record sign in over OPAQUE; an account with only an
 * Argon2id hash is told so at login/start, signs in directly once, and is OPAQUE from then on;
 * the direct transport keeps working for OPAQUE accounts (the server runs OPAQUE itself).
 */
import * as opaque from '@serenity-kit/opaque';
import test from 'ava';
import { call, native, opaqueLogin, uniqueIp, startAccountsBed, uname, type AccountsBed, type Answer } from './fixtures.js';

let bed: AccountsBed;
const PASSWORD = 'correct horse battery';

test.before(async () => {
  bed = await startAccountsBed('accounts-password-upgrade');
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: false });
});
test.after.always(async () => {
  await bed?.close();
});

const from = () => ({ ...native, 'x-forwarded-for': uniqueIp() });
const directLogin = (name: string, password = PASSWORD) => call(`${bed.url}/api/auth/password/login`, 'POST', { username: name, password }, from());
const signedIn = (answer: Answer | { status: string }): boolean => answer.status === 200;

/** What login/start answers for `name`, as the web page's first step. */
async function loginStart(name: string): Promise<Record<string, unknown>> {
  await opaque.ready;
  const { startLoginRequest } = opaque.client.startLogin({ password: PASSWORD });
  const start = await call(`${bed.url}/api/auth/opaque/login/start`, 'POST', { username: name, startLoginRequest }, from());
  if (start.status !== 200) throw new Error(`login/start: ${start.status} ${JSON.stringify(start.body)}`);
  return start.body;
}

/** An OPAQUE record made the way `svc user create-root` and `reset-password` make one. */
async function cliRecord(serverMessage: (registrationRequest: string) => Promise<{ registrationResponse: string }>, password = PASSWORD): Promise<string> {
  await opaque.ready;
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password });
  const { registrationResponse } = await serverMessage(registrationRequest);
  return opaque.client.finishRegistration({ clientRegistrationState, registrationResponse, password }).registrationRecord;
}

test.serial('a root made with an OPAQUE record (as svc user create-root does) completes an OPAQUE sign-in, and a direct one', async (t) => {
  const name = uname('root');
  const registrationRecord = await cliRecord((request) => bed.accounts.admin.rootRegistrationResponse(name, request));
  const root = await bed.accounts.admin.createRoot({ username: name, registrationRecord }, { allowAdditional: true });
  t.is(root.role, 'root');
  t.is((await bed.accounts.admin.show(name)).credentials.password, 'opaque');
  t.false('useDirectPassword' in (await loginStart(name)));
  const answer = await opaqueLogin(bed.url, name, PASSWORD, from());
  t.true(signedIn(answer));
  t.is(((answer as Answer).body.user as { role: string }).role, 'root');
  // A client that cannot run OPAQUE still gets in: the server runs OPAQUE with the password.
  t.is((await directLogin(name)).status, 200);
  t.is((await directLogin(name, 'not the password')).status, 401);
});

test.serial('an account reset with an OPAQUE record (as svc user reset-password does) completes an OPAQUE sign-in', async (t) => {
  const name = uname('reset');
  t.is((await call(`${bed.url}/api/auth/password/register`, 'POST', { username: name, password: PASSWORD }, from())).status, 201);
  const registrationRecord = await cliRecord((request) => bed.accounts.admin.resetRegistrationResponse(name, request), 'a newer passphrase');
  const change = await bed.accounts.admin.resetPassword(name, { registrationRecord });
  t.is(change.revokedSessions, 1);
  t.true(signedIn(await opaqueLogin(bed.url, name, 'a newer passphrase', from())));
  t.false(signedIn(await opaqueLogin(bed.url, name, PASSWORD, from())));
});

test.serial('an Argon2id-only account is told to sign in directly, does, and then completes an OPAQUE sign-in', async (t) => {
  const name = uname('legacy');
  t.is((await call(`${bed.url}/api/auth/password/register`, 'POST', { username: name, password: PASSWORD }, from())).status, 201);
  t.is((await bed.accounts.admin.show(name)).credentials.password, 'argon2');
  t.is((await loginStart(name)).useDirectPassword, true);
  // OPAQUE cannot open it yet (there is no record), which is why the page falls back.
  t.false(signedIn(await opaqueLogin(bed.url, name, PASSWORD, from())));

  // A wrong password upgrades nothing.
  t.is((await directLogin(name, 'wrong password!')).status, 401);
  t.is((await bed.accounts.admin.show(name)).credentials.password, 'argon2');

  t.is((await directLogin(name)).status, 200);
  t.is((await bed.accounts.admin.show(name)).credentials.password, 'opaque');
  t.false('useDirectPassword' in (await loginStart(name)));
  t.true(signedIn(await opaqueLogin(bed.url, name, PASSWORD, from())));
  t.is((await directLogin(name)).status, 200);
});

test('unknown usernames get no hint and the same answer as a wrong password, over both transports', async (t) => {
  const ghost = uname('ghost');
  t.false('useDirectPassword' in (await loginStart(ghost)));
  const direct = await directLogin(ghost);
  t.is(direct.status, 401);
  t.is(direct.body.message, 'invalid username or password');
});
