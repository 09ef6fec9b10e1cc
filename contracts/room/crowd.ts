/**
 * Who a crowd names (docs/2026-11-30-crowds.md): in a room past `ROOM_LIMITS.crowdEnterMembers`
 * the views list, and the events tell one by one, only the owner and the admins; everyone else
 * is counted. The room decides with it and clients keep their lists by it. A leaf module.
 */
import type { MemberView } from './model.js';

export function listedInCrowd(member: Pick<MemberView, 'isOwner' | 'role'>): boolean {
  return member.isOwner || member.role === 'admin';
}
