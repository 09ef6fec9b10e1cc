/**
 * The state of one room activation and the machinery every command handler shares: fenced
 * writes, events, the caller's access. Handlers change state only after their durable write
 * commits, so a failed write leaves memory as it was; playback alone is in memory first and
 * persisted lazily (playback/room-playback.ts). Views are in views.ts, timers in timers.ts.
 */
import type pg from 'pg';
import type { IceServerSource } from '../../media/webrtc/ice-servers.js';
import type { NotificationPublisher } from '../../notifications/publisher.js';
import { AppError } from '../../errors/app-error.js';
import type { Logger } from '../../observability/logger.js';
import type { Permission } from '../../contracts/permissions/names.js';
import { classifyDatabaseError } from '../../store/errors.js';
import type { ActivationContext, Caller } from '../runtime/actor-type.js';
import { loadRecentCommands } from '../runtime/command-log.js';
import { recordResult } from '../runtime/record-result.js';
import { FencedError, isFencedError, withFence, type Fence } from '../runtime/fencing.js';
import type { RoomEvent } from '../../contracts/room/events.js';
import { ROOM_LIMITS } from '../../contracts/room/limits.js';
import type { PlaybackState, RoomRole } from '../../contracts/room/model.js';
import type { SettingsReader } from '../../settings/settings-reader.js';
import type { MediaChecker } from './media/media-check.js';
import { LiveStatus } from './media/live-status.js';
import { ownerPermissions, memberPermissions } from './members/permissions.js';
import { Presence } from './members/presence.js';
import { MediaLength } from './playback/media-length.js';
import { VERSION_BLOCK, extrapolate } from './playback/playback.js';
import { RoomPlayback } from './playback/room-playback.js';
import { SkipVotes } from './playback/skip-votes.js';
import { QueueVoteBook, loadQueueVotes } from './playback/queue-votes.js';
import { loadPolls } from './polls/poll-store.js';
import { RoomPolls } from './polls/polls.js';
import type { SeekProbe } from './playback/seek-probe.js';
import type { FolderPlay, MemberRecord, RoomRecord } from './records.js';
import type { RoomReviewHook } from './review-hook.js';
import { loadRoom, savePlayback, type FolderEntry, type PlaylistEntry, type StoredPlayback } from './store/room-store.js';
import { RoomTimers } from './timers.js';
import type { Access, Turn } from './turn.js';
import { VoiceCall } from './voice/voice.js';
import { SlowMode } from './moderation/slow-mode.js';
import type { RoomWriters } from './writers.js';

export type { Access, Turn } from './turn.js';

export const ROOM_ACTOR_TYPE = 'room';

export interface RoomActorDeps {
  pool: pg.Pool;
  settings: SettingsReader;
  logger: Logger;
  review: RoomReviewHook;
  /** Announces notifications the room stored (join requests decided, roles changed, reviews decided). */
  notifications?: NotificationPublisher;
  /** Checks an added or edited item against its provider; without it only the name pattern is checked. */
  media?: MediaChecker;
  /** Tells whether an item's source can seek (seek-check.ts); without it items are `unknown`. */
  seekProbe?: SeekProbe;
  /** Server clock in ms; injectable so tests can move time. */
  now?: () => number;
  /** How long playback changes may stay only in memory; default 5000. */
  persistIntervalMs?: number;
  /** A connection not re-announced within this is dropped; default 90000 (gateways refresh every 30 s). */
  presenceTtlMs?: number;
  /** ICE servers for a voice participant (built-in STUN, TURN credentials); default: the runtime list alone. */
  iceServers?: IceServerSource;
  /** Voice participants per room (startup `voice.max_participants`); default 8. */
  voiceMaxParticipants?: number;
  /** A live item not re-announced within this goes offline; default 20000 (the ingest re-announces every 5 s). */
  liveStatusTtlMs?: number;
}

export const DEFAULT_PERSIST_INTERVAL_MS = 5000;
export const DEFAULT_PRESENCE_TTL_MS = 90_000;
export const DEFAULT_LIVE_STATUS_TTL_MS = 20_000;

