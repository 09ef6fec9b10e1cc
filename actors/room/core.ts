/**
 * The state of one room activation and the machinery every command handler shares: fenced
 * writes, events, timers, the caller's access, views, and the playback clock with its ready
 * wait. Handlers (`handlers/*.ts`) change state only after their durable write commits, so a
 * failed write leaves memory as it was; playback alone is in memory first and persisted
 * lazily (see `playback.ts`).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { IceServerSource } from '../../media/webrtc/ice-servers.js';
import type { IceServer } from '../../settings/registry.js';
import type { NotificationPublisher } from '../../notifications/publisher.js';
import { AppError } from '../../errors/app-error.js';
import type { Logger } from '../../observability/logger.js';
import type { Permission } from '../../contracts/permissions/names.js';
import { classifyDatabaseError } from '../../store/errors.js';
import type { ActivationContext, Caller, CommandMeta } from '../runtime/actor-type.js';
import { loadRecentCommands, recordResult } from '../runtime/command-log.js';
import { FencedError, isFencedError, withFence, type Fence } from '../runtime/fencing.js';
import { messageOf } from '../runtime/nats-errors.js';
import type { PlaybackCause, RoomEvent } from '../../contracts/room/events.js';
import type { MediaChecker } from './media/media-check.js';
import type { SeekProbe } from './playback/seek-probe.js';
import type { MediaItem, MemberRoomView, MemberView, MyStanding, NowPlaying, PlaybackState, PlaybackView, ReadyWait, RoomInfo, RoomPreview, RoomRole, RoomView } from '../../contracts/room/model.js';
import type { MemberRecord, RoomRecord } from './records.js';
import { VERSION_BLOCK, extrapolate, positionAt } from './playback/playback.js';
import { ownerPermissions, rolePermissions, sortedPermissions } from './members/permissions.js';
import type { SettingsReader } from '../../settings/settings-reader.js';
import { banPage } from './members/ban-pages.js';
import { ROOM_LIMITS } from '../../contracts/room/limits.js';
import { LiveStatus } from './media/live-status.js';
import { MediaLength } from './playback/media-length.js';
import { Presence } from './members/presence.js';
import { VoiceCall } from './voice/voice.js';
import type { RoomReviewHook } from './review-hook.js';
import type { RoomWriters } from './writers.js';
import { loadRoom, savePlayback, type PlaylistEntry, type StoredPlayback } from './store/room-store.js';

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

/** The caller's standing in this room, computed afresh for every command. */
export interface Access {
  userId: string;
  name: string | undefined;
  service: boolean;
  guest: boolean;
  /** The membership row, whatever its status. */
  member: MemberRecord | undefined;
  isOwner: boolean;
  /** An active member, or a service caller. */
  active: boolean;
  role: RoomRole | null;
  permissions: ReadonlySet<Permission>;
}

export interface Turn {
  caller: Caller;
  meta: CommandMeta;
  access: Access;
  now: number;
}

/** A playback change as a command or a timer asks for it; see RoomCore.planPlayback. */
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
const PERSIST_RETRY_FIRST_MS = 250;

function persistRetryMs(failures: number, intervalMs: number): number {
  const base = Math.min(intervalMs, PERSIST_RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 10));
  return base * (0.75 + Math.random() / 2);
}

/** Timers an activation schedules on itself; each is delivered back as a command. */
type TimerName = 'persist' | 'ready' | 'presence' | 'live';
export const TIMER_KIND = 'room.timer';

interface TimerCommand {
  kind: typeof TIMER_KIND;
  name: TimerName;
  token: string;
}

export class RoomCore {
  room: RoomRecord | null = null;
  readonly members = new Map<string, MemberRecord>();
  playlist: PlaylistEntry[] = [];
  playback: PlaybackState;
  /** Versions up to this one are reserved in PostgreSQL; a higher one must be reserved first. */
  private versionReserved = 0;
  private playbackDirty = false;
  /** Lazy saves failed in a row (for the retry back-off). */
  private persistFailures = 0;
  readonly presence = new Presence();
  readonly voice = new VoiceCall();
  /** Live items on air now (not stored; see live-status.ts). */
  readonly live: LiveStatus;
  /** How long the current item is, as players reported it (see media-length.ts). */
  readonly mediaLength = new MediaLength();
  /** Present members the last ready wait gave up on; not waited for again until they are ready. */
  readonly leftBehind = new Set<string>();
  private readyWait: ReadyWait | null = null;

