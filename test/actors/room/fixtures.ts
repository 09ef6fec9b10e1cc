/**
 * Drives the room actor type directly, without NATS: a real PostgreSQL database (fresh per
 * test file), real runtime settings, and a small ActivationContext of our own that records
 * events, runs scheduled commands on real timers (or on demand), and serialises every
 * command through one queue the way the runtime's mailbox does.
 */
import { randomUUID } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import type pg from 'pg';
import { AppError, isAppError, type ErrorCode } from '../../../errors/app-error.js';
import { createRoomActorType, type RoomActorDeps, type RoomReviewHook, type RoomUnderReview } from '../../../actors/room/index.js';
import type { RoomCommand, RoomCommandKind, RoomEvent, RoomResults } from '../../../actors/room/index.js';
import type { ActivationContext, Actor, ActorType, Caller, CommandMeta, DeactivationReason, EventEnvelope } from '../../../actors/runtime/actor-type.js';
import { isCommandAlreadyApplied, type RecordedCommand } from '../../../actors/runtime/command-log.js';
import { createLogger, type Logger } from '../../../observability/logger.js';
import { RuntimeSettings } from '../../../settings/runtime-settings.js';
import { migrate } from '../../../postgres/migrate.js';
import { createPool } from '../../../postgres/pool.js';
import { freshDatabase } from '../../harness/stack.js';

export const logger: Logger = createLogger({ level: process.env.SVCTEST_LOG_LEVEL ?? 'silent', destination: 'stderr' });

export const user = (userId: string, name?: string): Caller => ({ userId, ...(name ? { name } : {}) });
export const guest = (userId: string): Caller => ({ userId, guest: true });
export const service = (userId = 'svc:review'): Caller => ({ userId, service: true });

/** A unique id with a readable prefix, so tests in one database never share rooms or users. */
export const uid = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Fences only ever grow, across every room of the file, like lease revisions. */
let fenceCounter = 0n;
export function nextFence(): bigint {
  fenceCounter += 1n;
  return fenceCounter;
}

interface PendingTimer {
  ms: number;
  command: unknown;
  cancelled: boolean;
  fired: boolean;
  handle: NodeJS.Timeout;
}

/** Our ActivationContext: records what the actor does with it. */
export class TestContext implements ActivationContext {
  readonly type = 'room';
  readonly trace = undefined;
  readonly events: Array<EventEnvelope<RoomEvent>> = [];
  readonly fencedReasons: string[] = [];
  readonly timers: PendingTimer[] = [];
  /** Replies an activation restored from the command log (rememberReplies), by command id. */
  readonly restoredReplies = new Map<string, string>();
  private seq: number;
  /** Where scheduled commands go when they fire (set by the TestRoom that owns this context). */
  deliver: (command: unknown) => void = () => undefined;

  constructor(
    readonly id: string,
    public fence: bigint,
    readonly logger: Logger,
    startSeq = 0,
  ) {
    this.seq = startSeq;
  }

  publish(event: unknown): number {
    this.seq += 1;
    this.events.push({ seq: this.seq, at: Date.now(), event: event as RoomEvent });
    return this.seq;
  }

  currentSeq(): number {
    return this.seq;
  }

  schedule(ms: number, command: unknown): { cancel(): void } {
    const timer: PendingTimer = {
      ms,
      command,
      cancelled: false,
      fired: false,
      handle: setTimeout(() => {
        if (timer.cancelled || timer.fired) return;
        timer.fired = true;
        this.deliver(command);
      }, ms),
    };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
        clearTimeout(timer.handle);
      },
    };
  }

  fenced(reason: string): void {
    this.fencedReasons.push(reason);
  }

  rememberReplies(commands: readonly RecordedCommand[]): void {
    for (const command of commands) this.restoredReplies.set(command.commandId, command.reply);
  }

  /** Timers scheduled and neither cancelled nor fired yet. */
  pending(): PendingTimer[] {
    return this.timers.filter((t) => !t.cancelled && !t.fired);
  }

  stopTimers(): void {
    for (const timer of this.timers) clearTimeout(timer.handle);
  }
}

