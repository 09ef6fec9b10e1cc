/**
 * A review worker on the test stack's Temporal with decisions the test controls: each test
 * file gets a task queue of its own, so workers of other files (and `svc serve` replicas of
 * other tests, on the default queue) never take its tasks.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { pino, type Logger } from 'pino';
import { createActivities } from '../../workflows/activities.js';
import type { RegistrationDecisions, RoomDecisions } from '../../workflows/decisions.js';
import { ReviewClient } from '../../workflows/review-client.js';
import { ensureSearchAttributes, installTemporalLogging, startReviewWorker, type ReviewWorker } from '../../workflows/worker.js';
import { testStack } from '../harness/stack.js';

export { withDeadline, waitFor } from '../fixtures/deadline.js';

export const NAMESPACE = 'default';

/** A unique id with a readable prefix. */
export const uid = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

/** A pino logger keeping its lines in memory (parsed), also the Temporal runtime's when installed first. */
export function capturingLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: process.env.SVCTEST_LOG_LEVEL ?? 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

type Call =
  | { method: 'approve'; input: Parameters<RegistrationDecisions['approve']>[0] }
  | { method: 'reject'; input: Parameters<RegistrationDecisions['reject']>[0] }
  | { method: 'expire'; input: Parameters<RegistrationDecisions['expire']>[0] };

/** Records every call; a test can make the next calls of a review fail with errors of its choice. */
export class RecordingRegistrations implements RegistrationDecisions {
  readonly calls: Call[] = [];
  private readonly failures = new Map<string, Error[]>();
  private readonly held = new Map<string, Promise<void>>();
  /** What approve does with the sealed payload (the accounts module opens it); default: nothing. */
  open: (sealedPayload: string) => void = () => undefined;

  /** The next calls for `reviewId` throw these, in order. */
  failNext(reviewId: string, ...errors: Error[]): void {
    this.failures.set(reviewId, errors);
  }

  /** The next approve of `reviewId` waits until the returned function is called. */
  holdApprove(reviewId: string): () => void {
    let release: () => void = () => undefined;
    this.held.set(reviewId, new Promise<void>((resolve) => (release = resolve)));
    return () => release();
  }

  callsFor(reviewId: string): Call[] {
    return this.calls.filter((call) => call.input.reviewId === reviewId);
  }

  async approve(input: Parameters<RegistrationDecisions['approve']>[0]): Promise<{ userId: string }> {
    this.calls.push({ method: 'approve', input });
    const held = this.held.get(input.reviewId);
    this.held.delete(input.reviewId);
    if (held) await held;
    this.throwIfFailing(input.reviewId);
    this.open(input.sealedPayload);
    return { userId: `user-of-${input.reviewId}` };
  }

  reject(input: Parameters<RegistrationDecisions['reject']>[0]): Promise<void> {
    this.calls.push({ method: 'reject', input });
    this.throwIfFailing(input.reviewId);
    return Promise.resolve();
  }

  expire(input: Parameters<RegistrationDecisions['expire']>[0]): Promise<void> {
    this.calls.push({ method: 'expire', input });
    this.throwIfFailing(input.reviewId);
    return Promise.resolve();
  }

  private throwIfFailing(reviewId: string): void {
    const error = this.failures.get(reviewId)?.shift();
    if (error) throw error;
  }
}

const refuse = (): Promise<never> => Promise.reject(new Error('no registrations in this test'));
const noRegistrations: RegistrationDecisions = { approve: refuse, reject: refuse, expire: refuse };

export interface ReviewBed {
  /** The plain Temporal client, as the Temporal UI would act. */
  client: Client;
  connection: Connection;
  reviews: ReviewClient;
  taskQueue: string;
  stop(): Promise<void>;
}

/** Connects to the test stack's Temporal and runs a review worker with the given decisions. */
export async function startReviewBed(
  label: string,
  options: { registrations?: RegistrationDecisions; rooms?: RoomDecisions; logger: Logger; temporalAddress?: string },
): Promise<ReviewBed> {
  const temporalAddress = options.temporalAddress ?? testStack().temporalAddress;
  installTemporalLogging(options.logger);
  const taskQueue = uid(`test-${label}`);
  const connection = await Connection.connect({ address: temporalAddress });
  await ensureSearchAttributes(connection, NAMESPACE);
  const workerConnection = await NativeConnection.connect({ address: temporalAddress });
  let worker: ReviewWorker | undefined;
  try {
    worker = await startReviewWorker({
      connection: workerConnection,
      namespace: NAMESPACE,
      taskQueue,
      logger: options.logger,
      activities: createActivities({
        registrations: options.registrations ?? noRegistrations,
        rooms: options.rooms ?? { decide: () => Promise.reject(new Error('no rooms in this test')) },
      }),
    });
  } catch (err) {
    await workerConnection.close();
    await connection.close();
    throw err;
  }
  const client = new Client({ connection, namespace: NAMESPACE });
  const running = worker;
  return {
    client,
    connection,
    reviews: new ReviewClient(client, { taskQueue }),
    taskQueue,
    stop: async () => {
      await running.stop();
      await workerConnection.close();
      await connection.close();
    },
  };
}
