/**
 * The room's bans a page at a time, ordered by user id. `room.get` carries only the first
 * page and the count: a room's view goes out in one NATS message (1 MiB by default), which a
 * few thousand bans used to fill, so that no manager could open the room.
 */
import type { MemberRecord } from '../records.js';

export interface BanPage {
  bans: MemberRecord[];
  /** Pass as `after` for the next page; null on the last. */
  nextAfter: string | null;
  total: number;
}

/** Up to `limit` bans whose user id sorts after `after` (from the start without it). */
export function banPage(members: ReadonlyMap<string, MemberRecord>, limit: number, after?: string): BanPage {
  const all: MemberRecord[] = [];
  for (const member of members.values()) if (member.status === 'banned') all.push(member);
  // Code-unit order: the cursor compares the same way, so a ban added meanwhile cannot shift a page.
  all.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  const start = after === undefined ? 0 : all.findIndex((member) => member.userId > after);
  const from = start < 0 ? all.length : start;
  const bans = all.slice(from, from + limit);
  const more = from + limit < all.length;
  return { bans, nextAfter: more ? (bans.at(-1)?.userId ?? null) : null, total: all.length };
}
