import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { AppError, isAppError } from '../../errors/app-error.js';
import type { RegistrationReviewView } from '../../contracts/review.js';
import type { RegistrationReviewRequest } from '../../workflows/review-client.js';
import { historyObject } from './history-file.js';
import { capturingLogger, RecordingRegistrations, startReviewBed, uid, waitFor, withDeadline, type ReviewBed } from './fixtures.js';

// The registration-review workflow on the real Temporal dev server of the test stack, with a
// recording RegistrationDecisions in place of the accounts module.
const { logger, lines } = capturingLogger();
const registrations = new RecordingRegistrations();
let bed: ReviewBed;
const RESULT_MS = 20_000;

test.before(async () => {
  bed = await startReviewBed('registration', { registrations, logger });
});

test.after.always(async () => {
  await bed?.stop();
});

function request(username: string, extra: Partial<RegistrationReviewRequest> = {}): RegistrationReviewRequest {
  return { mode: 'password', subjectKey: username, username, sealedPayload: `sealed:${randomBytes(12).toString('base64')}`, ttlMs: 600_000, ...extra };
}

function result(reviewId: string): Promise<RegistrationReviewView> {
  return withDeadline(bed.client.workflow.getHandle(reviewId).result() as Promise<RegistrationReviewView>, RESULT_MS, `result of ${reviewId}`);
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isAppError(err)) throw new Error(`expected AppError ${code}, got ${String(err)}`);
  if (err.code !== code) throw new Error(`expected ${code}, got ${err.code}: ${err.message}`);
  return err;
}

test('an approve signal sent by name, as the Temporal UI sends it, creates the account once with the sealed payload', async (t) => {
  const username = uid('alice');
  const asked = request(username);
  const started = await bed.reviews.startRegistrationReview(asked);
  t.true(started.started);
  t.is(started.reviewId, `registration-review:password:${username}`);

  const pending = await bed.reviews.show(started.reviewId);
  t.like(pending, { reviewId: started.reviewId, kind: 'registration', mode: 'password', username, state: 'pending' });
  t.is(pending.decision, undefined);
  t.false(JSON.stringify(pending).includes(asked.sealedPayload), 'the query never answers the sealed payload');

  await bed.client.workflow.getHandle(started.reviewId).signal('approve', { reviewer: 'alice' });
  const done = await result(started.reviewId);
  t.like(done, { state: 'approved', userId: `user-of-${started.reviewId}`, decision: { reviewer: 'alice' } });
  t.false(JSON.stringify(done).includes(asked.sealedPayload));
  t.deepEqual(registrations.callsFor(started.reviewId), [
    { method: 'approve', input: { reviewId: started.reviewId, sealedPayload: asked.sealedPayload, reviewer: 'alice' } },
  ]);
  // The query still answers after the workflow has completed.
  t.deepEqual(await bed.reviews.show(started.reviewId), done);
});

test('the first decision wins: a later signal is ignored and logged, a later CLI decision is a conflict', async (t) => {
  const started = await bed.reviews.startRegistrationReview(request(uid('bob')));
  const release = registrations.holdApprove(started.reviewId);
  const handle = bed.client.workflow.getHandle(started.reviewId);
  await handle.signal('approve', { reviewer: 'alice', reason: 'known to us' });
  // The workflow is now inside the approve activity, still running.
  await waitFor('approve called', () => Promise.resolve(registrations.callsFor(started.reviewId).length > 0 ? true : undefined), RESULT_MS);
  await handle.signal('reject', { reviewer: 'mallory', reason: 'too late' });
  const conflict = await rejectsWith(bed.reviews.reject(started.reviewId, { reviewer: 'carol', reason: 'no' }), 'conflict');
  t.regex(conflict.message, new RegExp(`review ${started.reviewId} is already approved`));
  release();

  const done = await result(started.reviewId);
  t.like(done, { state: 'approved', decision: { reviewer: 'alice', reason: 'known to us' } });
  t.deepEqual(
    registrations.callsFor(started.reviewId).map((call) => call.method),
    ['approve'],
  );
  const ignored = await waitFor(
    'the ignored signal in the service log',
    () => Promise.resolve(lines.find((line) => line.msg === 'review decision ignored: already decided' && line.reviewId === started.reviewId)),
    RESULT_MS,
  );
  t.like(ignored, { ignored: 'rejected', state: 'approved', component: 'temporal', workflowType: 'registrationReview' });
});

