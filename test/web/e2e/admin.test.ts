/**
 * The admin pages in Chromium against a whole service with a review worker on Temporal: a
 * signup approved and another rejected from the reviews page (the requester can then sign in,
 * or is told the reason), a ban that ends the user's token at once, the role control offered to
 * a root only, a runtime setting saved with its history and an out-of-range value refused at
 * its field with nothing written, the gate for non-administrators, and axe at both widths.
 * Serial: the tests flip server-wide settings (signup review) that the others' signups feel.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { waitFor } from '../../fixtures/deadline.js';
import { BED_PASSWORD, type Member } from '../../gateways/bed.js';
import { makeRoot } from './admin-helpers.js';
import { checkAtBothWidths, signInPage, startWebBed, type WebBed } from './browser.js';

let bed: WebBed;
let admin: Member;
test.before(async () => {
  bed = await startWebBed('web_admin', {
    roles: ['gateway', 'actors', 'worker'],
    // Reviews are listed per task queue: this bed's own, whatever else shares the Temporal server.
    env: { SVC_TEMPORAL_TASK_QUEUE: `test-web-admin-${randomBytes(4).toString('hex')}` },
  });
  admin = await bed.admin();
});
test.after.always(async () => {
  await bed?.close();
});

const native = { 'x-svc-client': 'native' };
const login = (username: string) => bed.call('POST', '/api/auth/password/login', { username, password: BED_PASSWORD }, undefined, native);

/** A password signup filed for review; its review id. */
async function pendingSignup(prefix: string): Promise<{ username: string; reviewId: string }> {
  const username = `${prefix}_${randomUUID().slice(0, 8)}`;
  const answer = await bed.call<{ status: string; reviewId: string }>('POST', '/api/auth/password/register', { username, password: BED_PASSWORD }, undefined, native);
  if (answer.status !== 202 || answer.body.status !== 'pending_review') throw new Error(`signup of ${username}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { username, reviewId: answer.body.reviewId };
}

/** Temporal's visibility store lists a new review a moment after it starts. */
async function listed(reviewId: string): Promise<void> {
  await waitFor(`review ${reviewId} listed`, async () => {
    const answer = await bed.call<{ reviews: { reviewId: string }[] }>('GET', '/api/admin/reviews?state=pending&limit=200', undefined, admin.token);
    return answer.body.reviews?.some((review) => review.reviewId === reviewId) ? true : undefined;
  });
}

test.serial('an admin approves one pending signup and rejects another with a reason, from the reviews page', async (t) => {
  await bed.set('user', { passwordSignupNeedReview: true });
  try {
    const approved = await pendingSignup('approve');
    const rejected = await pendingSignup('reject');
    t.is((await login(approved.username)).body.code, 'review_pending');
    await listed(approved.reviewId);
    await listed(rejected.reviewId);

    const { page, problems } = await bed.person();
    await signInPage(page, admin.username);
    await page.goto('/admin/reviews');
    await page.getByRole('heading', { name: 'Reviews', level: 1 }).waitFor();
    await page.getByRole('link', { name: `Signup: ${approved.username}` }).waitFor();

    await page.getByRole('button', { name: `Approve ${approved.username}` }).click();
    await page.getByRole('status').filter({ hasText: `${approved.username}: approved.` }).waitFor();
    // The list is of pending reviews: the decided one leaves it.
    await page.getByRole('link', { name: `Signup: ${approved.username}` }).waitFor({ state: 'detached' });
    const signedIn = await waitFor('the approved account signs in', async () => {
      const answer = await login(approved.username);
      return answer.status === 200 ? answer : undefined;
    });
    t.is(signedIn.status, 200);

    await page.getByRole('button', { name: `Reject ${rejected.username}` }).click();
    const reason = page.getByLabel(`Reason for rejecting ${rejected.username}`);
    await reason.waitFor();
    // A rejection without a reason is refused at the field, before any request.
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByText('Say why: the requester is shown this reason.').waitFor();
    t.is(await reason.getAttribute('aria-invalid'), 'true');
    await reason.fill('not somebody we know');
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `${rejected.username}: rejected.` }).waitFor();
    const refused = await waitFor('the rejection reaches sign-in', async () => {
      const answer = await login(rejected.username);
      return answer.body.code === 'review_rejected' ? answer : undefined;
    });
    t.regex(String(refused.body.message), /not somebody we know/);
    t.deepEqual(problems, []);
  } finally {
    await bed.set('user', { passwordSignupNeedReview: false });
  }
});

test.serial('a ban from the user page ends the user\'s token; the role control is offered to a root only', async (t) => {
  const victim = await bed.signUp('victim');
  t.is((await bed.call('GET', '/api/me', undefined, victim.token)).status, 200);

  const { page, problems } = await bed.person();
  await signInPage(page, admin.username);
  await page.goto('/admin/users');
  await page.getByLabel('Username starts with').fill(victim.username);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: victim.username }).click();
  await page.getByRole('heading', { name: `User ${victim.username}` }).waitFor();
  t.is(await page.getByRole('combobox', { name: 'Service role' }).count(), 0, 'an admin is not offered the role');

  await page.getByRole('button', { name: 'Ban', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, ban' }).click();
  await page.getByRole('status').filter({ hasText: `${victim.username} is banned` }).waitFor();
  const me = await bed.call('GET', '/api/me', undefined, victim.token);
  t.is(me.status, 401);
  t.is((await login(victim.username)).body.code, 'account_banned');
  await page.getByRole('button', { name: 'Unban' }).waitFor();

  const root = await bed.signUp('root');
  await makeRoot(bed, root.userId);
  const target = await bed.signUp('promoted');
  const asRoot = await bed.person();
  await signInPage(asRoot.page, root.username);
  await asRoot.page.goto(`/admin/users/${target.userId}`);
  await asRoot.page.getByRole('combobox', { name: 'Service role' }).selectOption('admin');
  await asRoot.page.getByRole('button', { name: 'Change role' }).click();
  await asRoot.page.getByRole('status').filter({ hasText: `${target.username} is now admin` }).waitFor();
  const details = await bed.call<{ user: { role: string } }>('GET', `/api/admin/users/${target.userId}`, undefined, admin.token);
  t.is(details.body.user.role, 'admin');
  t.deepEqual([...problems, ...asRoot.problems], []);
});

test.serial('a setting saved in range shows in its history; out of range is refused at its field and nothing is written', async (t) => {
  const key = 'chat.maxPinnedMessagesPerRoom';
  const label = 'Pinned messages kept per room';
  const read = async () => (await bed.call<{ value: number }>('GET', `/api/admin/settings/${key}`, undefined, admin.token)).body.value;
  const before = await read();
  const next = before === 42 ? 43 : 42;

  const { page, problems } = await bed.person();
  await signInPage(page, admin.username);
  await page.goto('/admin/settings');
  const field = page.getByLabel(label, { exact: true });
  await field.fill(String(next));
  await page.getByRole('button', { name: 'Save Chat' }).click();
  await page.getByRole('status').filter({ hasText: `Saved Chat: ${label}.` }).waitFor();
  t.is(await read(), next);

  await page.getByLabel(label, { exact: true }).fill('5000');
  await page.getByRole('button', { name: 'Save Chat' }).click();
  await page.getByText(`${label} must be a whole number from 0 to 1000`).waitFor();
  t.is(await page.getByLabel(label, { exact: true }).getAttribute('aria-invalid'), 'true');
  t.is(await read(), next, 'nothing written');

  // A value only the server can judge: its issue is shown at the row it names, and nothing is written.
  const sites = page.getByRole('group', { name: 'Other sites that may play videos from here' });
  await sites.getByRole('button', { name: 'Add a site address' }).click();
  const origin = sites.getByLabel('Site address 1', { exact: true });
  await origin.fill('not an origin');
  await page.getByRole('button', { name: 'Save Other sites' }).click();
  await page.getByRole('alert').filter({ hasText: 'Please check what you entered' }).waitFor();
  await sites.getByText(/^Site address 1: /).waitFor();
  t.is(await origin.getAttribute('aria-invalid'), 'true');
  t.deepEqual((await bed.call<{ value: unknown }>('GET', '/api/admin/settings/cors.allowedOrigins', undefined, admin.token)).body.value, []);

  await page.getByRole('link', { name: `History of ${label}` }).click();
  await page.getByRole('heading', { name: label, level: 1 }).waitFor();
  await page.getByText(key, { exact: true }).waitFor();
  const row = page.getByRole('row').filter({ hasText: `user:${admin.username}` }).first();
  await row.waitFor();
  t.regex(await row.innerText(), new RegExp(`${before}\\D+${next}`));
  t.deepEqual(problems, []);
});

test.serial('someone who is not an administrator is told so; a visitor is offered to sign in', async (t) => {
  const plain = await bed.signUp('plain');
  const { page, problems } = await bed.person({ viewport: 'phone' });
  await signInPage(page, plain.username);
  await page.goto('/admin/users');
  await page.getByText('You need to be an administrator to see this page.').waitFor();
  t.is(await page.getByRole('table').count(), 0);

  const visitor = await bed.person();
  await visitor.page.goto('/admin/settings');
  const signIn = visitor.page.getByRole('link', { name: 'Sign in', exact: true }).last();
  await visitor.page.getByText('You need to be signed in as an administrator').waitFor();
  t.is(await signIn.getAttribute('href'), '/signin?next=%2Fadmin%2Fsettings');
  t.deepEqual([...problems, ...visitor.problems], []);
});

test.serial('overview, users, reviews and settings pass axe and fit a phone', async (t) => {
  const { page, problems } = await bed.person();
  await signInPage(page, admin.username);
  const pages: [string, string, string][] = [
    ['/admin', 'Administration', 'admin-overview'],
    ['/admin/users', 'Users', 'admin-users'],
    ['/admin/reviews', 'Reviews', 'admin-reviews'],
    ['/admin/settings', 'Server settings', 'admin-settings'],
  ];
  for (const [path, title, name] of pages) {
    await page.goto(path);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByText('Loading…').first().waitFor({ state: 'detached' });
    t.deepEqual(await checkAtBothWidths(page, name), [], path);
  }
  t.deepEqual(problems, []);
});