  private readonly timers = new Map<TimerName, { token: string; cancel(): void }>();
  /** Makes timer commands unforgeable: a client cannot guess it to fire one. */
  private readonly timerSecret = randomBytes(16).toString('base64url');
  private timerSeq = 0;
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
    this.playback = { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: this.clock(), version: 0 };
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
      const { versionReserved, ...playback } = start;
      core.playback = playback;
      core.versionReserved = versionReserved;
    });
    return core;
  }

  get id(): string {
    return this.ctx.id;
  }

  get fenced(): boolean {
    return this.fencedOut;
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
    return { actorType: this.ctx.type, actorId: this.id, fence: this.ctx.fence };
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
        this.cancelTimers();
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
    else if (role && this.room) permissions = rolePermissions(role, this.room.options.permissionOverrides, this.deps.settings);
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

  // ---- views --------------------------------------------------------------------------

  roomInfo(room: RoomRecord = this.current): RoomInfo {
    return {
      id: room.id,
      name: room.name,
      ownerId: room.ownerId,
      visibility: room.visibility,
      status: room.status,
      hasPassword: room.passwordHash !== null,
      requireJoinApproval: room.options.requireJoinApproval,
      waitForAllReady: room.options.waitForAllReady,
      readyTimeoutMs: room.options.readyTimeoutMs,
      queueMode: room.options.queueMode,
      permissionOverrides: structuredClone(room.options.permissionOverrides),
      createdAt: room.createdAt,
      updatedAt: room.updatedAt,
    };
  }

  roomPreview(): RoomPreview {
    const room = this.current;
    return {
      id: room.id,
      name: room.name,
      visibility: room.visibility,
      status: room.status,
      hasPassword: room.passwordHash !== null,
      requireJoinApproval: room.options.requireJoinApproval,
      memberCount: [...this.members.values()].filter((m) => m.status === 'active').length,
    };
  }

  memberView(member: MemberRecord): MemberView {
    const online = this.presence.isOnline(member.userId);
    return {
      userId: member.userId,
      name: member.name,
      role: member.guest ? 'guest' : member.role,
      status: member.status,
      guest: member.guest,
      isOwner: this.room?.ownerId === member.userId,
      joinedAt: member.joinedAt,
      online,
      player: online ? this.presence.player(member.userId) : null,
    };
  }

  playbackView(): PlaybackView {
    return {
      ...this.playback,
      waitingForReady: this.readyWait ? { userIds: this.notReadyUsers(), deadline: this.readyWait.deadline } : null,
      item: this.nowPlaying(this.playback.mediaId),
    };
  }

  /** What every member may know of the item `mediaId` names (docs/2026-11-26-guests-watch.md). */
  nowPlaying(mediaId: string | null): NowPlaying | null {
    const item = mediaId === null ? undefined : this.playlist.find((e) => e.item.id === mediaId)?.item;
    if (!item) return null;
    const onAir = item.provider === 'live' ? { onAir: this.live.online().includes(item.id) } : {};
    return { id: item.id, title: item.title, provider: item.provider, live: item.live, subtitles: item.subtitles, seekable: item.seekable, ...onAir };
  }

  /** The live items on air that a member without view_media_resources may know of: the current one. */
  private currentOnAir(): string[] {
    return this.live.online().filter((id) => id === this.playback.mediaId);
  }

  items(): MediaItem[] {
    return this.playlist.map((e) => e.item);
  }

  standing(access: Access): MyStanding {
    return {
      userId: access.userId,
      status: access.member?.status ?? 'none',
      role: access.role,
      isOwner: access.isOwner,
      permissions: access.active ? sortedPermissions(access.permissions) : [],
    };
  }

  view(access: Access): RoomView {
    const seq = this.ctx.currentSeq();
    if (!access.active) return { access: 'visitor', room: this.roomPreview(), me: this.standing(access), seq };
    const byStatus = (status: MemberRecord['status']) =>
      [...this.members.values()].filter((m) => m.status === status).map((m) => this.memberView(m));
    const can = (permission: Permission) => access.permissions.has(permission);
    return {
      access: 'member',
      room: this.roomInfo(),
      me: this.standing(access),
      ...(can('view_member_list') ? { members: byStatus('active') } : {}),
      ...(can('manage_members') ? this.managedMembers() : {}),
      ...(can('view_media_resources') ? { playlist: this.items(), liveOnline: this.live.online() } : { liveOnline: this.currentOnAir() }),
      playback: this.playbackView(),
      ...(can('use_webrtc') ? { voice: this.voice.participants() } : {}),
      seq,
    };
  }

  /**
   * Join requests and the first page of bans, with the ban count: each list has a cap, but a
   * room stored before the caps may hold more, and the view must still fit in one NATS message.
   */
  private managedMembers(): Pick<MemberRoomView, 'pendingMembers' | 'bannedMembers' | 'bannedCount'> {
    const pending: MemberView[] = [];
    for (const member of this.members.values()) {
      if (pending.length >= ROOM_LIMITS.pendingJoinRequestsMax) break;
      if (member.status === 'pending') pending.push(this.memberView(member));
    }
    const bans = banPage(this.members, ROOM_LIMITS.bansInView);
    return { pendingMembers: pending, bannedMembers: bans.bans.map((m) => this.memberView(m)), bannedCount: bans.total };
  }

  // ---- timers -------------------------------------------------------------------------

  hasTimers(): boolean {
    return this.timers.size > 0;
  }

  schedule(name: TimerName, ms: number): void {
    this.cancelTimer(name);
    this.timerSeq += 1;
    const token = `${this.timerSecret}.${this.timerSeq}`;
    const command: TimerCommand = { kind: TIMER_KIND, name, token };
    const handle = this.ctx.schedule(ms, command);
    this.timers.set(name, { token, cancel: () => handle.cancel() });
  }

  cancelTimer(name: TimerName): void {
    this.timers.get(name)?.cancel();
    this.timers.delete(name);
  }

  cancelTimers(): void {
    for (const name of [...this.timers.keys()]) this.cancelTimer(name);
  }

  /**
   * The timer a delivered timer command stands for, or null for a stale one (cancelled or
   * replaced after it was queued). Throws for a forged one.
   */
  claimTimer(raw: unknown): TimerName | null {
    const command = raw as Partial<TimerCommand>;
    const token = typeof command.token === 'string' ? command.token : '';
    if (!token.startsWith(`${this.timerSecret}.`)) throw new AppError('forbidden', 'timer commands are internal to the room');
    const name = command.name as TimerName;
    const pending = this.timers.get(name);
    if (!pending || pending.token !== token) return null;
    this.timers.delete(name);
    return name;
  }

  // ---- playback -----------------------------------------------------------------------

  /**
   * Works out a playback change without applying it: the next state (a new version), what
   * happens to the ready wait and the stragglers, and the view every member will get. Nothing
   * in the activation changes until `applyPlayback`, so a command whose write fails leaves the
   * room exactly as it was.
   */
  planPlayback(change: PlaybackChange): PlaybackPlan {
    const now = this.now();
    const next: PlaybackState = { ...this.playback, ...change.patch, version: this.playback.version + 1 };
    const stragglers = new Set(change.resetStragglers ? [] : this.leftBehind);
    for (const userId of change.leftBehind ?? []) stragglers.add(userId);
    let readyWait: ReadyWait | null;
    if (change.wait === 'close') readyWait = null;
    else if (change.wait === 'open') {
      const userIds = this.notReadyUsers(next.mediaId, stragglers);
      readyWait = this.readyWait ? { ...this.readyWait, userIds } : { userIds, deadline: now + this.current.options.readyTimeoutMs };
    } else readyWait = this.readyWait && { ...this.readyWait };
    const mediaChanged = next.mediaId !== this.playback.mediaId;
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
  storedPlayback(plan: PlaybackPlan): StoredPlayback {
    return { ...plan.next, versionReserved: plan.next.version + VERSION_BLOCK };
  }

  /**
   * Makes a planned change the room's playback: memory, the ready wait and its timer, the
   * lazy save, and the event. `written` says the plan's state was committed with the command.
   */
  applyPlayback(plan: PlaybackPlan, written: boolean): PlaybackView {
    const { change, next } = plan;
    this.playback = next;
    this.leftBehind.clear();
    for (const userId of plan.stragglers) this.leftBehind.add(userId);
    const opened = plan.readyWait !== null && this.readyWait === null;
    this.readyWait = plan.readyWait;
    if (!plan.readyWait) this.cancelTimer('ready');
    else if (opened) this.schedule('ready', Math.max(0, plan.readyWait.deadline - this.now()));
    if (written) {
      this.versionReserved = plan.next.version + VERSION_BLOCK;
      this.playbackDirty = false;
      this.persistFailures = 0;
      this.cancelTimer('persist');
    } else {
      this.playbackDirty = true;
      // Anywhere in the second half of the interval: rooms that changed together (a burst of
      // traffic) would otherwise persist together on every interval, a stall of their host.
      if (!this.timers.has('persist')) this.schedule('persist', this.persistIntervalMs * (0.5 + Math.random() / 2));
    }
    // The planned view: the one a command recorded with its reply, so every copy agrees.
    const view = plan.view;
    this.publish({ type: 'playback', playback: view, cause: change.cause, by: change.by, ...(change.leftBehind ? { leftBehind: change.leftBehind } : {}) });
    return view;
  }

  /**
   * Plans, persists when it must (with the command's reply, when a command caused it), and
   * applies a playback change.
   */
  async changePlayback(change: PlaybackChange, turn?: Turn): Promise<PlaybackView> {
    const plan = this.planPlayback(change);
    if (plan.mustWrite) {
      const stored = this.storedPlayback(plan);
      const write = (client: pg.PoolClient) => savePlayback(client, this.id, stored);
      if (turn) await this.commit(turn, 'save playback', async (client) => (await write(client), { playback: plan.view }));
      else await this.durable('save playback', write);
    }
    return this.applyPlayback(plan, plan.mustWrite);
  }

  /** Writes playback now (group-committed with other rooms' saves), reserving the next block of versions. */
  async persistPlayback(): Promise<void> {
    const stored: StoredPlayback = { ...this.playback, versionReserved: this.playback.version + VERSION_BLOCK };
    await this.fencedWrite('persist playback', (fence) => this.writers.playback.write({ fence, roomId: this.id, playback: stored }));
    this.versionReserved = stored.versionReserved;
    if (this.playback.version === stored.version) {
      this.playbackDirty = false;
      this.persistFailures = 0;
      this.cancelTimer('persist');
    }
  }

  /**
   * The lazy save. A failed one (PostgreSQL unreachable for a moment) is tried again with
   * back-off for as long as the activation lives: the change was acknowledged, and the timer
   * is the only thing that would ever write it.
   */
  async onPersistTimer(): Promise<void> {
    if (!this.playbackDirty || !this.room) return;
    try {
      await this.persistPlayback();
    } catch (err) {
      if (this.fencedOut) throw err;
      this.persistFailures += 1;
      const retryMs = persistRetryMs(this.persistFailures, this.persistIntervalMs);
      this.logger.warn({ err: messageOf(err), failures: this.persistFailures, retryInMs: retryMs }, 'could not save playback; trying again');
      if (this.playbackDirty && !this.timers.has('persist')) this.schedule('persist', retryMs);
    }
  }

  positionNow(): number {
    return positionAt(this.playback, this.now());
  }

  // ---- waiting for everyone to be ready ------------------------------------------------

  /** Present members the room would wait for before playing `mediaId` (default: the current media). */
  notReadyUsers(mediaId: string | null = this.playback.mediaId, stragglers: ReadonlySet<string> = this.leftBehind): string[] {
    return this.presence.userIds().filter((userId) => {
      if (stragglers.has(userId)) return false;
      const report = this.presence.player(userId);
      return !(report && report.mediaId === mediaId && report.state !== 'buffering');
    });
  }

  private waitsForReady(mediaId: string | null = this.playback.mediaId): boolean {
    return this.current.options.waitForAllReady && mediaId !== null;
  }

  /**
   * Starts playing with `patch` applied, unless the room waits for everyone to be ready and
   * someone is not: then it stays paused, holding the play until they are or the wait runs out
   * (a wait already open keeps its deadline: pressing play again does not extend it).
   * `startAt` schedules the start ahead in server time (`updatedAt` in the future).
   */
  playChange(
    patch: Partial<Omit<PlaybackState, 'version'>>,
    cause: PlaybackCause,
    by: string | null,
    options: { resetStragglers?: boolean; startAt?: number } = {},
  ): PlaybackChange {
    const now = this.now();
    // Readiness is for the media about to play, which the patch may be switching to.
    const mediaId = patch.mediaId !== undefined ? patch.mediaId : this.playback.mediaId;
    const stragglers = options.resetStragglers ? new Set<string>() : this.leftBehind;
    const hold = this.waitsForReady(mediaId) && this.notReadyUsers(mediaId, stragglers).length > 0;
    return {
      // A scheduled start (`startAt`, server ms ahead) applies to a play that happens now; a
      // held play starts when the wait ends, with no lead.
      patch: { ...patch, playing: !hold, updatedAt: hold ? now : Math.max(now, options.startAt ?? now) },
      cause,
      by,
      wait: hold ? 'open' : 'close',
      ...(options.resetStragglers ? { resetStragglers: true } : {}),
    };
  }

  requestPlay(
    patch: Partial<Omit<PlaybackState, 'version'>>,
    cause: PlaybackCause,
    by: string | null,
    turn?: Turn,
    startAt?: number,
  ): Promise<PlaybackView> {
    return this.changePlayback(this.playChange(patch, cause, by, startAt !== undefined ? { startAt } : {}), turn);
  }

  /**
   * The room stopped waiting for everyone (the option was turned off): a held play starts. It
   * follows a committed settings change, so a failure here must not fail that command; the
   * wait's own timer still ends the hold.
   */
  async releaseHeldPlay(by: string): Promise<void> {
    try {
      await this.requestPlay({}, 'ready', by);
    } catch (err) {
      if (isFencedError(err)) throw err;
      this.logger.warn({ err: messageOf(err) }, 'could not release the held play; the wait ends at its deadline');
    }
  }

  /** True while a play is held back for members who are not ready. */
  get holdingPlay(): boolean {
    return this.readyWait !== null;
  }

  /**
   * Re-checks readiness after a player report or presence change: plays a held play once
   * nobody is missing, and pauses a playing room for a member who started buffering. Never
   * fails the command that caused it (a join, a kick, a report): if the change cannot be
   * saved the room stays as it was and the next report or the wait's timer decides again.
   */
  async reconsiderReadiness(reporter: string | null): Promise<void> {
    if (!this.room || this.room.status === 'rejected') return;
    const now = this.now();
    let change: PlaybackChange | undefined;
    if (this.readyWait) {
      const waiting = this.notReadyUsers();
      if (waiting.length > 0) {
        this.readyWait.userIds = waiting;
        return;
      }
      change = { patch: { playing: true, updatedAt: now }, cause: 'ready', by: null, wait: 'close' };
    } else if (reporter !== null && this.playback.playing && this.waitsForReady()) {
      const report = this.presence.player(reporter);
      if (report?.state === 'buffering' && report.mediaId === this.playback.mediaId && !this.leftBehind.has(reporter)) {
        change = { patch: { playing: false, position: positionAt(this.playback, now), updatedAt: now }, cause: 'buffering', by: reporter, wait: 'open' };
      }
    }
    if (!change) return;
    try {
      await this.changePlayback(change);
    } catch (err) {
      if (isFencedError(err)) throw err;
      this.logger.warn({ err: messageOf(err), cause: change.cause }, 'could not change playback for readiness; it stays as it was');
    }
  }

  /** The wait ran out: play without the stragglers, and stop waiting for them on this media. */
  async onReadyTimeout(): Promise<void> {
    if (!this.readyWait) return;
    const stragglers = this.notReadyUsers();
    try {
      await this.changePlayback({ patch: { playing: true, updatedAt: this.now() }, cause: 'ready.timeout', by: null, wait: 'close', leftBehind: stragglers });
    } catch (err) {
      if (isFencedError(err)) throw err;
      // Still waiting, past its deadline: try again shortly rather than hold the room forever.
      this.logger.warn({ err: messageOf(err) }, 'could not end the ready wait; trying again');
      this.schedule('ready', PERSIST_RETRY_FIRST_MS);
    }
  }

  // ---- presence -----------------------------------------------------------------------

  /** Keeps the presence sweep scheduled while anyone is online. */
  ensurePresenceSweep(): void {
    if (this.presence.size > 0 && !this.timers.has('presence')) this.schedule('presence', this.presenceTtlMs);
    if (this.presence.size === 0) this.cancelTimer('presence');
  }

  /** Announces that `userId` went offline (their player state no longer counts). */
  async wentOffline(userId: string): Promise<void> {
    this.leftBehind.delete(userId);
    const member = this.members.get(userId);
    if (member && member.status === 'active') this.publish({ type: 'member.updated', member: this.memberView(member) });
    this.ensurePresenceSweep();
    await this.reconsiderReadiness(null);
  }

  /** The runtime ICE servers plus the built-in STUN and TURN credentials for this user. */
  iceServersFor(userId: string): IceServer[] {
    const external = this.deps.settings.get('webrtc.externalIceServers');
    return this.deps.iceServers ? this.deps.iceServers(userId, external) : structuredClone(external);
  }

  /**
   * Takes out of the voice call everyone who may no longer be in it: the connection that
   * joined has left (or expired), or they are no longer an active member with `use_webrtc`
   * (left, kicked, banned, role or overrides changed). Called after every such change.
   */
  pruneVoice(): void {
    for (const userId of this.voice.userIds()) {
      const member = this.members.get(userId);
      const connectionId = this.voice.connectionOf(userId) ?? '';
      let reason: 'disconnected' | 'removed' | undefined;
      if (!member || member.status !== 'active') reason = 'removed';
      else if (!this.access({ userId, guest: member.guest }).permissions.has('use_webrtc')) reason = 'removed';
      else if (!this.presence.hasConnection(userId, connectionId)) reason = 'disconnected';
      if (reason && this.voice.leave(userId)) this.publish({ type: 'voice.left', userId, reason });
    }
  }

  async onPresenceTimer(): Promise<void> {
    const gone = this.presence.expire(this.now() - this.presenceTtlMs);
    this.pruneVoice();
    for (const userId of gone) await this.wentOffline(userId);
    this.ensurePresenceSweep();
  }

  // ---- live status --------------------------------------------------------------------

  /** Keeps the live-status sweep scheduled while any item is on air. */
  ensureLiveSweep(): void {
    if (this.live.size > 0 && !this.timers.has('live')) this.schedule('live', this.live.ttlMs);
    if (this.live.size === 0) this.cancelTimer('live');
  }

  /** Items whose publisher stopped re-announcing them (its replica died) go offline. */
  onLiveTimer(): void {
    for (const mediaId of this.live.expire(this.now())) this.publish({ type: 'live', mediaId, online: false });
    this.ensureLiveSweep();
  }

  /** Installs a room just created (and committed) on this id. */
  adopt(room: RoomRecord, owner: MemberRecord, playback: StoredPlayback): void {
    this.room = room;
    this.members.clear();
    this.members.set(owner.userId, owner);
    this.playlist = [];
    const { versionReserved, ...state } = playback;
    this.playback = state;
    this.versionReserved = versionReserved;
    this.playbackDirty = false;
  }

  /** The playback row a room created now starts with; versions continue this activation's. */
  initialPlayback(): StoredPlayback {
    const version = this.playback.version;
    return {
      mediaId: null,
      playing: false,
      position: 0,
      rate: 1,
      updatedAt: this.now(),
      version,
      versionReserved: Math.max(this.versionReserved, version + VERSION_BLOCK),
    };
  }

  /** Forgets everything in memory; used when the room is deleted. */
  reset(): void {
    this.cancelTimers();
    this.room = null;
    this.members.clear();
    this.playlist = [];
    this.presence.clear();
    this.voice.clear();
    this.live.clear();
    this.leftBehind.clear();
    this.readyWait = null;
    this.playbackDirty = false;
    this.playback = { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: this.now(), version: this.playback.version };
  }

  /**
   * Persists what is still only in memory; nothing is written once fenced. A failed save is
   * tried again with back-off until it succeeds or the host gives up on this activation
   * (`signal`: the drain's time ran out, or the host stopped): releasing the room with an
   * acknowledged change unsaved while there is time to save it would lose the change.
   */
  async deactivate(signal?: AbortSignal): Promise<void> {
    this.cancelTimers();
    for (let failures = 1; ; failures++) {
      if (this.fencedOut || !this.room || !this.playbackDirty) return;
      try {
        await this.persistPlayback();
        return;
      } catch (err) {
        if (this.fencedOut || !signal || signal.aborted) {
          this.logger.error({ err: messageOf(err) }, 'playback changes since the last save are lost: could not save them before deactivating');
          return;
        }
        const retryMs = persistRetryMs(failures, this.persistIntervalMs);
        this.logger.warn({ err: messageOf(err), retryInMs: retryMs }, 'could not save playback while deactivating; trying again');
        await sleep(retryMs, undefined, { signal }).catch(() => undefined);
      }
    }
  }
}
