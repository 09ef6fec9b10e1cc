import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { isAppError, type AppError } from '../../errors/app-error.js';
import { ManagementClient } from '../../gateways/management/client.js';
import { routes, type ReviewSummary, type ReviewView } from '../../contracts/management.js';
import { startManagementServer, type ManagementServer } from '../../gateways/management/server.js';
import type { RuntimeSettings } from '../../settings/runtime-settings.js';
import { capturingLogger, RecordingRegistrations, startReviewBed, uid, type ReviewBed } from './fixtures.js';

// The review routes of the management endpoint, over its real Unix socket, with and without
// a review client. The CLI test drives the same routes through `svc review` and `svc serve`.
const { logger } = capturingLogger();
const registrations = new RecordingRegistrations();
let bed: ReviewBed;
let dir: string;
const servers: ManagementServer[] = [];

test.before(async () => {
  bed = await startReviewBed('mgmt', { registrations, logger });
  dir = await mkdtemp(join(tmpdir(), 'svc-review-routes-'));
});

test.after.always(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await bed?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function serve(name: string, withReviews: boolean): Promise<ManagementClient> {
  const endpoint = { kind: 'unix' as const, path: join(dir, `${name}.sock`) };
  const server = await startManagementServer(endpoint, {
    logger,
    // The review routes never touch settings.
    settings: {} as RuntimeSettings,
    replicaId: name,
    stats: () => Promise.reject(new Error('not in this test')),
    ...(withReviews ? { reviews: bed.reviews } : {}),
  });
  servers.push(server);
  return new ManagementClient(endpoint);
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isAppError(err)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

test('without Temporal every review route answers unavailable', async (t) => {
  const client = await serve('no-temporal', false);
  for (const call of [
    client.get(routes.reviews),
    client.get(routes.review('room-review:r1')),
    client.post(routes.reviewApprove('room-review:r1'), {}),
    client.post(routes.reviewReject('room-review:r1'), { reason: 'x' }),
  ]) {
    const err = await failure(call);
    t.is(err.code, 'unavailable');
    t.regex(err.message, /review workflows need Temporal/);
  }
});

test('list, show and approve; the reviewer is the caller in the actor header', async (t) => {
  const client = await serve('reviews', true);
  const username = uid('mona');
  const { reviewId } = await bed.reviews.startRegistrationReview({ mode: 'webauthn', subjectKey: username, username, sealedPayload: 'sealed:x', ttlMs: 600_000 });

  const shown = await client.get<ReviewView>(routes.review(reviewId));
  t.like(shown, { reviewId, kind: 'registration', state: 'pending', username });
  const listed = await waitForListed(client, reviewId);
  t.like(listed, { mode: 'webauthn', subject: username, state: 'pending' });

  const approved = await client.post<ReviewView>(routes.reviewApprove(reviewId), { reason: '  known member ' });
  t.is(approved.state, 'approved');
  t.regex(approved.decision?.reviewer ?? '', /^cli:/);
  t.is(approved.decision?.reason, 'known member');
  const conflict = await failure(client.post(routes.reviewReject(reviewId), { reason: 'changed my mind' }));
  t.is(conflict.code, 'conflict');
  t.regex(conflict.message, /is already approved/);
});

test('bad input is refused naming the field', async (t) => {
  const client = await serve('bad-input', true);
  const list = await failure(client.get(`${routes.reviews}?kind=signup&state=done&limit=0`));
  t.is(list.code, 'invalid_argument');
  t.deepEqual(list.issues.map((issue) => issue.key), ['kind', 'state', 'limit']);

  const { reviewId } = await bed.reviews.startRoomReview({ roomId: uid('room'), roomName: 'Room', ownerId: 'olga', ttlMs: 600_000 });
  const noReason = await failure(client.post(routes.reviewReject(reviewId), {}));
  t.is(noReason.code, 'invalid_argument');
  t.deepEqual(noReason.issues.map((issue) => issue.key), ['reason']);
  const reviewerInBody = await failure(client.post(routes.reviewApprove(reviewId), { reviewer: 'someone-else' }));
  t.is(reviewerInBody.code, 'invalid_argument');
  t.deepEqual(reviewerInBody.issues.map((issue) => issue.key), ['reviewer']);
  t.is((await client.get<ReviewView>(routes.review(reviewId))).state, 'pending');

  const unknown = await failure(client.get(routes.review(`room-review:${uid('none')}`)));
  t.is(unknown.code, 'not_found');
  const foreign = await failure(client.post(routes.reviewApprove('some-other-workflow'), {}));
  t.is(foreign.code, 'not_found');
});

async function waitForListed(client: ManagementClient, reviewId: string): Promise<ReviewSummary> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { reviews } = await client.get<{ reviews: ReviewSummary[] }>(`${routes.reviews}?kind=registration&state=pending&limit=1000`);
    const found = reviews.find((review) => review.reviewId === reviewId);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`${reviewId} not listed within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
