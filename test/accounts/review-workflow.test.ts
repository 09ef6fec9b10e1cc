/**
 * Signups under review through the real review workflow on Temporal: the accounts module
 * starts it, a worker runs it with the accounts module's decisions, and reviewers decide by
 * sending the `approve` / `reject` signals with the plain Temporal client, as the Temporal UI does.
 */
import test from 'ava';
import { waitFor } from '../fixtures/deadline.js';
import type { ReviewBed } from '../workflows/fixtures.js';
import { call, native, uniqueIp, startReviewedAccountsBed, uname, type AccountsBed } from './fixtures.js';

let bed: AccountsBed;
let reviews: ReviewBed;
test.before(async () => {
  // Reviews expire after 8 s here, so expiry is observed within the test.
  ({ bed, reviews } = await startReviewedAccountsBed('accounts-review', { reviewTtlHours: 8 / 3600 }));
  await bed.set('user', { enablePasswordSignup: true, passwordSignupNeedReview: true });
});
test.after.always(async () => {
  await bed?.close();
  await reviews?.stop();
});

const PASSWORD = 'correct horse battery';
const register = (username: string) => call(`${bed.url}/api/auth/password/register`, 'POST', { username, password: PASSWORD }, { ...native, 'x-forwarded-for': uniqueIp() });
const login = (username: string) => call(`${bed.url}/api/auth/password/login`, 'POST', { username, password: PASSWORD }, { ...native, 'x-forwarded-for': uniqueIp() });

test('approving with the approve signal creates the account; the user signs in', async (t) => {
  const name = uname('ann');
  const pending = await register(name);
  t.is(pending.status, 202);
  const reviewId = String(pending.body.reviewId);
  // A retried signup is the same request and the same workflow.
  t.is((await register(name)).body.reviewId, reviewId);
  t.is((await login(name)).body.code, 'review_pending');

  await reviews.client.workflow.getHandle(reviewId).signal('approve', { reviewer: 'ui:rita' });
  const signedIn = await waitFor('sign-in after approval', async () => {
    const answer = await login(name);
    return answer.body.status === 'signed_in' ? answer : undefined;
  }, 15_000, 50);
  t.is((signedIn.body.user as { username: string }).username, name);
  const { rows } = await bed.pool.query<{ state: string; reviewer: string; payload: string }>('SELECT state, reviewer, payload FROM registration_reviews WHERE id = $1', [reviewId]);
  t.deepEqual(rows[0], { state: 'approved', reviewer: 'ui:rita', payload: '' });
  // Approved once: exactly one account by that name.
  t.is((await bed.pool.query('SELECT 1 FROM users WHERE review_id = $1', [reviewId])).rowCount, 1);
});

test('rejecting with the reject signal: sign-in says rejected, with the reason', async (t) => {
  const name = uname('rob');
  const reviewId = String((await register(name)).body.reviewId);
  await reviews.client.workflow.getHandle(reviewId).signal('reject', { reviewer: 'ui:rita', reason: 'not a real person' });
  const rejected = await waitFor('rejection recorded', async () => {
    const answer = await login(name);
    return answer.body.code === 'review_rejected' ? answer : undefined;
  }, 15_000, 50);
  t.regex(String(rejected.body.message), /not a real person/);
  t.is((await bed.pool.query('SELECT 1 FROM users WHERE username = $1', [name])).rowCount, 0);
});

test('an unanswered review expires: the name is free again and no account exists', async (t) => {
  const name = uname('eve');
  const reviewId = String((await register(name)).body.reviewId);
  await waitFor('expiry recorded', async () => {
    const { rows } = await bed.pool.query<{ state: string }>('SELECT state FROM registration_reviews WHERE id = $1', [reviewId]);
    return rows[0]?.state === 'expired' ? true : undefined;
  }, 20_000, 100);
  t.is((await login(name)).status, 401);
  // Asking again files a new review under the same id.
  const again = await register(name);
  t.is(again.status, 202);
  t.is(again.body.reviewId, reviewId);
});
