/**
 * The room's synchronized playback: changes to its clock (`RoomCore.playback`, which every
 * part reads), the version blocks reserved in PostgreSQL, the lazy save with its retry, and the
 * ready wait (a play held until everyone present is ready; its policy is in ready-wait.ts).
 * Playback alone changes in memory first and is persisted lazily, except what must survive a
 * crash (the current media) or a version past the reserved block.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { PlaybackCause } from '../../../contracts/room/events.js';
import type { NowPlaying, PlaybackState, PlaybackView, ReadyWait } from '../../../contracts/room/model.js';
import { messageOf } from '../../runtime/nats-errors.js';
import { StateSlice, type RoomCore } from '../core.js';
import { LIVE } from '../live/live-status.js';
import { isCrowd } from '../members/headcount.js';
import { savePlayback, type StoredPlayback } from '../playback-rows.js';
import type { Turn } from '../turn.js';
import { VERSION_BLOCK, positionAt } from './playback.js';
import { PLAYBACK_WRITER } from './playback-writer.js';

/** How long playback changes may stay only in memory, unless RoomActorDeps.persistIntervalMs says otherwise. */
export const DEFAULT_PERSIST_INTERVAL_MS = 5000;

/** A playback change as a command or a timer asks for it; see RoomPlayback.plan. */
export interface PlaybackChange {
  patch: Partial<Omit<PlaybackState, 'version'>>;
  cause: PlaybackCause;
  by: string | null;
  /** The ready wait: closed, opened (or its list refreshed, keeping its deadline), or kept as it is (default). */
  wait?: 'close' | 'open' | 'keep';
  /** The current media changes: members an earlier wait gave up on are waited for again. */
  resetStragglers?: boolean;
  /** Members the wait gives up on now: published with the event, not waited for again on this media. */
  leftBehind?: string[];
}

/** A planned playback change: what the room will be once it is applied. */
export interface PlaybackPlan {
  change: PlaybackChange;
  next: PlaybackState;
  readyWait: ReadyWait | null;
  stragglers: Set<string>;
  /** Saved with the command (before the reply) rather than lazily. */
  mustWrite: boolean;
  view: PlaybackView;
}

/** Lazy playback saves that failed are tried again after this, doubling up to the persist interval. */
export const PERSIST_RETRY_FIRST_MS = 250;

function persistRetryMs(failures: number, intervalMs: number): number {
  const base = Math.min(intervalMs, PERSIST_RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 10));
  return base * (0.75 + Math.random() / 2);
}

export class RoomPlayback {
  /** Versions up to this one are reserved in PostgreSQL; a higher one must be reserved first. */
  private versionReserved = 0;
  private dirty = false;
  /** Lazy saves failed in a row (for the retry back-off). */
  private persistFailures = 0;
  /** Present members the last ready wait gave up on; not waited for again until they are ready. */
  readonly leftBehind = new Set<string>();
  private readyWait: ReadyWait | null = null;

  readonly persistIntervalMs: number;

  constructor(private readonly host: RoomCore) {
    this.persistIntervalMs = host.deps.persistIntervalMs ?? DEFAULT_PERSIST_INTERVAL_MS;
  }

  /** The room's clock, held by the core. */
  get state(): PlaybackState {
    return this.host.playback;
  }

  private set state(state: PlaybackState) {
    this.host.playback = state;
  }

  /** Takes the stored row as the room's playback (activation, or a room just created). */
  restore(stored: StoredPlayback): void {
    const { versionReserved, ...state } = stored;
    this.state = state;
    this.versionReserved = versionReserved;
    this.dirty = false;
  }

  /** The playback row a room created now starts with; versions continue this activation's. */
  initial(): StoredPlayback {
    const version = this.state.version;
    const versionReserved = Math.max(this.versionReserved, version + VERSION_BLOCK);
    return { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: this.host.now(), version, versionReserved };
  }

  /** Forgets the room's playback machinery (the room was deleted; the core reset the clock, versions keep counting up). */
  reset(): void {
    this.leftBehind.clear();
    this.readyWait = null;
    this.dirty = false;
  }

  view(): PlaybackView {
    return {
      ...this.state,
      waitingForReady: this.readyWait ? { userIds: this.notReadyUsers(), deadline: this.readyWait.deadline } : null,
      item: this.nowPlaying(this.state.mediaId),
    };
  }

