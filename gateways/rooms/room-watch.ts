/**
 * One client connection's view of a room, shared by the WebSocket gateway and gRPC
 * `WatchRoom`: it announces the connection to the room (`presence.enter`, repeated as a
 * heartbeat, and `presence.leave` when it closes), starts the client with a snapshot or with
 * exactly the events it missed, then delivers the room's events in seq order, filtered to what
 * this member may see, and ends the watch when the member leaves, is kicked, banned or
 * rejected, or the room is deleted.
 *
 * Ordering: the topic listener is registered before the snapshot is read, so no event is
 * lost between the two; events at or below the start's seq are already in the snapshot (or
 * the resumed events) and are skipped, so none is delivered twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { subjectOf, type Caller } from '../../accounts/index.js';
import type { MemberRoomView } from '../../actors/index.js';
import type { SettingsReader } from '../../settings/index.js';
import { AppError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import type { Permission } from '../../contracts/permissions/names.js';
import { MemberLens, type WatchEndReason } from './member-lens.js';
import type { RoomClient } from './room-client.js';
import type { FeedEvent, RoomFeeds, RoomTopic, TopicListener } from './room-feed.js';

export type { WatchEndReason } from './member-lens.js';

/** How a watch starts: the whole room, or exactly the events after the client's seq. */
export type WatchStart =
  | { kind: 'snapshot'; snapshot: MemberRoomView }
  | { kind: 'resumed'; fromSeq: number; events: FeedEvent[]; seq: number };

export interface WatchListener {
  /** An event this member may see; seqs only increase. */
  event(event: FeedEvent): void;
  /** Events may have been lost in the gateway (NATS reconnected), or the room came back without what it held in memory: replace the client's state with this. */
  snapshot(view: MemberRoomView): void;
  /** The member is no longer in the room; the watch is closed. Called once. */
  ended(reason: WatchEndReason, message: string): void;
}

export interface WatchRequest {
  roomId: string;
  caller: Caller;
  /** Unique per socket or stream: the room counts a member online while any connection is. */
  connectionId: string;
  /** The last seq the client holds (a reconnect). */
  resumeFrom?: number;
}

export interface RoomWatcherOptions {
  /** How often a connection is announced again; well inside the room's presence TTL (90 s). Default 30 s. */
  presenceIntervalMs?: number;
}

/**
 * What every watch answers with a snapshot: the room's new activation after an unclean end, and
 * a crowd ending (its list is whole again, docs/2026-11-30-crowds.md).
 */
const replacesTheView = (entry: FeedEvent): boolean => entry.event.type === 'room.activated' || (entry.event.type === 'headcount' && entry.event.relist === true);

/** Longest wait for in-flight events before a resume falls back to a snapshot. */
const CATCH_UP_MS = 1_000;

/** Pauses between tries to re-read the room after a NATS reconnect (the room's host may still be reconnecting). */
const RESNAPSHOT_RETRY = { initialMs: 250, maxMs: 5_000 };

const END_MESSAGES: Record<WatchEndReason, string> = {
  left: 'you left the room',
  kicked: 'you were removed from the room',
  banned: 'you were banned from the room',
  rejected: 'your join request was rejected',
  room_deleted: 'the room was deleted',
};

export class RoomWatcher {
  private readonly presenceIntervalMs: number;

  constructor(
    private readonly feeds: RoomFeeds,
    private readonly rooms: RoomClient,
    private readonly settings: SettingsReader,
    private readonly logger: Logger,
    options: RoomWatcherOptions = {},
  ) {
    this.presenceIntervalMs = options.presenceIntervalMs ?? 30_000;
  }

  /**
   * Opens a watch: rejects with the room's error when the caller is not an active member
   * (`forbidden`) or the room does not exist (`not_found`). Call `begin` once the start has
   * been sent to the client.
   */
  async open(request: WatchRequest): Promise<RoomWatch> {
    const watch = new RoomWatch(request, this.feeds.topic(request.roomId), this.rooms, this.settings, this.logger, this.presenceIntervalMs);
    await watch.open();
    return watch;
  }
}