test('reject through the client records the reason and calls reject once', async (t) => {
  const started = await bed.reviews.startRegistrationReview(request(uid('carl')));
  const view = await bed.reviews.reject(started.reviewId, { reviewer: 'bob', reason: 'spam account' });
  t.like(view, { state: 'rejected', decision: { reviewer: 'bob', reason: 'spam account' } });
  const done = await result(started.reviewId);
  t.like(done, { state: 'rejected' });
  t.is(done.userId, undefined);
  t.deepEqual(registrations.callsFor(started.reviewId), [
    { method: 'reject', input: { reviewId: started.reviewId, reviewer: 'bob', reason: 'spam account' } },
  ]);
  const again = await rejectsWith(bed.reviews.approve(started.reviewId, { reviewer: 'alice' }), 'conflict');
  t.regex(again.message, /is already rejected \(by bob at /);
});

test('malformed decision signals are ignored: a reject without reason, an approve without reviewer', async (t) => {
  const started = await bed.reviews.startRegistrationReview(request(uid('dora')));
  const handle = bed.client.workflow.getHandle(started.reviewId);
  await handle.signal('reject', { reviewer: 'eve' });
  await handle.signal('approve', {});
  await handle.signal('approve', 'yes');
  await handle.signal('approve', { reviewer: '  carol  ' });
  const done = await result(started.reviewId);
  t.like(done, { state: 'approved', decision: { reviewer: 'carol' } });
  t.deepEqual(
    registrations.callsFor(started.reviewId).map((call) => call.method),
    ['approve'],
  );
});

test('a review nobody decides expires after its ttl, and a new review may follow it', async (t) => {
  const username = uid('erin');
  const started = await bed.reviews.startRegistrationReview(request(username, { ttlMs: 2_000 }));
  const done = await result(started.reviewId);
  t.like(done, { state: 'expired', decision: { reviewer: 'system:expiry' } });
  t.deepEqual(registrations.callsFor(started.reviewId), [{ method: 'expire', input: { reviewId: started.reviewId } }]);
  t.is((await bed.reviews.show(started.reviewId)).state, 'expired');
  await rejectsWith(bed.reviews.approve(started.reviewId, { reviewer: 'alice' }), 'conflict');

  const next = await bed.reviews.startRegistrationReview(request(username));
  t.true(next.started);
  t.not(next.runId, started.runId);
  t.is((await bed.reviews.show(next.reviewId)).state, 'pending');
  await bed.reviews.reject(next.reviewId, { reviewer: 'alice', reason: 'clean up' });
});

test('starting the same signup again finds the running review instead of a second one', async (t) => {
  const username = uid('fred');
  const first = await bed.reviews.startRegistrationReview(request(username, { sealedPayload: 'sealed:first' }));
  const second = await bed.reviews.startRegistrationReview(request(username, { sealedPayload: 'sealed:second' }));
  t.true(first.started);
  t.false(second.started);
  t.is(second.reviewId, first.reviewId);
  t.is(second.runId, first.runId);
  await bed.reviews.approve(first.reviewId, { reviewer: 'alice' });
  await result(first.reviewId);
  t.deepEqual(
    registrations.callsFor(first.reviewId).map((call) => call.method === 'approve' && call.input.sealedPayload),
    ['sealed:first'],
  );
});

test('search attributes let list() find pending and decided reviews', async (t) => {
  const username = uid('gina');
  const started = await bed.reviews.startRegistrationReview(request(username, { mode: 'email' }));
  // Visibility is eventually consistent: poll with a deadline.
  const listed = await waitFor(
    'the review listed as pending',
    async () => (await bed.reviews.list({ kind: 'registration', state: 'pending', limit: 1000 })).find((review) => review.reviewId === started.reviewId),
    RESULT_MS,
  );
  t.like(listed, { kind: 'registration', mode: 'email', subject: username, state: 'pending', status: 'RUNNING' });
  t.false((await bed.reviews.list({ mode: 'password', limit: 1000 })).some((review) => review.reviewId === started.reviewId));
  t.false((await bed.reviews.list({ kind: 'room', limit: 1000 })).some((review) => review.reviewId === started.reviewId));

  await bed.reviews.approve(started.reviewId, { reviewer: 'alice' });
  await result(started.reviewId);
  await waitFor(
    'the review listed as approved, no longer pending',
    async () => {
      const approved = await bed.reviews.list({ kind: 'registration', state: 'approved', limit: 1000 });
      const pending = await bed.reviews.list({ kind: 'registration', state: 'pending', limit: 1000 });
      return approved.some((review) => review.reviewId === started.reviewId) && !pending.some((review) => review.reviewId === started.reviewId) ? true : undefined;
    },
    RESULT_MS,
  );
  t.pass();
});

test('the credentials never reach the history in plaintext, only sealed', async (t) => {
  const key = randomBytes(32);
  const marker = `PLAINTEXT-${randomUUID()}`;
  const seal = (text: string): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  };
  const opened: string[] = [];
  registrations.open = (sealed) => {
    if (!sealed.startsWith('v1.')) return;
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    opened.push(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'));
  };
  const sealedPayload = seal(JSON.stringify({ password: marker }));
  t.false(sealedPayload.includes(marker));

  const started = await bed.reviews.startRegistrationReview(request(uid('hank'), { sealedPayload }));
  await bed.reviews.approve(started.reviewId, { reviewer: 'alice' });
  await result(started.reviewId);
  t.true(opened.some((text) => text.includes(marker)), 'the accounts side received what was sealed');

  const history = await bed.client.workflow.getHandle(started.reviewId).fetchHistory();
  const payloads = decodedPayloads(history);
  const everything = `${JSON.stringify(historyObject(history))}\n${payloads.join('\n')}`;
  t.true(payloads.some((text) => text.includes(sealedPayload)), 'the sealed payload is in the history (input and activity input)');
  t.false(everything.includes(marker), 'the plaintext is not');
});

test('a final failure of the accounts side fails the workflow with its code, without retries', async (t) => {
  const started = await bed.reviews.startRegistrationReview(request(uid('ivan')));
  registrations.failNext(started.reviewId, new AppError('conflict', 'the username was taken meanwhile'));
  await bed.reviews.approve(started.reviewId, { reviewer: 'alice' });
  const err = await t.throwsAsync(result(started.reviewId), { instanceOf: WorkflowFailedError });
  const failure = err?.cause;
  t.true(failure instanceof ApplicationFailure);
  t.is((failure as ApplicationFailure).type, 'conflict');
  t.regex((failure as ApplicationFailure).message, /username was taken meanwhile/);
  t.is(registrations.callsFor(started.reviewId).length, 1);
  t.is((await bed.reviews.show(started.reviewId)).state, 'approved');
});

test('a transient failure of the accounts side is retried until it succeeds', async (t) => {
  const started = await bed.reviews.startRegistrationReview(request(uid('judy')));
  registrations.failNext(started.reviewId, new AppError('unavailable', 'accounts database is restarting'));
  await bed.reviews.approve(started.reviewId, { reviewer: 'alice' });
  const done = await result(started.reviewId);
  t.like(done, { state: 'approved', userId: `user-of-${started.reviewId}` });
  t.deepEqual(
    registrations.callsFor(started.reviewId).map((call) => call.method),
    ['approve', 'approve'],
  );
});

test('the client checks its input and names unknown reviews', async (t) => {
  await rejectsWith(bed.reviews.show(`registration-review:password:${uid('nobody')}`), 'not_found');
  await rejectsWith(bed.reviews.show('some-other-workflow'), 'not_found');
  await rejectsWith(bed.reviews.approve(`registration-review:password:${uid('nobody')}`, { reviewer: 'alice' }), 'not_found');
  const ttl = await rejectsWith(bed.reviews.startRegistrationReview(request(uid('kim'), { ttlMs: 10 })), 'invalid_argument');
  t.regex(ttl.message, /ttlMs/);
  await rejectsWith(bed.reviews.startRegistrationReview(request(uid('kim'), { mode: 'sms' as never })), 'invalid_argument');
  await rejectsWith(bed.reviews.startRegistrationReview(request('')), 'invalid_argument');

  const started = await bed.reviews.startRegistrationReview(request(uid('lena')));
  const noReviewer = await rejectsWith(bed.reviews.approve(started.reviewId, { reviewer: ' ' }), 'invalid_argument');
  t.deepEqual(noReviewer.issues.map((issue) => issue.key), ['reviewer']);
  const noReason = await rejectsWith(bed.reviews.reject(started.reviewId, { reviewer: 'alice', reason: '' }), 'invalid_argument');
  t.deepEqual(noReason.issues.map((issue) => issue.key), ['reason']);
  await rejectsWith(bed.reviews.list({ state: 'lost' as never, limit: 10 }), 'invalid_argument');
  await rejectsWith(bed.reviews.list({ limit: 0 }), 'invalid_argument');
  t.is((await bed.reviews.show(started.reviewId)).state, 'pending');
  await bed.reviews.reject(started.reviewId, { reviewer: 'alice', reason: 'clean up' });
});

/** Every payload of the history, decoded as text (payload data is JSON bytes). */
function decodedPayloads(value: unknown, out: string[] = []): string[] {
  if (value instanceof Uint8Array || value === null || typeof value !== 'object') return out;
  const record = value as Record<string, unknown>;
  if (record.data instanceof Uint8Array && 'metadata' in record) out.push(Buffer.from(record.data).toString('utf8'));
  for (const child of Object.values(record)) decodedPayloads(child, out);
  return out;
}
