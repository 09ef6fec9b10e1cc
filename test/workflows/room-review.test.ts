import test from 'ava';
import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import type { NatsConnection } from 'nats';
import { createRoomActorType, type MemberRoomView, type RoomInfo, type RoomReviewHook } from '../../actors/room/index.js';
import type { Caller } from '../../actors/runtime/actor-type.js';
import { ActorClient } from '../../actors/runtime/client.js';
import { ActorHost } from '../../actors/runtime/host.js';
import { roomReviewId } from '../../workflows/ids.js';
import type { RoomReviewView } from '../../contracts/review.js';
import { ROOM_REVIEW_TTL_MS, WorkflowRoomReviewHook } from '../../workflows/room-review/hook.js';
import { actorRoomDecisions } from '../../workflows/room-review/room-decisions.js';
import { connectNats } from '../fixtures/actor-host-process.js';
import { RoomTestBed } from '../actors/room/fixtures.js';
import { capturingLogger, startReviewBed, uid, withDeadline, type ReviewBed } from './fixtures.js';

// Rooms created under review (room.createRoomNeedReview) on a real actor host over NATS and
// PostgreSQL, reviewed by the room-review workflow on the real Temporal: the hook starts the
// review, the workflow's activity tells the room actor through the ActorClient.
const { logger } = capturingLogger();
const owner: Caller = { userId: 'owner-olga', name: 'Olga' };
const RESULT_MS = 20_000;

let rooms: RoomTestBed;
let nc: NatsConnection;
let host: ActorHost;
let actors: ActorClient;
let bed: ReviewBed;
/** The hook the room actor calls; a test may give it a short ttl. */
let hook: RoomReviewHook;

test.before(async () => {
  rooms = await RoomTestBed.start('room_review');
  await rooms.settings.update('room', { createRoomNeedReview: true }, { actor: 'test', source: 'test' });
  nc = await connectNats('test-room-review');
  const prefix = uid('t').replace(/-/g, '');
  actors = new ActorClient(nc, prefix);
  bed = await startReviewBed('room', { rooms: actorRoomDecisions(actors, logger), logger });
  hook = new WorkflowRoomReviewHook(bed.reviews);
  host = await ActorHost.start({
    nc,
    prefix,
    hostId: uid('room-review-host'),
    logger,
    types: [
      createRoomActorType({
        pool: rooms.pool,
        settings: rooms.settings,
        logger,
        review: { roomCreatedPendingReview: (room) => hook.roomCreatedPendingReview(room) },
      }),
    ],
  });
});

test.after.always(async () => {
  await host?.stop();
  await bed?.stop();
  await nc?.close();
  await rooms?.close();
});

async function createRoom(roomId: string): Promise<RoomInfo> {
  const { result } = await actors.send<{ room: RoomInfo }>('room', roomId, { kind: 'room.create', name: `Room ${roomId}`, visibility: 'public' }, { caller: owner, timeoutMs: 10_000 });
  return result.room;
}

async function roomStatus(roomId: string): Promise<string> {
  const { result } = await actors.send<MemberRoomView>('room', roomId, { kind: 'room.get' }, { caller: owner, timeoutMs: 10_000 });
  return result.room.status;
}

function result(reviewId: string): Promise<RoomReviewView> {
  return withDeadline(bed.client.workflow.getHandle(reviewId).result() as Promise<RoomReviewView>, RESULT_MS, `result of ${reviewId}`);
}

test.serial('a room created under review is approved by an approve signal and becomes active', async (t) => {
  const roomId = uid('room');
  const created = await createRoom(roomId);
  t.is(created.status, 'pending_review');

  const reviewId = roomReviewId(roomId);
  const pending = await bed.reviews.show(reviewId);
  t.like(pending, { kind: 'room', roomId, roomName: `Room ${roomId}`, ownerId: owner.userId, state: 'pending' });
  const firstRun = (await bed.client.workflow.getHandle(reviewId).describe()).runId;
  // The owner retrying room.create (a lost reply) finds the same review, not a second one.
  t.is((await createRoom(roomId)).status, 'pending_review');
  t.is((await bed.client.workflow.getHandle(reviewId).describe()).runId, firstRun);
  t.true(new Date(pending.expiresAt).getTime() - new Date(pending.requestedAt).getTime() >= ROOM_REVIEW_TTL_MS - 60_000);

  await bed.client.workflow.getHandle(reviewId).signal('approve', { reviewer: 'alice' });
  const done = await result(reviewId);
  t.like(done, { state: 'approved', decision: { reviewer: 'alice' } });
  t.is(await roomStatus(roomId), 'active');
});

test.serial('a room rejected through the client stays rejected', async (t) => {
  const roomId = uid('room');
  await createRoom(roomId);
  const reviewId = roomReviewId(roomId);
  const view = await bed.reviews.reject(reviewId, { reviewer: 'bob', reason: 'not a watch party' });
  t.like(view, { state: 'rejected', decision: { reviewer: 'bob', reason: 'not a watch party' } });
  t.like(await result(reviewId), { state: 'rejected' });
  t.is(await roomStatus(roomId), 'rejected');
  const conflict = await t.throwsAsync(bed.reviews.approve(reviewId, { reviewer: 'carol' }));
  t.regex(conflict?.message ?? '', /is already rejected/);
  t.is(await roomStatus(roomId), 'rejected');
});

test.serial('a room nobody reviews in time is rejected by the expiry', async (t) => {
  hook = new WorkflowRoomReviewHook(bed.reviews, 2_000);
  try {
    const roomId = uid('room');
    await createRoom(roomId);
    const done = await result(roomReviewId(roomId));
    t.like(done, { state: 'expired', decision: { reviewer: 'system:expiry' } });
    t.is(await roomStatus(roomId), 'rejected');
  } finally {
    hook = new WorkflowRoomReviewHook(bed.reviews);
  }
});

test.serial('approving a room its owner deleted meanwhile fails the review with not_found, once', async (t) => {
  const roomId = uid('room');
  await createRoom(roomId);
  await actors.send('room', roomId, { kind: 'room.delete' }, { caller: owner, timeoutMs: 10_000 });
  const reviewId = roomReviewId(roomId);
  await bed.reviews.approve(reviewId, { reviewer: 'alice' });
  const err = await t.throwsAsync(result(reviewId), { instanceOf: WorkflowFailedError });
  t.true(err?.cause instanceof ApplicationFailure);
  t.is((err?.cause as ApplicationFailure).type, 'not_found');
  t.regex((err?.cause as ApplicationFailure).message, /could not be approved: room .* does not exist/);
  // Not retried: the activity failed for good at its first attempt.
  const activity = (err?.cause as ApplicationFailure).cause;
  t.true(activity instanceof ActivityFailure);
  t.is((activity as ActivityFailure).retryState, RetryState.NON_RETRYABLE_FAILURE);
});