type State = 'opening' | 'started' | 'live' | 'closed';

export class RoomWatch {
  start!: WatchStart;
  private lens!: MemberLens;
  private state: State = 'opening';
  private listener: WatchListener | undefined;
  /** Events received while the start was being read or before `begin`. */
  private pending: FeedEvent[] = [];
  private lastSeq = -Infinity;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly topicListener: TopicListener;
  /** NATS reconnects seen by the topic: a room read from before the latest one may lack what it lost. */
  private resets = 0;
  /** `resets` when the start was read. */
  private startResets = 0;

  constructor(
    private readonly request: WatchRequest,
    private readonly topic: RoomTopic,
    private readonly rooms: RoomClient,
    private readonly settings: SettingsReader,
    private readonly logger: Logger,
    private readonly presenceIntervalMs: number,
  ) {
    this.topicListener = {
      event: (event) => {
        if (this.state === 'live') this.deliver(event);
        else if (this.state !== 'closed') this.pending.push(event);
      },
      reset: () => {
        this.resets += 1;
        void this.resnapshot();
      },
    };
  }

  get roomId(): string {
    return this.request.roomId;
  }

  /** The member's effective permissions as the watch follows them (owner, role, overrides, settings). */
  permissions(): ReadonlySet<Permission> {
    return this.lens.permissions();
  }

  /** @internal Used by RoomWatcher.open. */
  async open(): Promise<void> {
    this.topic.add(this.topicListener);
    this.startResets = this.resets;
    let view: MemberRoomView;
    try {
      view = await this.enter();
    } catch (err) {
      this.state = 'closed';
      this.topic.remove(this.topicListener);
      throw err;
    }
    // A read that overlapped a reconnect does not prove that every later event reached the topic.
    if (this.resets === this.startResets) this.topic.covered(view.seq);
    this.lens = new MemberLens(subjectOf(this.request.caller), view, this.settings);
    const missed = await this.missed(view.seq);
    if (this.state === 'closed') throw new AppError('unavailable', 'the watch was closed while it opened');
    if (missed) {
      this.start = { kind: 'resumed', fromSeq: this.request.resumeFrom!, events: missed.filter((entry) => this.lens.visible(entry.event)).map((entry) => this.shaped(entry)), seq: view.seq };
    } else {
      this.start = { kind: 'snapshot', snapshot: view };
    }
    this.lastSeq = view.seq;
    this.state = 'started';
    this.heartbeat = setInterval(() => void this.announce(), this.presenceIntervalMs);
    this.heartbeat.unref();
  }

  /** The events after the client's seq up to the snapshot's, when this gateway provably holds all of them. */
  private async missed(snapshotSeq: number): Promise<FeedEvent[] | undefined> {
    const { resumeFrom } = this.request;
    if (resumeFrom === undefined) return undefined;
    // Up to date already (a quiet room): nothing to send, nothing to wait for.
    if (resumeFrom === snapshotSeq) return [];
    if (this.topic.missedSince(resumeFrom, snapshotSeq) === undefined) return undefined;
    // The events the snapshot counts may still be on their way here.
    if (!(await this.topic.reached(snapshotSeq, CATCH_UP_MS))) return undefined;
    const missed = this.topic.missedSince(resumeFrom, snapshotSeq);
    // Across an unclean reactivation the events do not say what the old activation lost.
    return missed?.some(replacesTheView) ? undefined : missed;
  }

  /** Delivers the events that arrived since the start, then every later one, to `listener`. */
  begin(listener: WatchListener): void {
    if (this.state !== 'started') return;
    this.listener = listener;
    this.state = 'live';
    this.flushPending();
    // NATS reconnected while the start was read or sent: it may lack what was lost.
    if (this.resets !== this.startResets) void this.resnapshot();
  }

  /** Closes the watch and tells the room this connection is gone. Idempotent. */
  async close(): Promise<void> {
    if (!this.stop()) return;
    try {
      await this.rooms.send(this.roomId, { kind: 'presence.leave', connectionId: this.request.connectionId }, this.request.caller, { timeoutMs: 2_000 });
    } catch (err) {
      // The room drops connections it stops hearing from (presence TTL); nothing is lost.
      this.logger.debug({ err, roomId: this.roomId }, 'presence.leave failed');
    }
  }

