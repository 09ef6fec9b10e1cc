/**
 * The room's member map keeps its counts and short lists right through every change, since
 * joins, views and the caps read them instead of walking every member (member-roster.ts).
 */
import test from 'ava';
import { MemberRoster } from '../../../actors/room/members/member-roster.js';
import type { MemberRecord } from '../../../actors/room/records.js';

function member(userId: string, status: MemberRecord['status'], role: MemberRecord['role'] = 'member'): MemberRecord {
  return { userId, name: userId, role, status, guest: false, joinedAt: 0 };
}

function summary(roster: MemberRoster): unknown {
  return {
    active: roster.count('active'),
    pending: roster.count('pending'),
    banned: roster.count('banned'),
    pendingIds: [...roster.withStatus('pending').keys()],
    bannedIds: [...roster.withStatus('banned').keys()],
    admins: [...roster.activeAdmins()].map((admin) => admin.userId),
  };
}

/** What the indexes must say: the same map walked in whole. */
function walked(roster: MemberRoster): unknown {
  const all = [...roster.values()];
  const ids = (keep: (m: MemberRecord) => boolean): string[] => all.filter(keep).map((m) => m.userId);
  return {
    active: ids((m) => m.status === 'active').length,
    pending: ids((m) => m.status === 'pending').length,
    banned: ids((m) => m.status === 'banned').length,
    pendingIds: ids((m) => m.status === 'pending'),
    bannedIds: ids((m) => m.status === 'banned'),
    admins: ids((m) => m.status === 'active' && m.role === 'admin'),
  };
}

test('counts and lists follow joins, approvals, promotions, bans, leaves and a reset', (t) => {
  const roster = new MemberRoster();
  roster.set('a', member('a', 'active', 'admin'));
  roster.set('b', member('b', 'pending'));
  roster.set('c', member('c', 'active'));
  roster.set('d', member('d', 'pending'));
  t.deepEqual(summary(roster), { active: 2, pending: 2, banned: 0, pendingIds: ['b', 'd'], bannedIds: [], admins: ['a'] });

  roster.set('b', member('b', 'active')); // approved
  roster.set('c', member('c', 'active', 'admin')); // promoted
  roster.set('a', member('a', 'banned', 'admin')); // banned: no longer an active admin
  roster.delete('d'); // rejected
  roster.delete('nobody');
  t.deepEqual(summary(roster), { active: 2, pending: 0, banned: 1, pendingIds: [], bannedIds: ['a'], admins: ['c'] });
  t.deepEqual(summary(roster), walked(roster));

  roster.set('c', member('c', 'active')); // demoted
  roster.set('a', member('a', 'active')); // unbanned and back
  t.deepEqual(summary(roster), { active: 3, pending: 0, banned: 0, pendingIds: [], bannedIds: [], admins: [] });
  t.deepEqual(summary(roster), walked(roster));

  roster.clear();
  t.deepEqual(summary(roster), { active: 0, pending: 0, banned: 0, pendingIds: [], bannedIds: [], admins: [] });
  t.is(roster.size, 0);
});

test('many random changes leave the indexes equal to a walk of the whole map', (t) => {
  const roster = new MemberRoster();
  const statuses = ['active', 'pending', 'banned'] as const;
  const roles = ['admin', 'member', 'guest'] as const;
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 5_000; i++) {
    const id = `u${next(200)}`;
    if (next(5) === 0) roster.delete(id);
    else roster.set(id, member(id, statuses[next(3)]!, roles[next(3)]));
  }
  // The lists keep the order members got their status; the map keeps the order of first joining.
  const sorted = (value: unknown): unknown =>
    Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, Array.isArray(v) ? [...(v as string[])].sort() : v]));
  t.deepEqual(sorted(summary(roster)), sorted(walked(roster)));
});

test('a renamed member keeps its place in its list', (t) => {
  const roster = new MemberRoster();
  roster.set('a', member('a', 'pending'));
  roster.set('b', member('b', 'pending'));
  roster.set('a', { ...member('a', 'pending'), name: 'Ann' });
  t.deepEqual([...roster.withStatus('pending').values()].map((m) => m.name), ['Ann', 'b']);
  t.is(roster.count('pending'), 2);
});
