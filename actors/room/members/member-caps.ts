/**
 * Caps on the member rows a room keeps beyond its seats: bans and waiting join requests. A
 * manager (or a stream of joiners) could otherwise grow them without bound, and the activation
 * holds every row in memory (docs/2026-11-26-room-abuse.md).
 */
import { AppError } from '../../../errors/index.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { MemberStatus } from '../../../contracts/room/model.js';
import type { MemberRecord } from '../records.js';

export function countWithStatus(members: ReadonlyMap<string, MemberRecord>, status: MemberStatus): number {
  let count = 0;
  for (const member of members.values()) if (member.status === status) count += 1;
  return count;
}

/** Refuses a new ban once the room holds `bansMax`; banning someone already banned is not new. */
export function checkBanCap(members: ReadonlyMap<string, MemberRecord>): void {
  const bans = countWithStatus(members, 'banned');
  if (bans < ROOM_LIMITS.bansMax) return;
  throw new AppError(
    'limit_exceeded',
    `this room already has ${bans} bans, the most allowed (${ROOM_LIMITS.bansMax} bans per room); lift a ban first`,
  );
}

/** Refuses a new join request once `pendingJoinRequestsMax` are waiting for a decision. */
export function checkJoinRequestCap(members: ReadonlyMap<string, MemberRecord>): void {
  const pending = countWithStatus(members, 'pending');
  if (pending < ROOM_LIMITS.pendingJoinRequestsMax) return;
  throw new AppError(
    'limit_exceeded',
    `this room already has ${pending} join requests waiting, the most allowed (${ROOM_LIMITS.pendingJoinRequestsMax}); try again once they are decided`,
  );
}
