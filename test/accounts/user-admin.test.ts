import test from 'ava';
import type { AdminActor } from '../../accounts/admin-policy.js';
import { isAppError, type AppError } from '../../errors/app-error.js';
import { bearer, call, native, opaqueLogin, opaqueRegister, uniqueIp, startAccountsBed, uname, type AccountsBed } from './fixtures.js';

// UserAdmin (what `svc user` and the admin endpoints run) against the real stack: changes are
// checked by what clients see over HTTP on their next request, not only by the rows.
let bed: AccountsBed;
const operator: AdminActor = { kind: 'operator', name: 'cli:test@host' };
const PASSWORD = 'correct horse battery';

test.before(async () => {
  bed = await startAccountsBed('accounts-user-admin');
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: false });
});
test.after.always(async () => {
  await bed?.close();
});

interface Session {
  userId: string;
  accessToken: string;
  refreshToken: string;
}

async function signUp(name: string): Promise<Session> {
  const answer = await call(`${bed.url}/api/auth/password/register`, 'POST', { username: name, password: PASSWORD }, { ...native, 'x-forwarded-for': uniqueIp() });
  if (answer.status !== 201) throw new Error(`signup of ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { userId: (answer.body.user as { id: string }).id, accessToken: String(answer.body.accessToken), refreshToken: String(answer.body.refreshToken) };
}

const login = (name: string, password = PASSWORD) =>
  call(`${bed.url}/api/auth/password/login`, 'POST', { username: name, password }, { ...native, 'x-forwarded-for': uniqueIp() });
const me = (token: string) => call(`${bed.url}/api/me`, 'GET', undefined, bearer(token));
const refresh = (token: string) => call(`${bed.url}/api/auth/refresh`, 'POST', { refreshToken: token }, native);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isAppError(err)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

test('a ban refuses the still-unexpired access token on the next request, and the refresh token', async (t) => {
  const name = uname('mallory');
  const session = await signUp(name);
  const second = await login(name);
  t.is((await me(session.accessToken)).status, 200);

  const banned = await bed.accounts.admin.ban(operator, name);
  t.like(banned, { changed: true, revokedSessions: 2, user: { state: 'banned' } });

  const next = await me(session.accessToken);
  t.is(next.status, 401);
  t.is(next.body.code, 'unauthenticated');
  t.is((await me(String(second.body.accessToken))).status, 401);
  t.is((await refresh(session.refreshToken)).status, 401);
  const again = await login(name);
  t.is(again.status, 403);
  t.is(again.body.code, 'account_banned');
  const { rows } = await bed.pool.query<{ revoke_reason: string }>('SELECT revoke_reason FROM sessions WHERE user_id = $1', [session.userId]);
  t.deepEqual(rows.map((row) => row.revoke_reason), ['banned', 'banned']);

  // Banning again changes nothing.
  t.like(await bed.accounts.admin.ban(operator, session.userId), { changed: false, revokedSessions: 0 });
});

test('unban lets the user sign in again; sessions the ban ended stay ended', async (t) => {
  const name = uname('uma');
  const session = await signUp(name);
  await bed.accounts.admin.ban(operator, name);
  const unbanned = await bed.accounts.admin.unban(operator, name.toUpperCase());
  t.like(unbanned, { changed: true, user: { state: 'active' } });
  t.is((await me(session.accessToken)).status, 401);
  t.is((await refresh(session.refreshToken)).status, 401);
  const signedIn = await login(name);
  t.is(signedIn.status, 200);
  t.is((await me(String(signedIn.body.accessToken))).status, 200);
  t.like(await bed.accounts.admin.unban(operator, name), { changed: false });
});

test('reset-password with a bare password stores an Argon2id hash in place of OPAQUE and ends every session; the next sign-in upgrades it', async (t) => {
  const name = uname('olive');
  const registered = await opaqueRegister(bed.url, name, 'my opaque password');
  t.is(registered.status, 201);
  t.like(await bed.accounts.admin.show(name), { credentials: { password: 'opaque' } });

  const short = await failure(bed.accounts.admin.resetPassword(name, 'short'));
  t.is(short.code, 'invalid_argument');
  t.deepEqual(short.issues.map((issue) => issue.key), ['password']);
  t.is((await failure(bed.accounts.admin.resetPassword(name, name.toUpperCase()))).issues[0]?.message, 'must not be the username');

  const reset = await bed.accounts.admin.resetPassword(name, 'a brand new passphrase');
  t.like(reset, { changed: true, revokedSessions: 1 });
  t.is((await me(String(registered.body.accessToken))).status, 401);
  t.is((await refresh(String(registered.body.refreshToken))).status, 401);

  t.is((await login(name, 'a brand new passphrase')).status, 200);
  t.is((await login(name, 'my opaque password')).status, 401);
  // The OPAQUE record is gone: the old password no longer proves anything over OPAQUE either.
  const oldOpaque = await opaqueLogin(bed.url, name, 'my opaque password');
  t.not(oldOpaque.status, 200);
  const details = await bed.accounts.admin.show(name);
  // The direct sign-in with the new password made it an OPAQUE record (password-upgrade.test.ts).
  t.is(details.credentials.password, 'opaque');
  t.is(details.liveSessions, 1);
});

test('show names credential kinds and sessions, never secrets; unknown users are not_found', async (t) => {
  const name = uname('sam');
  const session = await signUp(name);
  const byId = await bed.accounts.admin.show(session.userId);
  const byName = await bed.accounts.admin.show(`  ${name.toUpperCase()} `);
  t.deepEqual(byId, byName);
  t.like(byId, {
    user: { username: name, role: 'user', state: 'active' },
    credentials: { password: 'argon2', passkeys: 0, oauth2: [] },
    twoFactor: { enabled: false, recoveryCodesLeft: 0 },
    liveSessions: 1,
  });
  t.false(JSON.stringify(byId).includes('$argon2'));

  for (const ref of ['nobody_here', '00000000-0000-4000-8000-000000000000', '', 'a b']) {
    const err = await failure(bed.accounts.admin.show(ref));
    t.is(err.code, 'not_found', ref);
  }
  t.is((await failure(bed.accounts.admin.ban(operator, 'nobody_here'))).code, 'not_found');
  t.is((await failure(bed.accounts.admin.resetPassword('nobody_here', 'a long enough one'))).code, 'not_found');
});

test('list pages by username with filters and a prefix search', async (t) => {
  const stem = uname('pg').toLowerCase();
  const names = ['a', 'b', 'c', 'd', 'e'].map((letter) => `${stem}${letter}`);
  for (const name of names) await signUp(name);
  await bed.accounts.admin.ban(operator, names[1]!);

  const first = await bed.accounts.admin.list({ prefix: stem.toUpperCase(), limit: 2 });
  t.deepEqual(first.users.map((user) => user.username), names.slice(0, 2));
  t.truthy(first.nextCursor);
  const second = await bed.accounts.admin.list({ prefix: stem, limit: 2, cursor: first.nextCursor! });
  t.deepEqual(second.users.map((user) => user.username), names.slice(2, 4));
  const last = await bed.accounts.admin.list({ prefix: stem, limit: 2, cursor: second.nextCursor! });
  t.deepEqual(last.users.map((user) => user.username), names.slice(4));
  t.is(last.nextCursor, undefined);

  t.deepEqual((await bed.accounts.admin.list({ prefix: stem, state: 'banned', limit: 10 })).users.map((user) => user.username), [names[1]]);
  t.deepEqual((await bed.accounts.admin.list({ prefix: stem, role: 'admin', limit: 10 })).users, []);
  // "_" is a character of usernames, not a wildcard.
  t.deepEqual((await bed.accounts.admin.list({ prefix: stem.replace('_', 'x'), limit: 10 })).users, []);

  const bad = await failure(bed.accounts.admin.list({ limit: 0, cursor: 'not a cursor!' }));
  t.is(bad.code, 'invalid_argument');
  t.deepEqual(bad.issues.map((issue) => issue.key), ['limit', 'cursor']);
});

test('set-role validates the role and applies it from the next request', async (t) => {
  const name = uname('rita');
  const session = await signUp(name);
  const bad = await failure(bed.accounts.admin.setRole(operator, name, 'superuser'));
  t.is(bad.code, 'invalid_argument');
  t.is(bad.issues[0]?.key, 'role');
  t.like(await bed.accounts.admin.setRole(operator, name, 'admin'), { changed: true, user: { role: 'admin' } });
  t.is(((await me(session.accessToken)).body.user as { role: string }).role, 'admin');
  t.like(await bed.accounts.admin.setRole(operator, name, 'admin'), { changed: false });
});

test.serial('create-root validates every field at once and creates a root that signs in', async (t) => {
  const both = await failure(bed.accounts.admin.createRoot({ username: 'x', password: 'short' }));
  t.is(both.code, 'invalid_argument');
  t.deepEqual(both.issues.map((issue) => issue.key), ['username', 'password']);
  const sameAsName = await failure(bed.accounts.admin.createRoot({ username: 'rootname', password: 'ROOTNAME' }));
  t.deepEqual(sameAsName.issues, [{ key: 'password', message: 'must not be the username' }]);

  const taken = uname('taken');
  await signUp(taken);
  const conflict = await failure(bed.accounts.admin.createRoot({ username: taken.toUpperCase(), password: PASSWORD }));
  t.is(conflict.code, 'conflict');
  t.deepEqual(conflict.issues, [{ key: 'username', message: 'is taken' }]);

  const name = uname('root');
  const root = await bed.accounts.admin.createRoot({ username: name, password: PASSWORD });
  t.like(root, { username: name, role: 'root', state: 'active' });
  const signedIn = await login(name);
  t.is(signedIn.status, 200);
  t.is((signedIn.body.user as { role: string }).role, 'root');

  const second = await failure(bed.accounts.admin.createRoot({ username: uname('root'), password: PASSWORD }));
  t.is(second.code, 'conflict');
  t.regex(second.message, new RegExp(`a root already exists \\(${name}\\)`));
  t.like(await bed.accounts.admin.createRoot({ username: uname('root'), password: PASSWORD }, { allowAdditional: true }), { role: 'root' });
});

test.serial('the last active root can be neither demoted nor banned, even by changes racing each other', async (t) => {
  const roots = (await bed.accounts.admin.list({ role: 'root', state: 'active', limit: 200 })).users;
  t.true(roots.length >= 2, 'the previous test left two roots');
  // Two demotions at once: each alone would be allowed, together they would leave no root.
  const outcomes = await Promise.allSettled(roots.map((root) => bed.accounts.admin.setRole(operator, root.id, 'admin')));
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
  t.is(outcomes.length - refused.length, roots.length - 1);
  const reason = (refused[0] as PromiseRejectedResult).reason as AppError;
  t.is(reason.code, 'conflict');
  t.regex(reason.message, /is the last active root/);

  const [last] = (await bed.accounts.admin.list({ role: 'root', state: 'active', limit: 200 })).users;
  t.truthy(last);
  const ban = await failure(bed.accounts.admin.ban(operator, last!.id));
  t.is(ban.code, 'conflict');
  t.deepEqual(ban.issues, [{ key: 'state', message: 'would leave no active root' }]);
  t.is((await bed.accounts.admin.show(last!.id)).user.state, 'active');

  // With another root, the first may step down.
  const other = roots.find((root) => root.id !== last!.id)!;
  await bed.accounts.admin.setRole(operator, other.id, 'root');
  t.like(await bed.accounts.admin.setRole(operator, last!.id, 'user'), { changed: true, user: { role: 'user' } });
});
