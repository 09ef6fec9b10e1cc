/**
 * Caps on the member rows a room keeps beyond its seats: bans and waiting join requests. A
 * manager (or a stream of joiners) could otherwise grow them without bound, and the activation
 * holds every row in memory (docs/2026-11-26-room-abuse.md).
 */
import { AppError } from '../../../errors/index.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { MemberRoster } from './member-roster.js';

/** Refuses a new ban once the room holds `bansMax`; banning someone already banned is not new. */
export function checkBanCap(members: MemberRoster): void {
  const bans = members.count('banned');
  if (bans < ROOM_LIMITS.bansMax) return;
  throw new AppError(
    'limit_exceeded',
    `this room already has ${bans} bans, the most allowed (${ROOM_LIMITS.bansMax} bans per room); lift a ban first`,
  );
}

/** Refuses a new join request once `pendingJoinRequestsMax` are waiting for a decision. */
export function checkJoinRequestCap(members: MemberRoster): void {
  const pending = members.count('pending');
  if (pending < ROOM_LIMITS.pendingJoinRequestsMax) return;
  throw new AppError(
    'limit_exceeded',
    `this room already has ${pending} join requests waiting, the most allowed (${ROOM_LIMITS.pendingJoinRequestsMax}); try again once they are decided`,
  );
}