export class RoomCore {
  room: RoomRecord | null = null;
  readonly members = new Map<string, MemberRecord>();
  playlist: PlaylistEntry[] = [];
  /** Playlist folders; their keys share the items' key space (media/playlist.ts). */
  folders: FolderEntry[] = [];
  /** The folder being played (playback/queue-folder.ts), stored with playback. */
  folderPlay: FolderPlay | null = null;
  readonly presence = new Presence();
  readonly voice = new VoiceCall();
  /** Live items on air now (not stored; see media/live-status.ts). */
  readonly live: LiveStatus;
  /** How long the current item is, as players reported it (see playback/media-length.ts). */
  readonly mediaLength = new MediaLength();
  /** The open poll and the kept closed ones (polls/polls.ts), loaded with the room. */
  readonly polls = new RoomPolls();
  /** Up-votes of the voting queue mode (playback/queue-votes.ts), loaded with the room. */
  readonly queueVotes = new QueueVoteBook();
  /** Votes to skip the current item, in memory only (see playback/vote-skip.ts). */
  readonly skipVotes = new SkipVotes();
  /** Each member's last chat and danmaku send while slow mode is on, in memory only (moderation/slow-mode.ts). */
  readonly slowMode = new SlowMode();
  readonly timers: RoomTimers;
  /** Playback and the ready wait. */
  readonly play: RoomPlayback;
  private fencedOut = false;

  readonly logger: Logger;
  readonly persistIntervalMs: number;
  readonly presenceTtlMs: number;
  private readonly clock: () => number;

  private constructor(
    readonly deps: RoomActorDeps,
    readonly ctx: ActivationContext,
    /** The host's group-committed writers, shared by its rooms. */
    readonly writers: RoomWriters,
  ) {
    this.logger = ctx.logger;
    this.clock = deps.now ?? Date.now;
    this.persistIntervalMs = deps.persistIntervalMs ?? DEFAULT_PERSIST_INTERVAL_MS;
    this.presenceTtlMs = deps.presenceTtlMs ?? DEFAULT_PRESENCE_TTL_MS;
    this.live = new LiveStatus(deps.liveStatusTtlMs ?? DEFAULT_LIVE_STATUS_TTL_MS);
    this.timers = new RoomTimers(ctx);
    this.play = new RoomPlayback(this);
  }

  /**
   * Loads the room inside a fenced transaction: claiming the fence first means an older
   * activation can no longer write once this one has read, so nothing it writes is missed.
   * The same transaction reserves this activation's block of playback versions.
   */
  static async activate(deps: RoomActorDeps, ctx: ActivationContext, writers: RoomWriters): Promise<RoomCore> {
    const core = new RoomCore(deps, ctx, writers);
    const now = core.now();
    await core.durable('load the room', async (client) => {
      // Read after the fence claim, so it includes every command an older activation committed.
      ctx.rememberReplies(await loadRecentCommands(client, ctx.type, ctx.id));
      const loaded = await loadRoom(client, ctx.id);
      if (!loaded) return;
      const start: StoredPlayback = {
        ...extrapolate(loaded.playback, now),
        version: loaded.playback.versionReserved,
        versionReserved: loaded.playback.versionReserved + VERSION_BLOCK,
      };
      // A playing item removed just before a crash may be gone while playback still names it.
      if (start.mediaId !== null && !loaded.playlist.some((e) => e.item.id === start.mediaId)) {
        Object.assign(start, { mediaId: null, playing: false, position: 0 });
      }
      await savePlayback(client, ctx.id, start);
      core.room = loaded.room;
      for (const member of loaded.members) core.members.set(member.userId, member);
      core.playlist = loaded.playlist;
      core.folders = loaded.folders;
      core.folderPlay = loaded.folderPlay;
      core.polls.restore(await loadPolls(client, ctx.id, ROOM_LIMITS.pollsKept + 1));
      core.queueVotes.restore(await loadQueueVotes(client, ctx.id));
      core.play.restore(start);
    });
    return core;
  }

  get id(): string {
    return this.ctx.id;
  }

  get fenced(): boolean {
    return this.fencedOut;
  }

  /** The room's playback state (the state of `play`). */
  get playback(): PlaybackState {
    return this.play.state;
  }

  now(): number {
    return this.clock();
  }

  /** Runs `fn` in one fenced transaction (a refusal is handled as in fencedWrite). */
  durable<T>(what: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.fencedWrite(what, (fence) => withFence(this.deps.pool, fence, fn));
  }

