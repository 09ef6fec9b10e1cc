/**
 * The admin endpoints over HTTP, with a real review worker on Temporal whose decisions are the
 * accounts module's: who may call them (users and guests are refused, a demoted administrator
 * at once), what an admin and a root may do to whom, and a signup under review approved and
 * rejected through them.
 */
import test from 'ava';
import { hashPassword } from '../../accounts/methods/argon2.js';
import { parseUsername } from '../../accounts/username.js';
import type { ReviewSummary, ReviewView } from '../../contracts/review.js';
import { waitFor } from '../fixtures/deadline.js';
import type { ReviewBed } from '../workflows/fixtures.js';
import { bearer, call, native, uniqueIp, startReviewedAccountsBed, uname, type AccountsBed } from './fixtures.js';

let bed: AccountsBed;
let reviews: ReviewBed;
const PASSWORD = 'correct horse battery';

interface Account {
  id: string;
  username: string;
  token: string;
}

let root: Account;
let admin: Account;
let plain: Account;

test.before(async () => {
  ({ bed, reviews } = await startReviewedAccountsBed('accounts-admin-http'));
  // Every signup of this file goes to review; the accounts the tests act on are made directly.
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: true });

  const rootName = uname('root');
  await bed.accounts.admin.createRoot({ username: rootName, password: PASSWORD });
  root = await signIn(rootName);
  admin = await account('admin');
  await bed.accounts.admin.setRole({ kind: 'operator', name: 'test' }, admin.id, 'admin');
  plain = await account('plain');
});
test.after.always(async () => {
  await bed?.close();
  await reviews?.stop();
});

/** An account of role user, created as an approved signup would be, and signed in. */
async function account(prefix: string): Promise<Account> {
  const { name: username, key } = parseUsername(uname(prefix));
  await bed.accounts.registration.signup(
    'password',
    { username, usernameKey: key, displayName: username, credential: { type: 'password', kind: 'argon2', secret: await hashPassword(PASSWORD) } },
    { needReview: false },
  );
  return signIn(username);
}