  /** What every member may know of the item `mediaId` names (docs/2026-11-26-guests-watch.md). */
  nowPlaying(mediaId: string | null): NowPlaying | null {
    const item = mediaId === null ? undefined : this.host.playlist.find((e) => e.item.id === mediaId)?.item;
    if (!item) return null;
    const onAir = item.provider === 'live' || item.provider === 'pull' ? { onAir: LIVE.of(this.host).online().includes(item.id) } : {};
    return { id: item.id, title: item.title, provider: item.provider, live: item.live, subtitles: item.subtitles, seekable: item.seekable, reachHow: item.reach?.how ?? null, ...onAir };
  }

  positionNow(): number {
    return positionAt(this.state, this.host.now());
  }

  /**
   * Works out a playback change without applying it: the next state (a new version), what
   * happens to the ready wait and the stragglers, and the view every member will get. Nothing
   * in the activation changes until `apply`, so a command whose write fails leaves the
   * room exactly as it was.
   */
  plan(change: PlaybackChange): PlaybackPlan {
    const now = this.host.now();
    const next: PlaybackState = { ...this.state, ...change.patch, version: this.state.version + 1 };
    const stragglers = new Set(change.resetStragglers ? [] : this.leftBehind);
    for (const userId of change.leftBehind ?? []) stragglers.add(userId);
    let readyWait: ReadyWait | null;
    if (change.wait === 'close') readyWait = null;
    else if (change.wait === 'open') {
      const userIds = this.notReadyUsers(next.mediaId, stragglers);
      readyWait = this.readyWait ? { ...this.readyWait, userIds } : { userIds, deadline: now + this.host.current.options.readyTimeoutMs };
    } else readyWait = this.readyWait && { ...this.readyWait };
    const mediaChanged = next.mediaId !== this.state.mediaId;
    return {
      change,
      next,
      readyWait,
      stragglers,
      // The current media is playlist state and must survive a crash; past the reserved block
      // a version must be reserved before anyone sees it. Anything else is saved lazily.
      mustWrite: mediaChanged || next.version > this.versionReserved,
      view: {
        ...next,
        waitingForReady: readyWait ? { userIds: this.notReadyUsers(next.mediaId, stragglers), deadline: readyWait.deadline } : null,
        item: this.nowPlaying(next.mediaId),
      },
    };
  }

  /** The playback row for a plan, reserving the next block of versions. */
  stored(plan: PlaybackPlan): StoredPlayback {
    return { ...plan.next, versionReserved: plan.next.version + VERSION_BLOCK };
  }

  /**
   * Makes a planned change the room's playback: memory, the ready wait and its timer, the
   * lazy save, and the event. `written` says the plan's state was committed with the command.
   */
  apply(plan: PlaybackPlan, written: boolean): PlaybackView {
    const { change, next } = plan;
    const timers = this.host.timers;
    const mediaChanged = next.mediaId !== this.state.mediaId;
    this.state = next;
    this.leftBehind.clear();
    for (const userId of plan.stragglers) this.leftBehind.add(userId);
    const opened = plan.readyWait !== null && this.readyWait === null;
    this.readyWait = plan.readyWait;
    if (!plan.readyWait) timers.cancel('ready');
    else if (opened) timers.schedule('ready', Math.max(0, plan.readyWait.deadline - this.host.now()));
    if (written) {
      this.versionReserved = plan.next.version + VERSION_BLOCK;
      this.dirty = false;
      this.persistFailures = 0;
      timers.cancel('persist');
    } else {
      this.dirty = true;
      // Anywhere in the second half of the interval: rooms that changed together (a burst of
      // traffic) would otherwise persist together on every interval, a stall of their host.
      if (!timers.has('persist')) timers.schedule('persist', this.persistIntervalMs * (0.5 + Math.random() / 2));
    }
    // The planned view: the one a command recorded with its reply, so every copy agrees.
    const view = plan.view;
    // The events say what happened and why, but nothing keeps them: a room that paused by itself is explained here.
    this.host.logger.debug({ cause: change.cause, by: change.by, mediaId: next.mediaId, playing: next.playing, position: next.position, version: next.version }, 'playback changed');
    this.host.publish({ type: 'playback', playback: view, cause: change.cause, by: change.by, ...(change.leftBehind ? { leftBehind: change.leftBehind } : {}) });
    if (mediaChanged) this.host.currentChanged(next.mediaId);
    return view;
  }

