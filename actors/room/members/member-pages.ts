/**
 * Members a page at a time, ordered by user id: the bans (`member.bans`) and the active
 * members (`member.list`). A room's view goes out in one NATS message (1 MiB by default), so it
 * carries the first page of bans and, in a crowd, no plain members at all; these read the rest.
 */
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import type { MemberRecord } from '../records.js';
import type { MemberRoster } from './member-roster.js';
import { memberView } from '../views.js';

export interface MemberPage {
  members: MemberRecord[];
  /** Pass as `after` for the next page; null on the last. */
  nextAfter: string | null;
  /** Every record the filter kept. */
  total: number;
}

/** Up to `limit` of the members `keep` accepts whose user id sorts after `after` (from the start without it). */
export function memberPage(members: ReadonlyMap<string, MemberRecord>, keep: (member: MemberRecord) => boolean, limit: number, after?: string): MemberPage {
  const all: MemberRecord[] = [];
  for (const member of members.values()) if (keep(member)) all.push(member);
  // Code-unit order: the cursor compares the same way, so a member added meanwhile cannot shift a page.
  all.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  const start = after === undefined ? 0 : all.findIndex((member) => member.userId > after);
  const from = start < 0 ? all.length : start;
  const page = all.slice(from, from + limit);
  const more = from + limit < all.length;
  return { members: page, nextAfter: more ? (page.at(-1)?.userId ?? null) : null, total: all.length };
}

export function banPage(members: MemberRoster, limit: number, after?: string): MemberPage {
  return memberPage(members.withStatus('banned'), () => true, limit, after);
}

/** `member.list`: active members, optionally only those online or whose name contains `query` (any case). */
export function listMembers(core: RoomCore, command: RoomCommandOf<'member.list'>, turn: Turn): Promise<RoomResults['member.list']> {
  core.require(turn.access, 'view_member_list', 'seeing the member list');
  const query = command.query?.trim().toLocaleLowerCase();
  const keep = (member: MemberRecord): boolean =>
    member.status === 'active' &&
    (command.online === undefined || core.presence.isOnline(member.userId) === command.online) &&
    (!query || member.name.toLocaleLowerCase().includes(query));
  const page = memberPage(core.members, keep, command.limit ?? ROOM_LIMITS.memberPageDefaultLimit, command.after);
  return Promise.resolve({ members: page.members.map((member) => memberView(core, member)), nextAfter: page.nextAfter, total: page.total });
}
