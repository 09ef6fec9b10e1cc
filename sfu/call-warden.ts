/**
 * The call warden keeps the SFU in line with the room (docs/2026-11-29-sfu.md): LiveKit only
 * knows the grants a token carried when someone joined, so when the room changes its mind —
 * a share starts or stops, a member is kicked, banned, leaves or loses use_webrtc, a moderator
 * mutes someone, a session is signed out — the warden tells LiveKit. It runs on the actor hosts:
 * the room's part calls it in the turn that made the change, so each change is acted on once,
 * by the one activation that made it, whatever happens to the gateways. Room-driven effects run
 * in the background (the turn does not wait for the SFU), one at a time per participant so a
 * stop never overtakes its start, and are tried again while the SFU is unreachable.
 *
 * Each svc room has two SFU rooms (room-name.ts): shares act on the stage's, microphones on the
 * call's, and someone removed from the room leaves both.
 *
 * It also watches the sharers: a sharer seen on the stage and then missing from it (their SFU
 * node died, their browser went) is reported by `missingForMs`, and the stage ends the share
 * after a few seconds (reason `sfu`). A sharer found on the stage without screen_share (they
 * joined while the grant was on its way) is granted it then.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { NatsConnection, Subscription } from 'nats';
import { parseRevocation, revocationSubject, type Revocation } from '../accounts/index.js';
import type { CallSource } from '../contracts/room/model.js';
import { AppError } from '../errors/index.js';
import type { Logger } from '../observability/index.js';
import { GUEST_ATTRIBUTE, SESSION_ATTRIBUTE, sessionDigest } from './call-token.js';
import { roomOfSfuRoom, SFU_PARTS, sfuRoomName, type SfuPart } from './room-name.js';
import type { SfuConfig } from './sfu-config.js';
import { SfuRooms, type CallParticipant } from './sfu-rooms.js';
import { SHARE_SOURCES } from './sources.js';

/** How often the sharers' presence in their calls is read. */
export const SHARER_POLL_MS = 1000;
/** Tries of one effect while the SFU cannot be reached (250 ms, 1 s, 4 s apart). */
const EFFECT_TRIES = 4;

interface Watch {
  userIds: Set<string>;
  /** Sharers seen in the call at least once. */
  seen: Set<string>;
  /** Sharers seen and then missing, since when (epoch ms). */
  missingSince: Map<string, number>;
}

export interface CallWardenOptions {
  logger: Logger;
  pollMs?: number;
  now?: () => number;
}

export class CallWarden {
  readonly rooms: SfuRooms;
  private readonly logger: Logger;
  private readonly pollMs: number;
  private readonly now: () => number;
  /** The last effect queued per participant (`room identity`): the next waits for it. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly watches = new Map<string, Watch>();
  private poller: NodeJS.Timeout | undefined;
  private polling = false;
  private revocations: Subscription | undefined;

  constructor(
    readonly sfu: SfuConfig,
    options: CallWardenOptions,
  ) {
    this.rooms = new SfuRooms(sfu);
    this.logger = options.logger;
    this.pollMs = options.pollMs ?? SHARER_POLL_MS;
    this.now = options.now ?? Date.now;
  }

  roomName(roomId: string, part: SfuPart): string {
    return sfuRoomName(this.sfu.prefix, roomId, part);
  }

  // ---- what the room decided, told to the SFU --------------------------------------------

  /** A share started: its sharer may publish their screen (and its audio). */
  shareStarted(roomId: string, userId: string): void {
    this.effect(roomId, userId, 'grant screen sharing', () => this.changeSources(roomId, userId, (sources) => union(sources, SHARE_SOURCES)));
  }

  /** A share ended: its sharer may no longer publish their screen; LiveKit unpublishes it. */
  shareStopped(roomId: string, userId: string): void {
    this.effect(roomId, userId, 'revoke screen sharing', () => this.changeSources(roomId, userId, (sources) => sources.filter((s) => !SHARE_SOURCES.includes(s))));
  }