  /**
   * Plans, persists when it must (with the command's reply, when a command caused it), and
   * applies a playback change.
   */
  async change(change: PlaybackChange, turn?: Turn): Promise<PlaybackView> {
    const plan = this.plan(change);
    if (plan.mustWrite) {
      const stored = this.stored(plan);
      const write = (client: pg.PoolClient) => savePlayback(client, this.host.id, stored);
      if (turn) await this.host.commit(turn, 'save playback', async (client) => (await write(client), { playback: plan.view }));
      else await this.host.durable('save playback', write);
    }
    return this.apply(plan, plan.mustWrite);
  }

  /** Writes playback now (group-committed with other rooms' saves), reserving the next block of versions. */
  private async persist(): Promise<void> {
    const stored: StoredPlayback = { ...this.state, versionReserved: this.state.version + VERSION_BLOCK };
    await this.host.fencedWrite('persist playback', (fence) => PLAYBACK_WRITER.of(this.host).write({ fence, roomId: this.host.id, playback: stored }));
    this.versionReserved = stored.versionReserved;
    if (this.state.version === stored.version) {
      this.dirty = false;
      this.persistFailures = 0;
      this.host.timers.cancel('persist');
    }
  }

  /**
   * The lazy save. A failed one (PostgreSQL unreachable for a moment) is tried again with
   * back-off for as long as the activation lives: the change was acknowledged, and the timer
   * is the only thing that would ever write it.
   */
  async onPersistTimer(): Promise<void> {
    if (!this.dirty || !this.host.room) return;
    try {
      await this.persist();
    } catch (err) {
      if (this.host.fenced) throw err;
      this.persistFailures += 1;
      const retryMs = persistRetryMs(this.persistFailures, this.persistIntervalMs);
      this.host.logger.warn({ err: messageOf(err), failures: this.persistFailures, retryInMs: retryMs }, 'could not save playback; trying again');
      if (this.dirty && !this.host.timers.has('persist')) this.host.timers.schedule('persist', retryMs);
    }
  }

  /**
   * Persists what is still only in memory; nothing is written once fenced. A failed save is
   * tried again with back-off until it succeeds or the host gives up on this activation
   * (`signal`: the drain's time ran out, or the host stopped): releasing the room with an
   * acknowledged change unsaved while there is time to save it would lose the change.
   */
  async flush(signal?: AbortSignal): Promise<void> {
    for (let failures = 1; ; failures++) {
      if (this.host.fenced || !this.host.room || !this.dirty) return;
      try {
        await this.persist();
        return;
      } catch (err) {
        if (this.host.fenced || !signal || signal.aborted) {
          this.host.logger.error({ err: messageOf(err) }, 'playback changes since the last save are lost: could not save them before deactivating');
          return;
        }
        const retryMs = persistRetryMs(failures, this.persistIntervalMs);
        this.host.logger.warn({ err: messageOf(err), retryInMs: retryMs }, 'could not save playback while deactivating; trying again');
        await sleep(retryMs, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /** Present members the room would wait for before playing `mediaId` (default: the current media). */
  notReadyUsers(mediaId: string | null = this.state.mediaId, stragglers: ReadonlySet<string> = this.leftBehind): string[] {
    const presence = this.host.presence;
    return presence.userIds().filter((userId) => {
      if (stragglers.has(userId)) return false;
      const report = presence.player(userId);
      return !(report && report.mediaId === mediaId && report.state !== 'buffering');
    });
  }

  /**
   * A crowd does not wait (members/headcount.ts): one of thousands buffering would pause
   * everyone, and the wait's list of who is not ready would go out with every playback event.
   */
  waitsForReady(mediaId: string | null = this.state.mediaId): boolean {
    return this.host.current.options.waitForAllReady && mediaId !== null && !isCrowd(this.host);
  }

  /** True while a play is held back for members who are not ready. */
  get holding(): boolean {
    return this.readyWait !== null;
  }

  /** Refreshes the open wait's list of members not yet ready; it keeps its deadline. */
  refreshWait(userIds: string[]): void {
    if (this.readyWait) this.readyWait.userIds = userIds;
  }
}

/** The playback machinery of an activation; its state is the core's clock. */
export const PLAYBACK = new StateSlice('playback', (core) => new RoomPlayback(core));
