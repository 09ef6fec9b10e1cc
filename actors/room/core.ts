/**
 * One room activation. The core holds the records every part reads (the room, its members, who
 * is present, the playlist and the playback clock), the machinery every handler shares (fenced
 * writes, `commit`, events, the caller's access), and the parts: their state slices and their
 * lifecycle hooks, which it runs once per event in the registry's order without knowing what
 * any part is (parts.ts lists them, part.ts says what one declares; docs/2026-11-29-room-parts.md).
 *
 * Handlers change state only after their durable write commits, so a failed write leaves memory
 * as it was; playback alone is in memory first and persisted lazily (playback/room-playback.ts).
 */
import type pg from 'pg';
import type { IceServerSource } from '../../webrtc/index.js';
import type { NotificationPublisher } from '../../notifications/index.js';
import { AppError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import type { Permission } from '../../contracts/permissions/names.js';
import { classifyDatabaseError } from '../../postgres/index.js';
import type { ActivationContext, Caller, DeactivationReason } from '../runtime/actor-type.js';
import { loadRecentCommands } from '../runtime/command-log.js';
import { recordResult } from '../runtime/record-result.js';
import { FencedError, isFencedError, withFence, type Fence } from '../runtime/fencing.js';
import type { MemberLeftReason, RoomEvent } from '../../contracts/room/events.js';
import type { MediaItem, MemberRoomView, PlaybackState, RoomRole, SfuPart } from '../../contracts/room/model.js';
import type { RoomResults } from '../../contracts/room/results.js';
import type { SettingsReader } from '../../settings/index.js';
import type { MediaChecker } from './media-check.js';
import { ownerPermissions, memberPermissions } from './permissions.js';
import { MemberRoster } from './members/member-roster.js';
import { Presence } from './presence.js';
import type { FolderEntry, MemberRecord, PlaylistEntry, RoomRecord } from './records.js';
import type { RoomReviewHook } from './review-hook.js';
import { loadRoomRecord } from './room-rows.js';
import type { SeekProbe } from './seek-probe.js';
import { RoomTimers } from './timers.js';
import type { Access, Turn } from './turn.js';

export type { Access, Turn } from './turn.js';

export { ROOM_ACTOR_TYPE } from './room-type.js';

export interface RoomActorDeps {
  pool: pg.Pool;
  settings: SettingsReader;
  logger: Logger;
  review: RoomReviewHook;
  /** Announces notifications the room stored (join requests decided, roles changed, reviews decided). */
  notifications?: NotificationPublisher;
  /** Checks an added or edited item against its provider; without it only the name pattern is checked. */
  media?: MediaChecker;
  /** Tells whether an item's source can seek (media/seek-check.ts); without it items are `unknown`. */
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
  /** The SFU's warden (sfu/call-warden.ts); absent: this service has no SFU (no stage, no SFU call). */
  sfu?: RoomSfu;
  /** How long a sharer may be missing from the SFU call before their share ends (reason sfu); default 5000. */
  sfuLossMs?: number;
}

/**
 * What the room asks of the SFU: sfu/call-warden.ts's CallWarden, written out here because sfu/
 * reaches accounts/, which reaches the actors. The effects run in the background, once per change.
 */
export interface RoomSfu {
  shareStarted(roomId: string, userId: string): void;
  shareStopped(roomId: string, userId: string): void;
  /** Out of the room's SFU rooms: both (kicked, banned, left), or the call alone (lost use_webrtc: they still watch the stage). */
  eject(roomId: string, userId: string, why: string, parts?: readonly SfuPart[]): void;
  /** Ends both SFU rooms of the svc room. */
  closeCall(roomId: string): void;
  /** Awaited: false when they have no microphone in the call. */
  muteMicrophone(roomId: string, userId: string): Promise<boolean>;
  watchSharers(roomId: string, userIds: readonly string[]): void;
  missingForMs(roomId: string, userId: string): number;
  settled(roomId?: string): Promise<void>;
}

/** A part's state in one activation: made with the activation (`create`), read with `of(core)`. */
export class StateSlice<S> {
  constructor(
    readonly name: string,
    readonly create: (core: RoomCore) => S,
  ) {}

  of(core: RoomCore): S {
    return core.stateOf(this);
  }
}

/** What a part shares among all the rooms of one host (a group-committed writer): made once per actor type. */
export class HostShared<T> {
  constructor(
    readonly name: string,
    readonly create: (deps: RoomActorDeps) => T,
  ) {}

  of(core: RoomCore): T {
    return core.sharedOf(this);
  }
}

/**
 * What a part does about a change another part commits: `write` runs inside that command's
 * transaction (so both land or neither does), `apply` after it committed.
 */
export interface Consequence {
  write?(client: pg.PoolClient): Promise<void>;
  apply?(): void | Promise<void>;
}

/** How a member's presence changed: their first connection came, their last went, or one of several went. */
export type PresenceChange = 'online' | 'offline' | 'connection';

/** A change of the playlist, told to the parts before it is committed. */
export type PlaylistChange =
  | { op: 'added'; item: MediaItem }
  /** Items left the list (`mediaIds`, none when a folder goes and keeps them), with the folder `folderId` when one was removed. */
  | { op: 'removed'; mediaIds: readonly string[]; folderId: string | null }
  | { op: 'cleared' };

/** What `member.forget` reports, each part counting what it changed. */
export type ForgetCounts = RoomResults['member.forget'];

/** What a part changed of a closed account inside the forget transaction, and what it applies once that commits. */
export interface Forgotten {
  counts?: Partial<ForgetCounts>;
  apply?(): void | Promise<void>;
}

/**
 * The hooks a part may implement; the core runs each once per event, part after part in the
 * registry's order (parts.ts says why that order). A hook that publishes does so itself. Hooks
 * that follow a committed change must not fail the command that made it: a part whose
 * consequence cannot be saved logs it and leaves its state as it was (see ready-wait.ts).
 */
export interface PartHooks {
  /** The part's state slices, made with every activation. */
  readonly state?: readonly StateSlice<unknown>[];

  /** Reads the part's rows inside the activation's fenced load transaction; only for a room that exists, after the room and its members. */
  load?(core: RoomCore, client: pg.PoolClient): Promise<void>;
  /** After the load committed (also for an id without a room): resume what the part keeps running. */
  activated?(core: RoomCore): void;
  /** A room is being created on this id: rows the part writes with it and the state it starts with. */
  creating?(core: RoomCore): Consequence | undefined;
  /** The room was deleted: forget everything. */
  deleted?(core: RoomCore): void;
  /** The activation is going (idle, drain, shutdown, fenced); its timers are cancelled already. */
  deactivating?(core: RoomCore, reason: DeactivationReason, signal: AbortSignal): Promise<void> | void;
  /** True while the part has work in flight that must keep the activation from passivating. */
  busy?(core: RoomCore): boolean;
  /** Fields the part adds to an active member's view of the room. */
  view?(core: RoomCore, access: Access): Partial<MemberRoomView>;

  /** An active member joined (join without approval, or approved). */
  memberJoined?(core: RoomCore, member: MemberRecord): Promise<void> | void;
  /** A member's role or own permissions changed. */
  memberChanged?(core: RoomCore, member: MemberRecord): Promise<void> | void;
  /** A member left, was kicked, banned or rejected; they are no longer present (`wasOnline`: they were). */
  memberRemoved?(core: RoomCore, userId: string, removal: { reason: MemberLeftReason; wasOnline: boolean }): Promise<void> | void;
  /** A member's connections changed. */
  presenceChanged?(core: RoomCore, userId: string, change: PresenceChange): Promise<void> | void;
  /** The room record changed (settings, review, ownership); `core.room` is the new one. */
  roomChanged?(core: RoomCore, before: RoomRecord, by: string): Promise<void> | void;
  /** The current item changed (the playback part applied it). */
  currentChanged?(core: RoomCore, mediaId: string | null): void;
  /** The playlist is about to change as `change` says; written with it and applied after. */
  playlistChanging?(core: RoomCore, change: PlaylistChange, by: string): Consequence | undefined;
  /** A closed account is forgotten (`member.forget`), inside its transaction. */
  forgetting?(core: RoomCore, client: pg.PoolClient, userId: string): Promise<Forgotten | undefined>;
}

/** The consequences several parts planned for one change: written together, applied in order. */
export class Consequences {
  constructor(private readonly list: readonly Consequence[]) {}

  async write(client: pg.PoolClient): Promise<void> {
    for (const consequence of this.list) await consequence.write?.(client);
  }

  async apply(): Promise<void> {
    for (const consequence of this.list) await consequence.apply?.();
  }
}

const NO_CONSEQUENCES = new Consequences([]);

export class RoomCore {
  room: RoomRecord | null = null;
  readonly members = new MemberRoster();
  /** Who is connected now (in memory; members/ changes it, see presence.ts). */
  readonly presence = new Presence();
  /** The items in play order; media/ changes them, their order is media/playlist.ts. */
  playlist: PlaylistEntry[] = [];
  /** Playlist folders; their keys share the items' key space (media/playlist.ts). */
  folders: FolderEntry[] = [];
  /** The room's clock: where playback is. Read by every part, changed only by playback/ (room-playback.ts). */
  playback: PlaybackState;
  readonly timers: RoomTimers;
  readonly logger: Logger;
  private fencedOut = false;
  private readonly clock: () => number;
  private readonly states = new Map<StateSlice<unknown>, unknown>();

  private constructor(
    readonly deps: RoomActorDeps,
    readonly ctx: ActivationContext,
    /** The registered parts, in hook order. */
    readonly parts: readonly PartHooks[],
    private readonly shared: ReadonlyMap<HostShared<unknown>, unknown>,
  ) {
    this.logger = ctx.logger;
    this.clock = deps.now ?? Date.now;
    this.timers = new RoomTimers(ctx);
    this.playback = { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: this.clock(), version: 0 };
    for (const part of parts) for (const slice of part.state ?? []) this.states.set(slice, slice.create(this));
  }

  /**
   * Loads the room inside a fenced transaction: claiming the fence first means an older
   * activation can no longer write once this one has read, so nothing it writes is missed. The
   * core reads the room and its members; each part then reads its own rows in the same transaction.
   */
  static async activate(
    deps: RoomActorDeps,
    ctx: ActivationContext,
    parts: readonly PartHooks[],
    shared: ReadonlyMap<HostShared<unknown>, unknown>,
  ): Promise<RoomCore> {
    const core = new RoomCore(deps, ctx, parts, shared);
    await core.durable('load the room', async (client) => {
      // Read after the fence claim, so it includes every command an older activation committed.
      ctx.rememberReplies(await loadRecentCommands(client, ctx.type, ctx.id));
      const loaded = await loadRoomRecord(client, ctx.id);
      if (!loaded) return;
      core.room = loaded.room;
      for (const member of loaded.members) core.members.set(member.userId, member);
      for (const part of parts) await part.load?.(core, client);
    });
    for (const part of parts) part.activated?.(core);
    // The activation before ended uncleanly, so nobody was told that the stage, the voice call
    // and presence went with it: the gateways answer this with a fresh snapshot for every watch.
    if (ctx.inherited && core.room) core.publish({ type: 'room.activated' });
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

  stateOf<S>(slice: StateSlice<S>): S {
    const state = this.states.get(slice);
    if (state === undefined) throw new Error(`room state "${slice.name}" belongs to no registered part`);
    return state as S;
  }

  sharedOf<T>(resource: HostShared<T>): T {
    const value = this.shared.get(resource);
    if (value === undefined) throw new Error(`"${resource.name}" is shared by no registered part`);
    return value as T;
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
      throw classifyDatabaseError(err, `room ${this.id}: could not ${what}`, { detail: false });
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
    return this.members.count('active') + this.members.count('pending');
  }

  // ---- the parts' hooks, each run once per event in registry order ---------------------

  /** What the parts write with a room being created (record/room-handlers.ts), applied by `adopt`. */
  creating(): Consequences {
    const list: Consequence[] = [];
    for (const part of this.parts) {
      const consequence = part.creating?.(this);
      if (consequence) list.push(consequence);
    }
    return list.length > 0 ? new Consequences(list) : NO_CONSEQUENCES;
  }

  /** Installs a room just created (and committed) on this id, then each part's start. */
  async adopt(room: RoomRecord, owner: MemberRecord, created: Consequences): Promise<void> {
    this.room = room;
    this.members.clear();
    this.members.set(owner.userId, owner);
    this.playlist = [];
    this.folders = [];
    await created.apply();
  }

  /** Forgets everything in memory; used when the room is deleted. */
  deleted(): void {
    this.timers.cancelAll();
    this.room = null;
    this.members.clear();
    this.playlist = [];
    this.folders = [];
    this.presence.clear();
    // Versions keep counting up: an expectVersion from the deleted room never matches a new one.
    this.playback = { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: this.now(), version: this.playback.version };
    for (const part of this.parts) part.deleted?.(this);
  }

  /** Lets each part persist what is still only in memory; nothing is written once fenced. */
  async deactivate(reason: DeactivationReason, signal: AbortSignal): Promise<void> {
    this.timers.cancelAll();
    for (const part of this.parts) await part.deactivating?.(this, reason, signal);
  }

  /** True while some part has work in flight (an idle room passivates otherwise). */
  busy(): boolean {
    for (const part of this.parts) if (part.busy?.(this)) return true;
    return false;
  }

  async memberJoined(member: MemberRecord): Promise<void> {
    for (const part of this.parts) await part.memberJoined?.(this, member);
  }

  async memberChanged(member: MemberRecord): Promise<void> {
    for (const part of this.parts) await part.memberChanged?.(this, member);
  }

  /** After a member's removal committed: they are no longer present, then every part hears of it. */
  async memberRemoved(userId: string, reason: MemberLeftReason): Promise<void> {
    const wasOnline = this.presence.drop(userId);
    for (const part of this.parts) await part.memberRemoved?.(this, userId, { reason, wasOnline });
  }

  async presenceChanged(userId: string, change: PresenceChange): Promise<void> {
    for (const part of this.parts) await part.presenceChanged?.(this, userId, change);
  }

  async roomChanged(before: RoomRecord, by: string): Promise<void> {
    for (const part of this.parts) await part.roomChanged?.(this, before, by);
  }

  currentChanged(mediaId: string | null): void {
    for (const part of this.parts) part.currentChanged?.(this, mediaId);
  }

  /** What the parts do about a playlist change (media/): write it with the change, apply after. */
  playlistChanging(change: PlaylistChange, by: string): Consequences {
    const list: Consequence[] = [];
    for (const part of this.parts) {
      const consequence = part.playlistChanging?.(this, change, by);
      if (consequence) list.push(consequence);
    }
    return list.length > 0 ? new Consequences(list) : NO_CONSEQUENCES;
  }

  /** Each part's share of forgetting a closed account, inside the forget transaction (members/forget-member.ts). */
  async forgetting(client: pg.PoolClient, userId: string): Promise<Forgotten[]> {
    const forgotten: Forgotten[] = [];
    for (const part of this.parts) {
      const done = await part.forgetting?.(this, client, userId);
      if (done) forgotten.push(done);
    }
    return forgotten;
  }
}