  /** Out of the room's SFU rooms: kicked, banned or left (both), or lost use_webrtc (the call alone). */
  eject(roomId: string, userId: string, why: string, parts: readonly SfuPart[] = SFU_PARTS): void {
    this.effect(roomId, userId, `remove a participant (${why})`, async () => {
      for (const part of parts) {
        if (await this.rooms.remove(this.roomName(roomId, part), userId)) this.logger.info({ roomId, userId, why, part }, 'removed a participant from the SFU');
      }
    });
  }

  /** The room is gone: its stage and call end for everyone in them. */
  closeCall(roomId: string): void {
    this.watches.delete(roomId);
    this.effect(roomId, '', 'close the call', async () => {
      for (const part of SFU_PARTS) await this.rooms.deleteRoom(this.roomName(roomId, part));
    });
  }

  /** Mutes their published microphone now (the moderator waits for the answer); false when they have none. */
  async muteMicrophone(roomId: string, userId: string): Promise<boolean> {
    await this.chains.get(chainKey(roomId, userId));
    return this.rooms.muteMicrophone(this.roomName(roomId, 'call'), userId);
  }

  /** Settles when every effect queued so far (for one room, or all) is done: tests, and a room handed off. */
  async settled(roomId?: string): Promise<void> {
    const mine = () => [...this.chains].filter(([key]) => roomId === undefined || key.startsWith(`${roomId} `)).map(([, chain]) => chain);
    for (let pending = mine(); pending.length > 0; pending = mine()) await Promise.all(pending);
  }

  /** Changes what a participant of the stage may publish (screens are the stage's only sources). */
  private async changeSources(roomId: string, userId: string, change: (sources: CallSource[]) => CallSource[]): Promise<void> {
    const room = this.roomName(roomId, 'stage');
    const participant = await this.rooms.participant(room, userId);
    // Not on the stage: the token they join with carries what the room admits then (call.admit).
    if (!participant) return;
    const next = change(participant.sources);
    if (sameSet(next, participant.sources)) return;
    await this.rooms.setSources(room, userId, next);
  }

