/**
 * The room's headcount and whether it is a crowd (docs/2026-11-30-crowds.md). Each member who
 * comes online used to be told to every member who may see the list: a join storm of N was N²
 * frames. A crowd counts its plain members instead, in one `headcount` event a second at most,
 * and names only the owner and admins one by one.
 *
 * Crowd or not is kept with a gap (enter above `crowdEnterMembers`, leave below
 * `crowdLeaveMembers`), so a room near the line does not flip with every join.
 */
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { listedInCrowd } from '../../../contracts/room/crowd.js';
import type { Headcount } from '../../../contracts/room/model.js';
import { StateSlice, type RoomCore } from '../core.js';
import type { MemberRecord } from '../records.js';

export const HEADCOUNT_TIMER = 'headcount';

export const HEADCOUNT = new StateSlice('headcount', () => ({
  /** Null until first decided on this activation. */
  crowd: null as boolean | null,
  /** What the last `headcount` event said; null before the first. */
  told: null as Headcount | null,
}));

function decide(core: RoomCore, members: number): boolean {
  const state = HEADCOUNT.of(core);
  if (state.crowd === null) state.crowd = members > ROOM_LIMITS.crowdEnterMembers;
  else if (state.crowd && members < ROOM_LIMITS.crowdLeaveMembers) state.crowd = false;
  else if (!state.crowd && members > ROOM_LIMITS.crowdEnterMembers) state.crowd = true;
  return state.crowd;
}

export function isCrowd(core: RoomCore): boolean {
  return HEADCOUNT.of(core).crowd ?? decide(core, core.members.count('active'));
}

export function headcount(core: RoomCore): Headcount {
  const members = core.members.count('active');
  return { members, online: core.presence.size, crowd: decide(core, members) };
}

/** Whether the room tells about this member one by one: always, except a crowd's plain members. */
export function namedOneByOne(core: RoomCore, member: MemberRecord): boolean {
  if (!isCrowd(core)) return true;
  return listedInCrowd({ isOwner: core.room?.ownerId === member.userId, role: member.guest ? 'guest' : member.role });
}

/**
 * Membership or presence changed: the count goes out within the interval, and a crowd
 * beginning or ending goes out at once (its end with `relist`, which gateways answer with a
 * fresh snapshot, as the list is whole again).
 */
export function headcountChanged(core: RoomCore): void {
  const state = HEADCOUNT.of(core);
  const was = state.crowd;
  const now = headcount(core);
  if (was !== null && was !== now.crowd) {
    tell(core, now, !now.crowd);
    return;
  }
  // Nobody to tell (a view carries the count), and a pending count must not keep an empty room awake.
  if (core.presence.size === 0) core.timers.cancel(HEADCOUNT_TIMER);
  else if (!core.timers.has(HEADCOUNT_TIMER)) core.timers.schedule(HEADCOUNT_TIMER, ROOM_LIMITS.headcountIntervalMs);
}

export function onHeadcountTimer(core: RoomCore): void {
  const now = headcount(core);
  const told = HEADCOUNT.of(core).told;
  if (told && told.members === now.members && told.online === now.online && told.crowd === now.crowd) return;
  tell(core, now, false);
}

function tell(core: RoomCore, count: Headcount, relist: boolean): void {
  core.timers.cancel(HEADCOUNT_TIMER);
  HEADCOUNT.of(core).told = count;
  core.publish({ type: 'headcount', headcount: count, ...(relist ? { relist: true as const } : {}) });
}
