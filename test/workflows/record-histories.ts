/**
 * Records the workflow histories that replay.test.ts replays (test/workflows/histories/*.json),
 * from real runs of the review workflows on a Temporal server, with stand-in decisions.
 *
 * Run it by hand, only after a deliberate change to workflow code (a change that makes old
 * histories fail to replay would also break every review in flight; see workflows/README.md):
 *
 *   npm run stack:start                              # or any Temporal with the Svc* search attributes
 *   npx tsc -p .
 *   node dist/test/workflows/record-histories.js     # uses SVC_TEMPORAL_ADDRESS, else .svc/stack/stack.env
 *   node dist/test/workflows/record-histories.js 127.0.0.1:7233
 *
 * then commit the rewritten JSON files with the change.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import type { RoomDecisions } from '../../workflows/decisions.js';
import { repoRoot } from '../harness/stack.js';
import { encodeHistoryFile } from './history-file.js';
import { RecordingRegistrations, startReviewBed, uid, waitFor, withDeadline, type ReviewBed } from './fixtures.js';

interface Scenario {
  name: string;
  description: string;
  workflowType: 'registrationReview' | 'roomReview';
  run(bed: ReviewBed, registrations: RecordingRegistrations): Promise<string>;
}

const SEALED = 'v1.recorded-sealed-payload-not-a-secret';

const scenarios: Scenario[] = [
  {
    name: 'registration-approve',
    description: 'registration review: a malformed signal (ignored), approve by signal, a late reject while the account is created (ignored)',
    workflowType: 'registrationReview',
    async run(bed, registrations) {
      const { reviewId } = await bed.reviews.startRegistrationReview({ mode: 'password', subjectKey: uid('recorded-alice'), username: 'alice', sealedPayload: SEALED, ttlMs: 3_600_000 });
      const release = registrations.holdApprove(reviewId);
      const handle = bed.client.workflow.getHandle(reviewId);
      await handle.signal('reject', { reviewer: 'eve' });
      await handle.signal('approve', { reviewer: 'alice', reason: 'known to us' });
      await waitFor('approve called', () => Promise.resolve(registrations.callsFor(reviewId).length > 0 ? true : undefined), 20_000);
      await handle.signal('reject', { reviewer: 'mallory', reason: 'too late' });
      release();
      await withDeadline(handle.result(), 20_000, reviewId);
      return reviewId;
    },
  },
  {
    name: 'registration-reject',
    description: 'registration review: reject by signal with a reason',
    workflowType: 'registrationReview',
    async run(bed) {
      const { reviewId } = await bed.reviews.startRegistrationReview({ mode: 'oauth2', subjectKey: uid('recorded-bob'), username: 'bob', sealedPayload: SEALED, ttlMs: 3_600_000 });
      const handle = bed.client.workflow.getHandle(reviewId);
      await handle.signal('reject', { reviewer: 'alice', reason: 'spam account' });
      await withDeadline(handle.result(), 20_000, reviewId);
      return reviewId;
    },
  },
  {
    name: 'registration-expire',
    description: 'registration review: nobody decides within the ttl (2 s), the signup expires',
    workflowType: 'registrationReview',
    async run(bed) {
      const { reviewId } = await bed.reviews.startRegistrationReview({ mode: 'email', subjectKey: uid('recorded-carol'), username: 'carol', sealedPayload: SEALED, ttlMs: 2_000 });
      await withDeadline(bed.client.workflow.getHandle(reviewId).result(), 20_000, reviewId);
      return reviewId;
    },
  },
  {
    name: 'room-approve',
    description: 'room review: approve by signal, the room actor is told',
    workflowType: 'roomReview',
    async run(bed) {
      const { reviewId } = await bed.reviews.startRoomReview({ roomId: uid('recorded-room'), roomName: 'Movie night', ownerId: 'alice', ttlMs: 3_600_000 });
      const handle = bed.client.workflow.getHandle(reviewId);
      await handle.signal('approve', { reviewer: 'bob' });
      await withDeadline(handle.result(), 20_000, reviewId);
      return reviewId;
    },
  },
];

async function temporalAddress(): Promise<string> {
  const given = process.argv[2] ?? process.env.SVC_TEMPORAL_ADDRESS;
  if (given) return given;
  const env = await readFile(join(repoRoot(), '.svc', 'stack', 'stack.env'), 'utf8').catch(() => '');
  const match = /^export SVC_TEMPORAL_ADDRESS=(\S+)$/m.exec(env);
  if (!match?.[1]) throw new Error('no Temporal address: pass one, set SVC_TEMPORAL_ADDRESS, or start the dev stack (npm run stack:start)');
  return match[1];
}

const logger = pino({ level: 'warn' });
const registrations = new RecordingRegistrations();
const rooms: RoomDecisions = { decide: () => Promise.resolve() };
const bed = await startReviewBed('record', { registrations, rooms, logger, temporalAddress: await temporalAddress() });
try {
  for (const scenario of scenarios) {
    const reviewId = await scenario.run(bed, registrations);
    const history = await bed.client.workflow.getHandle(reviewId).fetchHistory();
    const path = join(repoRoot(), 'test', 'workflows', 'histories', `${scenario.name}.json`);
    await writeFile(path, encodeHistoryFile(scenario.description, scenario.workflowType, history));
    console.log(`${path}: ${history.events?.length ?? 0} events`);
  }
} finally {
  await bed.stop();
}