  private effect(roomId: string, userId: string, what: string, run: () => Promise<void>): void {
    const key = chainKey(roomId, userId);
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.tryHard(what, roomId, userId, run));
    this.chains.set(key, next);
    void next.finally(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  private async tryHard(what: string, roomId: string, userId: string, run: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await run();
        return;
      } catch (err) {
        const retry = err instanceof AppError && err.code === 'unavailable' && attempt < EFFECT_TRIES;
        this.logger[retry ? 'warn' : 'error']({ err: err instanceof Error ? err.message : String(err), roomId, userId, attempt }, `the SFU could not ${what}${retry ? '; trying again' : ''}`);
        if (!retry) return;
        await sleep(250 * 4 ** (attempt - 1));
      }
    }
  }

  // ---- the sharers' presence in their calls ----------------------------------------------

  /** Watches these sharers of the room (none: stops watching it). */
  watchSharers(roomId: string, userIds: readonly string[]): void {
    if (userIds.length === 0) this.watches.delete(roomId);
    else {
      const watch = this.watches.get(roomId) ?? { userIds: new Set<string>(), seen: new Set<string>(), missingSince: new Map<string, number>() };
      watch.userIds = new Set(userIds);
      for (const userId of watch.seen) if (!watch.userIds.has(userId)) watch.seen.delete(userId);
      for (const userId of watch.missingSince.keys()) if (!watch.userIds.has(userId)) watch.missingSince.delete(userId);
      this.watches.set(roomId, watch);
    }
    if (this.watches.size > 0 && !this.poller) {
      this.poller = setInterval(() => void this.poll(), this.pollMs);
      this.poller.unref();
    } else if (this.watches.size === 0 && this.poller) {
      clearInterval(this.poller);
      this.poller = undefined;
    }
  }

  /** Whether a watched sharer was in the call when last looked at. */
  sharerInCall(roomId: string, userId: string): boolean {
    const watch = this.watches.get(roomId);
    return (watch?.seen.has(userId) ?? false) && !watch?.missingSince.has(userId);
  }

  /** How long a watched sharer, once seen in the call, has been missing from it (0: there, or never seen). */
  missingForMs(roomId: string, userId: string): number {
    const since = this.watches.get(roomId)?.missingSince.get(userId);
    return since === undefined ? 0 : this.now() - since;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      await Promise.all([...this.watches].map(([roomId, watch]) => this.pollRoom(roomId, watch)));
    } finally {
      this.polling = false;
    }
  }

  private async pollRoom(roomId: string, watch: Watch): Promise<void> {
    let present: Map<string, CallParticipant>;
    try {
      present = new Map((await this.rooms.participants(this.roomName(roomId, 'stage'))).map((p) => [p.identity, p]));
    } catch (err) {
      // An SFU that cannot be asked says nothing about the sharers: nobody is counted missing.
      this.logger.debug({ err: err instanceof Error ? err.message : String(err), roomId }, "could not read the sharers' presence in the call");
      return;
    }
    for (const userId of watch.userIds) {
      const participant = present.get(userId);
      if (participant) {
        watch.seen.add(userId);
        watch.missingSince.delete(userId);
        if (!SHARE_SOURCES.every((s) => participant.sources.includes(s))) this.shareStarted(roomId, userId);
      } else if (watch.seen.has(userId) && !watch.missingSince.has(userId)) {
        watch.missingSince.set(userId, this.now());
      }
    }
  }

  // ---- sessions that ended ---------------------------------------------------------------

  /**
   * Removes a revoked session's participants from every call of this deployment, as the
   * gateways close its sockets (docs/2026-11-26-session-revocation.md). A queue group: one
   * actor host of the deployment acts on each revocation.
   */
  listenForRevocations(nc: NatsConnection, prefix: string): void {
    this.revocations = nc.subscribe(revocationSubject(prefix), {
      queue: `${prefix}.sfu-warden`,
      callback: (err, msg) => {
        if (err) return;
        const revocation = parseRevocation(msg.data);
        if (revocation) void this.revoked(revocation).catch((error: unknown) => this.logger.warn({ err: error instanceof Error ? error.message : String(error), revocation }, 'could not end the calls of a revoked session'));
      },
    });
  }

  /** Removes the revocation's participants from every call of this deployment; how many were removed. */
  async revoked(revocation: Revocation): Promise<number> {
    const matches = participantMatcher(revocation);
    let removed = 0;
    const names = (await this.rooms.roomNames()).filter((name) => roomOfSfuRoom(this.sfu.prefix, name) !== undefined);
    await Promise.all(
      names.map(async (room) => {
        for (const participant of await this.rooms.participants(room)) {
          if (matches(participant) && (await this.rooms.remove(room, participant.identity))) removed += 1;
        }
      }),
    );
    if (removed > 0) this.logger.info({ reason: revocation.reason, removed }, "removed a revoked session's participants from their calls");
    return removed;
  }

  close(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = undefined;
    this.watches.clear();
    this.revocations?.unsubscribe();
  }
}

function participantMatcher(revocation: Revocation): (participant: CallParticipant) => boolean {
  switch (revocation.scope) {
    case 'session': {
      const digest = sessionDigest(revocation.sessionId);
      return (p) => p.attributes[SESSION_ATTRIBUTE] === digest;
    }
    case 'user': {
      const keep = revocation.keep === undefined ? undefined : sessionDigest(revocation.keep);
      return (p) => p.identity === revocation.userId && p.attributes[SESSION_ATTRIBUTE] !== keep;
    }
    case 'guests':
      return (p) => p.attributes[GUEST_ATTRIBUTE] === '1';
  }
}

function chainKey(roomId: string, userId: string): string {
  return `${roomId} ${userId}`;
}

function union(a: readonly CallSource[], b: readonly CallSource[]): CallSource[] {
  return [...new Set([...a, ...b])];
}

function sameSet(a: readonly CallSource[], b: readonly CallSource[]): boolean {
  return a.length === b.length && a.every((s) => b.includes(s));
}