async function signIn(username: string): Promise<Account> {
  const answer = await login(username);
  if (answer.status !== 200) throw new Error(`sign-in of ${username}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { id: (answer.body.user as { id: string }).id, username, token: String(answer.body.accessToken) };
}

const login = (username: string) => call(`${bed.url}/api/auth/password/login`, 'POST', { username, password: PASSWORD }, { ...native, 'x-forwarded-for': uniqueIp() });
const as = <T = Record<string, unknown>>(who: Account, method: string, path: string, body?: unknown) => call<T>(`${bed.url}${path}`, method, body, bearer(who.token));

test('users and guests are forbidden, and no token is unauthenticated', async (t) => {
  for (const [method, path] of [
    ['GET', '/api/admin/users'],
    ['GET', `/api/admin/users/${plain.id}`],
    ['POST', `/api/admin/users/${admin.id}/ban`],
    ['PUT', `/api/admin/users/${plain.id}/role`],
    ['GET', '/api/admin/reviews'],
    ['POST', '/api/admin/reviews/registration-review:password:x/approve'],
  ] as const) {
    const body = method === 'PUT' ? { role: 'admin' } : undefined;
    const asUser = await as(plain, method, path, body);
    t.is(asUser.status, 403, `${method} ${path}`);
    t.is(asUser.body.code, 'forbidden');
    t.is((await call(`${bed.url}${path}`, method, body)).status, 401, `${method} ${path}`);
  }
  await bed.set('user', { enableGuest: true });
  const guest = await call(`${bed.url}/api/auth/guest`, 'POST', { displayName: 'Gus' }, { ...native, 'x-forwarded-for': uniqueIp() });
  t.is((await call(`${bed.url}/api/admin/users`, 'GET', undefined, bearer(String(guest.body.accessToken)))).status, 403);
  // Nothing was changed by the refused calls.
  t.is((await bed.accounts.admin.show(plain.id)).user.role, 'user');
  t.is((await bed.accounts.admin.show(admin.id)).user.state, 'active');
});

test('an admin lists and shows users; bad filters and ids are named', async (t) => {
  const listed = await as<{ users: Array<{ username: string; role: string }>; nextCursor?: string }>(admin, 'GET', `/api/admin/users?q=${encodeURIComponent(plain.username)}`);
  t.is(listed.status, 200);
  t.deepEqual(listed.body.users.map((user) => [user.username, user.role]), [[plain.username, 'user']]);
  const roots = await as<{ users: Array<{ username: string }> }>(admin, 'GET', '/api/admin/users?role=root&limit=5');
  t.true(roots.body.users.some((user) => user.username === root.username));

  const shown = await as(admin, 'GET', `/api/admin/users/${plain.id}`);
  t.is(shown.status, 200);
  // Made with an Argon2id hash, then signed in directly: that sign-in upgraded it to an OPAQUE record.
  t.like(shown.body, { user: { id: plain.id, username: plain.username }, credentials: { password: 'opaque', passkeys: 0 }, twoFactor: { enabled: false } });

  const bad = await as(admin, 'GET', '/api/admin/users?role=god&limit=1000&extra=1');
  t.is(bad.status, 400);
  t.deepEqual((bad.body.issues as Array<{ key: string }>).map((issue) => issue.key).sort(), ['extra', 'limit', 'role']);
  t.is((await as(admin, 'GET', '/api/admin/users/not-a-uuid')).status, 400);
  const missing = await as(admin, 'GET', '/api/admin/users/00000000-0000-4000-8000-000000000000');
  t.is(missing.status, 404);
  t.is(missing.body.code, 'not_found');
});

test('an admin bans a user, whose next request is refused, and unbans them', async (t) => {
  const victim = await account('victim');
  t.is((await as(victim, 'GET', '/api/me')).status, 200);
  const banned = await as(admin, 'POST', `/api/admin/users/${victim.id}/ban`, { reason: 'spam' });
  t.is(banned.status, 200);
  t.like(banned.body, { changed: true, revokedSessions: 1, user: { state: 'banned' } });
  t.is((await as(victim, 'GET', '/api/me')).status, 401);
  t.is((await login(victim.username)).body.code, 'account_banned');

  const unbanned = await as(admin, 'POST', `/api/admin/users/${victim.id}/unban`);
  t.like(unbanned.body, { changed: true, user: { state: 'active' } });
  t.is((await login(victim.username)).status, 200);
});

test('an admin cannot touch administrators, roles or themselves; a root can', async (t) => {
  const otherAdmin = await account('admin2');
  await bed.accounts.admin.setRole({ kind: 'operator', name: 'test' }, otherAdmin.id, 'admin');

  const banAdmin = await as(admin, 'POST', `/api/admin/users/${otherAdmin.id}/ban`);
  t.is(banAdmin.status, 403);
  t.regex(String(banAdmin.body.message), /only a root may ban or unban administrators/);
  const banRoot = await as(admin, 'POST', `/api/admin/users/${root.id}/ban`);
  t.is(banRoot.status, 403);
  const promote = await as(admin, 'PUT', `/api/admin/users/${plain.id}/role`, { role: 'admin' });
  t.is(promote.status, 403);
  t.regex(String(promote.body.message), /only a root may change service roles/);
  const self = await as(admin, 'POST', `/api/admin/users/${admin.id}/ban`);
  t.is(self.status, 403);
  t.regex(String(self.body.message), /your own account/);
  t.is((await as(root, 'PUT', `/api/admin/users/${root.id}/role`, { role: 'user' })).status, 403);

  const badRole = await as(root, 'PUT', `/api/admin/users/${plain.id}/role`, { role: 'owner' });
  t.is(badRole.status, 400);
  t.is((badRole.body.issues as Array<{ key: string }>)[0]?.key, 'role');

  // A root bans an administrator; the administrator is signed out at once.
  const banned = await as(root, 'POST', `/api/admin/users/${otherAdmin.id}/ban`, {});
  t.like(banned.body, { changed: true, user: { role: 'admin', state: 'banned' } });
  t.is((await as(otherAdmin, 'GET', '/api/admin/users')).status, 401);
});

test('a demoted admin loses admin access on the very next request', async (t) => {
  const temp = await account('temp');
  const promoted = await as(root, 'PUT', `/api/admin/users/${temp.id}/role`, { role: 'admin' });
  t.like(promoted.body, { changed: true, user: { role: 'admin' } });
  t.is((await as(temp, 'GET', '/api/admin/users')).status, 200);
  const demoted = await as(root, 'PUT', `/api/admin/users/${temp.id}/role`, { role: 'user' });
  t.like(demoted.body, { changed: true, user: { role: 'user' } });
  const next = await as(temp, 'GET', '/api/admin/users');
  t.is(next.status, 403);
  t.is(next.body.code, 'forbidden');
  // Their session itself is fine: only the admin rights went.
  t.is((await as(temp, 'GET', '/api/me')).status, 200);
});

test('a password signup under review, approved through the admin endpoint, then signs in', async (t) => {
  const username = uname('newbie');
  const pending = await call(`${bed.url}/api/auth/password/register`, 'POST', { username, password: PASSWORD }, { ...native, 'x-forwarded-for': uniqueIp() });
  t.is(pending.status, 202);
  const reviewId = String(pending.body.reviewId);
  t.is((await login(username)).body.code, 'review_pending');

  const listed = await waitFor(
    'the review in the admin list',
    async () => {
      const answer = await as<{ reviews: ReviewSummary[] }>(admin, 'GET', '/api/admin/reviews?kind=registration&state=pending&limit=100');
      return answer.body.reviews?.find((review) => review.reviewId === reviewId);
    },
    20_000,
  );
  t.like(listed, { mode: 'password', subject: username, state: 'pending' });
  const shown = await as<ReviewView>(admin, 'GET', `/api/admin/reviews/${encodeURIComponent(reviewId)}`);
  t.like(shown.body, { reviewId, kind: 'registration', username, state: 'pending' });
  t.false(JSON.stringify(shown.body).includes('argon2'));

  const approved = await as<ReviewView>(admin, 'POST', `/api/admin/reviews/${encodeURIComponent(reviewId)}/approve`, { reason: 'known member' });
  t.is(approved.status, 200);
  t.like(approved.body, { state: 'approved', decision: { reviewer: `user:${admin.username}`, reason: 'known member' } });
  const signedIn = await waitFor(
    'sign-in after approval',
    async () => {
      const answer = await login(username);
      return answer.body.status === 'signed_in' ? answer : undefined;
    },
    15_000,
    50,
  );
  t.is((signedIn.body.user as { username: string }).username, username);

  const again = await as(admin, 'POST', `/api/admin/reviews/${encodeURIComponent(reviewId)}/approve`);
  t.is(again.status, 409);
  t.is(again.body.code, 'conflict');
});

test('a rejection through the admin endpoint needs a reason, which the user is then told', async (t) => {
  const username = uname('nope');
  const reviewId = String((await call(`${bed.url}/api/auth/password/register`, 'POST', { username, password: PASSWORD }, { ...native, 'x-forwarded-for': uniqueIp() })).body.reviewId);
  const path = `/api/admin/reviews/${encodeURIComponent(reviewId)}/reject`;
  const noReason = await as(root, 'POST', path, {});
  t.is(noReason.status, 400);
  t.is((noReason.body.issues as Array<{ key: string }>)[0]?.key, 'reason');
  const blank = await as(root, 'POST', path, { reason: '   ' });
  t.is(blank.status, 400);

  const rejected = await as<ReviewView>(root, 'POST', path, { reason: 'not a real person' });
  t.is(rejected.status, 200);
  t.like(rejected.body, { state: 'rejected', decision: { reviewer: `user:${root.username}`, reason: 'not a real person' } });
  const answer = await waitFor(
    'rejection recorded',
    async () => {
      const attempt = await login(username);
      return attempt.body.code === 'review_rejected' ? attempt : undefined;
    },
    15_000,
    50,
  );
  t.regex(String(answer.body.message), /not a real person/);

  const unknown = await as(root, 'GET', '/api/admin/reviews/registration-review:password:nobody_at_all');
  t.is(unknown.status, 404);
});
