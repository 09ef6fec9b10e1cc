import { randomBytes } from 'node:crypto';
import test from 'ava';
import { connect, type NatsConnection } from 'nats';
import type { MemberRoomView, RoomInfo } from '../../actors/room/index.js';
import type { Caller } from '../../actors/runtime/actor-type.js';
import { ActorClient } from '../../actors/runtime/client.js';
import type { ReviewSummary, ReviewView } from '../../contracts/management.js';
import { natsOptions } from '../../server/connections.js';
import { eventually, waitFor } from '../fixtures/deadline.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../harness/replica.js';
import { freshDatabase, testStack } from '../harness/stack.js';
import { runSvc } from '../harness/svc-process.js';

// `svc review ...` against a real `svc serve` (all roles) on the test stack: a room created
// under review starts its review workflow on the replica's worker, and the CLI decides it.
// The replica has a task queue and NATS prefix of its own, so no other test's worker or
// actor host takes part.
const owner: Caller = { userId: 'owner-olga', name: 'Olga' };
let replica: Replica;
let nc: NatsConnection;
let actors: ActorClient;

test.before(async () => {
  const databaseUrl = await freshDatabase('review_cli');
  const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: databaseUrl });
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const env = await replicaEnv(databaseUrl, await generatedSecrets(), {
    SVC_NATS_SUBJECT_PREFIX: prefix,
    SVC_TEMPORAL_TASK_QUEUE: `test-review-cli-${randomBytes(4).toString('hex')}`,
  });
  replica = await startReplica(['--replica-id', 'review-cli'], env);
  const enabled = await runSvc(['settings', 'update', 'room', '--set', 'createRoomNeedReview=true'], replica.cliEnv);
  if (enabled.code !== 0) throw new Error(`settings update failed: ${enabled.stderr}`);
  nc = await connect(natsOptions([testStack().natsUrl], 'test-review-cli'));
  actors = new ActorClient(nc, prefix);
});

test.after.always(async () => {
  await replica?.process.stop();
  await nc?.close();
});

async function createRoom(): Promise<string> {
  const roomId = `room-${randomBytes(4).toString('hex')}`;
  const { result } = await actors.send<{ room: RoomInfo }>('room', roomId, { kind: 'room.create', name: `Room ${roomId}`, visibility: 'public' }, { caller: owner, timeoutMs: 10_000 });
  if (result.room.status !== 'pending_review') throw new Error(`room ${roomId} is ${result.room.status}, not under review`);
  return roomId;
}

async function roomStatus(roomId: string): Promise<string> {
  const { result } = await actors.send<MemberRoomView>('room', roomId, { kind: 'room.get' }, { caller: owner, timeoutMs: 10_000 });
  return result.room.status;
}

async function svc(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runSvc(args, replica.cliEnv);
}

test.serial('review list, show and approve a room created under review', async (t) => {
  const roomId = await createRoom();
  const reviewId = `room-review:${roomId}`;

  const listed = await waitFor(
    'the review in `svc review list --json`',
    async () => {
      const result = await svc('review', 'list', '--kind', 'room', '--state', 'pending', '--json');
      if (result.code !== 0) throw new Error(result.stderr);
      return (JSON.parse(result.stdout) as ReviewSummary[]).find((review) => review.reviewId === reviewId);
    },
    20_000,
  );
  t.like(listed, { kind: 'room', mode: 'room', subject: `Room ${roomId}`, state: 'pending' });
  const table = await svc('review', 'list', '--state', 'pending');
  t.is(table.code, 0, table.stderr);
  t.true(table.stdout.includes(reviewId));

  const shown = await svc('review', 'show', reviewId);
  t.is(shown.code, 0, shown.stderr);
  t.regex(shown.stdout, /^state:\s+pending$/m);
  t.regex(shown.stdout, new RegExp(`^room:\\s+Room ${roomId} \\(${roomId}\\)$`, 'm'));
  t.regex(shown.stdout, /^owner:\s+owner-olga$/m);

  const approved = await svc('review', 'approve', reviewId, '--reason', 'a film club');
  t.is(approved.code, 0, approved.stderr);
  t.regex(approved.stdout, new RegExp(`^review ${reviewId} approved by cli:`));
  await eventually(async () => (await roomStatus(roomId)) === 'active', 20_000, 'the room active');

  const view = JSON.parse((await svc('review', 'show', reviewId, '--json')).stdout) as ReviewView;
  t.like(view, { state: 'approved', decision: { reason: 'a film club' } });
  t.regex(view.decision?.reviewer ?? '', /^cli:/);

  const again = await svc('review', 'approve', reviewId);
  t.is(again.code, 1);
  t.regex(again.stderr, new RegExp(`error\\[conflict\\]: review ${reviewId} is already approved`));
});

test.serial('review reject needs a reason, then rejects the room', async (t) => {
  const roomId = await createRoom();
  const reviewId = `room-review:${roomId}`;
  await waitFor('the review started', async () => ((await svc('review', 'show', reviewId)).code === 0 ? true : undefined), 20_000);

  const noReason = await svc('review', 'reject', reviewId);
  t.not(noReason.code, 0);
  t.regex(noReason.stdout + noReason.stderr, /--reason/);
  t.regex((await svc('review', 'show', reviewId)).stdout, /^state:\s+pending$/m);

  const rejected = await svc('review', 'reject', reviewId, '--reason', 'spam');
  t.is(rejected.code, 0, rejected.stderr);
  t.regex(rejected.stdout, new RegExp(`^review ${reviewId} rejected by cli:`));
  await eventually(async () => (await roomStatus(roomId)) === 'rejected', 20_000, 'the room rejected');
  t.regex((await svc('review', 'show', reviewId)).stdout, /^reason:\s+spam$/m);
});

test('unknown reviews and bad filters are errors with their codes', async (t) => {
  const unknown = await svc('review', 'show', 'room-review:no-such-room');
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /error\[not_found\]: no review room-review:no-such-room/);
  const bad = await svc('review', 'list', '--state', 'lost');
  t.is(bad.code, 1);
  t.regex(bad.stderr, /error\[invalid_argument\]: state: must be pending, approved, rejected or expired/);
});