  /**
   * Runs the durable part of a command: `fn` in one fenced transaction that returns the
   * command's result, recorded in the same transaction under its command id. A retry of the
   * command, here or in a later activation, then gets this result instead of running again
   * (see actors/runtime/command-log.ts). The handler applies its change to memory after this
   * resolves and returns the same result.
   */
  commit<R>(turn: Turn, what: string, fn: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    return this.durable(what, async (client) => {
      const result = await fn(client);
      await recordResult(client, this.fenceOf(), turn.meta, result, this.ctx.currentSeq());
      return result;
    });
  }

  private fenceOf(): Fence {
    const trace = this.ctx.trace;
    return { actorType: this.ctx.type, actorId: this.id, fence: this.ctx.fence, ...(trace ? { trace } : {}) };
  }

  /**
   * Runs `fn`, which writes under the activation's fence itself (withFence, or one of the
   * host's group-committed writers) and throws FencedError when the claim fails. A refusal
   * marks this activation dead (every later command fails fast) and tells the runtime, which
   * deactivates it.
   */
  async fencedWrite<T>(what: string, fn: (fence: Fence) => Promise<T>): Promise<T> {
    if (this.fencedOut) throw new FencedError(this.ctx.type, this.id, this.ctx.fence);
    try {
      return await fn(this.fenceOf());
    } catch (err) {
      if (isFencedError(err)) {
        this.fencedOut = true;
        this.timers.cancelAll();
        this.ctx.fenced(`a newer activation holds room ${this.id}; refused to ${what}`);
        throw err;
      }
      throw classifyDatabaseError(err, `room ${this.id}: could not ${what}`);
    }
  }

  publish(event: RoomEvent): number {
    return this.ctx.publish(event);
  }

  // ---- access -------------------------------------------------------------------------

  access(caller: Caller): Access {
    const service = caller.service === true;
    const member = this.members.get(caller.userId);
    const isOwner = !service && this.room !== null && this.room.ownerId === caller.userId;
    const activeMember = member?.status === 'active';
    const guest = caller.guest === true || member?.guest === true;
    const role: RoomRole | null = isOwner ? 'admin' : activeMember ? (guest ? 'guest' : member.role) : null;
    let permissions: ReadonlySet<Permission>;
    if (service || isOwner) permissions = ownerPermissions();
    else if (role && this.room) permissions = memberPermissions(role, this.room.options.permissionOverrides, member?.permissionOverride, this.deps.settings);
    else permissions = new Set();
    return {
      userId: caller.userId,
      name: caller.name,
      service,
      guest,
      member,
      isOwner,
      active: service || activeMember,
      role,
      permissions,
    };
  }

  require(access: Access, permission: Permission, action: string): void {
    if (!access.permissions.has(permission)) {
      throw new AppError('forbidden', `${action} needs the ${permission} permission in this room`);
    }
  }

  requireOwner(access: Access, action: string): void {
    if (!access.isOwner && !access.service) throw new AppError('forbidden', `only the room owner can ${action}`);
  }

  /** The room, known to exist (handlers run only once the dispatcher checked). */
  get current(): RoomRecord {
    if (!this.room) throw new AppError('not_found', `room ${this.id} does not exist`);
    return this.room;
  }

  /** Members holding a seat: active and pending (a join request reserves one). */
  seatCount(): number {
    let count = 0;
    for (const member of this.members.values()) if (member.status !== 'banned') count += 1;
    return count;
  }

  /** Installs a room just created (and committed) on this id. */
  adopt(room: RoomRecord, owner: MemberRecord, playback: StoredPlayback): void {
    this.room = room;
    this.members.clear();
    this.members.set(owner.userId, owner);
    this.playlist = [];
    this.folders = [];
    this.folderPlay = null;
    this.polls.clear();
    this.queueVotes.clear();
    this.play.restore(playback);
  }

  /** Forgets everything in memory; used when the room is deleted. */
  reset(): void {
    this.timers.cancelAll();
    this.room = null;
    this.members.clear();
    this.playlist = [];
    this.folders = [];
    this.folderPlay = null;
    this.presence.clear();
    this.voice.clear();
    this.live.clear();
    this.play.reset();
    this.skipVotes.clear();
    this.polls.clear();
    this.queueVotes.clear();
    this.slowMode.clear();
  }

  /** Persists what is still only in memory (playback, lazily saved); nothing is written once fenced. */
  async deactivate(signal?: AbortSignal): Promise<void> {
    this.timers.cancelAll();
    await this.play.flush(signal);
  }
}