  private stop(): boolean {
    if (this.state === 'closed') return false;
    this.state = 'closed';
    clearInterval(this.heartbeat);
    this.topic.remove(this.topicListener);
    this.pending = [];
    return true;
  }

  private deliver(entry: FeedEvent): void {
    if (entry.seq <= this.lastSeq || !this.listener) return;
    this.lastSeq = entry.seq;
    // A new activation after an unclean end: what the old one held in memory (the stage, the
    // voice call, presence) is gone, so the client's view is replaced, and reading it announces
    // this connection to the new activation at once rather than at the next heartbeat. A crowd
    // ending is answered alike: the events never named its plain members.
    if (replacesTheView(entry)) {
      void this.resnapshot();
      return;
    }
    const ends = this.lens.endsWatch(entry.event);
    if (this.lens.admit(entry.event)) this.listener.event(this.shaped(entry));
    if (ends) this.end(ends);
  }

  /** The entry as this member receives it; the feed's own entry is shared by every watch, so never changed. */
  private shaped(entry: FeedEvent): FeedEvent {
    const event = this.lens.shape(entry.event);
    return event === entry.event ? entry : { ...entry, event };
  }

  private end(reason: WatchEndReason): void {
    const listener = this.listener;
    if (!this.stop()) return;
    listener?.ended(reason, END_MESSAGES[reason]);
  }

  private flushPending(): void {
    const pending = this.pending;
    this.pending = [];
    for (const entry of pending) {
      if (this.state !== 'live') return;
      this.deliver(entry);
    }
  }

  /**
   * After a NATS reconnect, or the room's unclean reactivation: a fresh snapshot replaces whatever the client holds. The room is
   * read again until it answers (its host may reconnect later than this gateway), and again if
   * another reconnect came while it was read; a refusal ends the watch.
   */
  private async resnapshot(): Promise<void> {
    if (this.state !== 'live') return;
    this.state = 'started';
    for (let attempt = 0; ; attempt += 1) {
      const resets = this.resets;
      // Whatever arrived before this read is in its snapshot.
      this.pending = [];
      try {
        const view = await this.enter();
        if (this.state !== 'started') return;
        if (resets !== this.resets) continue;
        this.topic.covered(view.seq);
        this.lens.reset(view);
        this.lastSeq = view.seq;
        this.state = 'live';
        this.listener?.snapshot(view);
        this.flushPending();
        return;
      } catch (err) {
        if (this.state !== 'started' || this.endOnRefusal(err)) return;
        this.logger.warn({ err, roomId: this.roomId, attempt }, 'reading the room again (a NATS reconnect or its reactivation) failed; trying again');
      }
      await sleep(Math.min(RESNAPSHOT_RETRY.initialMs * 2 ** attempt, RESNAPSHOT_RETRY.maxMs), undefined, { ref: false });
      if (this.state !== 'started') return;
    }
  }

  private async announce(): Promise<void> {
    try {
      await this.rooms.send(this.roomId, { kind: 'presence.refresh', connectionId: this.request.connectionId }, this.request.caller);
    } catch (err) {
      if (!this.endOnRefusal(err)) this.logger.warn({ err, roomId: this.roomId }, 'presence announcement failed; retrying at the next heartbeat');
    }
  }

  /**
   * A refusal of the room means the member is gone (the event saying so may have been lost):
   * the watch ends and this answers true. Anything else is the caller's to retry.
   */
  private endOnRefusal(err: unknown): boolean {
    if (!(err instanceof AppError) || (err.code !== 'forbidden' && err.code !== 'not_found')) return false;
    this.end(err.code === 'not_found' ? 'room_deleted' : 'left');
    return true;
  }

  private async enter(): Promise<MemberRoomView> {
    const { result } = await this.rooms.send(this.roomId, { kind: 'presence.enter', connectionId: this.request.connectionId }, this.request.caller);
    return result;
  }
}