/** A settable server clock for the actor (`deps.now`). */
export class TestClock {
  constructor(public ms = 1_800_000_000_000) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** One activation of one room, with a mailbox. */
export class TestRoom {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly ctx: TestContext,
    readonly actor: Actor,
    readonly clock: TestClock,
  ) {
    ctx.deliver = (command) => {
      if (!this.closed) void this.enqueue(() => this.actor.handle(command, { userId: 'runtime', service: true }, this.meta(undefined, true))).catch(() => undefined);
    };
  }

  static async activate(type: ActorType, id: string, clock: TestClock, options: { fence?: bigint; startSeq?: number } = {}): Promise<TestRoom> {
    const ctx = new TestContext(id, options.fence ?? nextFence(), logger, options.startSeq);
    const actor = await type.activate(ctx);
    const room = new TestRoom(ctx, actor, clock);
    openRooms.add(room);
    return room;
  }

  get id(): string {
    return this.ctx.id;
  }

  private meta(sentAt: number | undefined, scheduled = false, commandId: string = randomUUID()): CommandMeta {
    return {
      receivedAt: this.clock.now(),
      commandId,
      deadline: Date.now() + 60_000,
      ...(sentAt !== undefined ? { sentAt } : {}),
      ...(scheduled ? { scheduled } : {}),
    };
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Sends a command as `caller`; resolves with the typed result or rejects with the AppError.
   * Like the runtime, a command id whose reply this activation restored from the command log
   * is answered with that reply, and so is one the log refuses as applied before.
   */
  send<K extends RoomCommandKind>(
    caller: Caller,
    command: Extract<RoomCommand, { kind: K }>,
    options: { sentAt?: number; commandId?: string } = {},
  ): Promise<RoomResults[K]> {
    const restored = options.commandId !== undefined ? this.ctx.restoredReplies.get(options.commandId) : undefined;
    if (restored !== undefined) return Promise.resolve(resultOf(restored) as RoomResults[K]);
    return this.enqueue(async () => {
      try {
        return await this.actor.handle(command, caller, this.meta(options.sentAt, false, options.commandId));
      } catch (err) {
        if (isCommandAlreadyApplied(err)) return resultOf(err.reply);
        throw err;
      }
    }) as Promise<RoomResults[K]>;
  }

  /** Sends anything (for malformed-input tests). */
  sendRaw(caller: Caller, command: unknown, meta: Partial<CommandMeta> = {}): Promise<unknown> {
    return this.enqueue(() => this.actor.handle(command, caller, { ...this.meta(undefined), ...meta }));
  }

  /** Delivers the pending timer whose command has this name now, instead of waiting for it. */
  async fire(name: 'persist' | 'ready' | 'presence' | 'live' | 'poll' | 'headcount'): Promise<void> {
    const timer = this.ctx.pending().find((t) => (t.command as { name?: string }).name === name);
    if (!timer) throw new Error(`no pending ${name} timer`);
    timer.fired = true;
    clearTimeout(timer.handle);
    await this.enqueue(() => this.actor.handle(timer.command, { userId: 'runtime', service: true }, this.meta(undefined, true)));
  }

  hasTimer(name: string): boolean {
    return this.ctx.pending().some((t) => (t.command as { name?: string }).name === name);
  }

  events<T extends RoomEvent['type']>(type: T): Array<Extract<RoomEvent, { type: T }>> {
    return this.ctx.events.map((e) => e.event).filter((e): e is Extract<RoomEvent, { type: T }> => e.type === type);
  }

  lastEvent<T extends RoomEvent['type']>(type: T): Extract<RoomEvent, { type: T }> | undefined {
    return this.events(type).at(-1);
  }

  /** Deactivates the way the runtime does on passivation or drain. */
  async deactivate(reason: DeactivationReason = 'drain'): Promise<void> {
    await this.enqueue(() => this.actor.deactivate(reason, new AbortController().signal));
    this.abandon();
  }

  /** Stops delivering timers without deactivating: a host that died. */
  abandon(): void {
    this.closed = true;
    this.ctx.stopTimers();
    openRooms.delete(this);
  }
}

const openRooms = new Set<TestRoom>();

function resultOf(reply: string): unknown {
  return (JSON.parse(reply) as { result: unknown }).result;
}

/** Records review requests instead of starting a workflow. */
export class RecordingReviewHook implements RoomReviewHook {
  readonly requests: RoomUnderReview[] = [];
  failNext = false;
  roomCreatedPendingReview(room: RoomUnderReview): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('temporal unavailable'));
    }
    this.requests.push(room);
    return Promise.resolve();
  }
}

/** Dependencies a test may give the room actor type (the rest are the bed's own). */
export type RoomBedOptions = Partial<Pick<RoomActorDeps, 'persistIntervalMs' | 'presenceTtlMs' | 'media' | 'seekProbe' | 'sfu' | 'sfuLossMs'>>;

/** A database of its own, migrated, with runtime settings following it. */
export class RoomTestBed {
  readonly clock = new TestClock();
  readonly review = new RecordingReviewHook();
  readonly type: ActorType;

  private constructor(
    readonly url: string,
    readonly pool: pg.Pool,
    readonly settings: RuntimeSettings,
    private readonly options: RoomBedOptions,
  ) {
    this.type = createRoomActorType({
      pool,
      settings,
      logger,
      review: this.review,
      now: this.clock.now,
      ...options,
    });
  }

  static async start(label: string, options: RoomBedOptions = {}): Promise<RoomTestBed> {
    const url = await freshDatabase(label);
    const pool = createPool({ url, max: 8, applicationName: `svc-test-${label}`, logger });
    await migrate(pool, logger);
    const settings = await RuntimeSettings.start({ pool, connectionString: url, logger, replicaId: `test-${label}` });
    return new RoomTestBed(url, pool, settings, options);
  }

  /** A second actor type on the same database and settings (another host), with its own clock. */
  otherHost(clock = this.clock): ActorType {
    const { media, seekProbe } = this.options;
    return createRoomActorType({ pool: this.pool, settings: this.settings, logger, review: this.review, now: clock.now, ...(media ? { media } : {}), ...(seekProbe ? { seekProbe } : {}) });
  }

  /** Activates `id`; with a `clock` and no `type`, on a host whose server clock is that clock. */
  activate(id: string, options: { fence?: bigint; type?: ActorType; clock?: TestClock; startSeq?: number } = {}): Promise<TestRoom> {
    const clock = options.clock ?? this.clock;
    const type = options.type ?? (options.clock ? this.otherHost(options.clock) : this.type);
    return TestRoom.activate(type, id, clock, options);
  }

  /** A new active room owned by `owner`, with extra create fields. */
  async createRoom(
    owner: Caller,
    fields: Partial<Omit<Extract<RoomCommand, { kind: 'room.create' }>, 'kind'>> = {},
  ): Promise<TestRoom> {
    const room = await this.activate(uid('room'));
    await room.send(owner, { kind: 'room.create', name: 'Movie night', visibility: 'public', ...fields });
    return room;
  }

  /** Sets runtime settings of one group for the duration of `fn`, then puts the old values back. */
  async withSettings<T>(group: string, values: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
    const previous: Record<string, unknown> = {};
    for (const name of Object.keys(values)) previous[name] = this.settings.get(`${group}.${name}` as never);
    await this.settings.update(group, values, { actor: 'test', source: 'test' });
    try {
      return await fn();
    } finally {
      await this.settings.update(group, previous, { actor: 'test', source: 'test' });
    }
  }

  async close(): Promise<void> {
    for (const room of [...openRooms]) room.abandon();
    await this.settings.stop();
    await this.pool.end();
  }
}

/** Asserts that `promise` rejects with an AppError of `code`; returns it for further checks. */
export async function rejects(t: ExecutionContext, promise: Promise<unknown>, code: ErrorCode, message?: RegExp): Promise<AppError> {
  const err = await t.throwsAsync(promise);
  if (!isAppError(err)) {
    t.fail(`expected an AppError ${code}, got ${String(err)}`);
    throw err;
  }
  t.is(err.code, code, err.message);
  if (message) t.regex(err.message, message);
  return err;
}

/** A member of `room` (joined by `owner`'s room having no password or approval). */
export async function addMember(room: TestRoom, caller: Caller): Promise<void> {
  await room.send(caller, { kind: 'member.join' });
}

export const media = (title = 'Big Buck Bunny', extra: Record<string, unknown> = {}) => ({
  title,
  url: `https://media.example.com/${encodeURIComponent(title)}.mp4`,
  ...extra,
});
