/**
 * A crowd (docs/2026-11-30-crowds.md): past ROOM_LIMITS.crowdEnterMembers active members the
 * room names only its owner and admins, counts the rest in a `headcount` event a second at most,
 * and pages its member list; below crowdLeaveMembers it lists everyone again.
 */
import test from 'ava';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { MemberRoomView } from '../../../contracts/room/model.js';
import { RoomTestBed, media, uid, user, type TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_crowd');
  await bed.settings.update('server', { maxMembersPerRoom: ROOM_LIMITS.crowdEnterMembers + 50 }, { actor: 'test', source: 'test' });
});

test.after.always(async () => {
  await bed?.close();
});

async function memberView(room: TestRoom, caller: ReturnType<typeof user>): Promise<MemberRoomView> {
  const view = await room.send(caller, { kind: 'room.get' });
  if (view.access !== 'member') throw new Error('not a member');
  return view;
}

test('a crowd names its owner and admins, counts everyone else, and lists them all again once it thins out', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const room = await bed.createRoom(alice);
  // The owner and 199 joiners: 200 members, one short of a crowd.
  const people = Array.from({ length: ROOM_LIMITS.crowdEnterMembers + 5 }, (_, i) => user(`crowd-${String(i).padStart(4, '0')}-${uid('m')}`, `Fan ${i}`));
  for (const person of people.slice(0, ROOM_LIMITS.crowdEnterMembers - 1)) await room.send(person, { kind: 'member.join' });
  let view = await memberView(room, alice);
  t.deepEqual(view.headcount, { members: ROOM_LIMITS.crowdEnterMembers, online: 0, crowd: false });
  t.is(view.members?.length, ROOM_LIMITS.crowdEnterMembers);
  t.is(room.events('member.joined').length, ROOM_LIMITS.crowdEnterMembers - 1);

  // The 201st member makes a crowd, told at once (not at the next interval).
  await room.send(people[ROOM_LIMITS.crowdEnterMembers - 1]!, { kind: 'member.join' });
  t.like(room.lastEvent('headcount'), { headcount: { members: ROOM_LIMITS.crowdEnterMembers + 1, crowd: true } });
  t.is(room.lastEvent('headcount')?.relist, undefined);

  // From now on a plain member joining, coming online or reporting their player is counted, not told.
  const joined = room.events('member.joined').length;
  const updated = room.events('member.updated').length;
  const late = people.at(-1)!;
  const { member } = await room.send(late, { kind: 'member.join' });
  t.is(member.userId, late.userId, 'the joiner still learns their own membership');
  await room.send(late, { kind: 'presence.enter', connectionId: 'phone' });
  await room.send(late, { kind: 'member.player', state: 'ready', mediaId: null });
  t.is(room.events('member.joined').length, joined);
  t.is(room.events('member.updated').length, updated);
  const told = room.events('headcount').length;
  t.true(room.hasTimer('headcount'));
  await room.fire('headcount');
  t.is(room.events('headcount').length, told + 1);
  t.deepEqual(room.lastEvent('headcount')?.headcount, { members: ROOM_LIMITS.crowdEnterMembers + 2, online: 1, crowd: true });
  // Nothing changed since: the interval sends nothing.
  await room.send(late, { kind: 'presence.refresh', connectionId: 'phone' });
  t.false(room.hasTimer('headcount'));

  // The view names the owner (and admins), and counts.
  view = await memberView(room, alice);
  t.deepEqual(view.members?.map((m) => m.userId), [alice.userId]);
  t.deepEqual(view.headcount, { members: ROOM_LIMITS.crowdEnterMembers + 2, online: 1, crowd: true });
  // An admin is named one by one: the role change is told, and the view lists them.
  const promoted = people[3]!;
  await room.send(alice, { kind: 'member.setRole', userId: promoted.userId, role: 'admin' });
  t.like(room.lastEvent('member.updated'), { member: { userId: promoted.userId, role: 'admin' } });
  await room.send(promoted, { kind: 'presence.enter', connectionId: 'laptop' });
  t.like(room.lastEvent('member.updated'), { member: { userId: promoted.userId, online: true } });
  view = await memberView(room, late);
  t.deepEqual(new Set(view.members?.map((m) => m.userId)), new Set([alice.userId, promoted.userId]));

  // A plain member leaving: only their own connections are meant to hear it.
  const leaver = people[10]!;
  await room.send(leaver, { kind: 'member.leave' });
  t.like(room.lastEvent('member.left'), { userId: leaver.userId, reason: 'left', quiet: true });

  // Below crowdLeaveMembers the room lists everyone again, and says so at once with `relist`.
  const stay = ROOM_LIMITS.crowdLeaveMembers;
  const leaving = people.filter((p) => p !== leaver && p !== promoted).slice(0, ROOM_LIMITS.crowdEnterMembers + 2 - stay);
  for (const person of leaving.slice(0, -1)) await room.send(person, { kind: 'member.leave' });
  t.true(room.lastEvent('headcount')?.headcount.crowd, 'still a crowd between the two marks');
  await room.send(leaving.at(-1)!, { kind: 'member.leave' });
  t.like(room.lastEvent('headcount'), { headcount: { members: stay - 1, crowd: false }, relist: true });
  view = await memberView(room, alice);
  t.is(view.members?.length, stay - 1);
  t.false(view.headcount.crowd);
});

test('member.list pages every active member by user id, online or not, by name, and is refused without view_member_list', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const room = await bed.createRoom(alice);
  const people = Array.from({ length: 30 }, (_, i) => user(`page-${String(i).padStart(3, '0')}-${uid('m')}`, i % 3 === 0 ? `Rosa ${i}` : `Fan ${i}`));
  for (const person of people) await room.send(person, { kind: 'member.join' });
  for (const person of people.slice(0, 4)) await room.send(person, { kind: 'presence.enter', connectionId: 'c' });

  const seen: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await room.send(people[5]!, { kind: 'member.list', limit: 7, ...(after ? { after } : {}) });
    t.is(page.total, 31);
    seen.push(...page.members.map((m) => m.userId));
    if (page.nextAfter === null) break;
    after = page.nextAfter;
  }
  t.deepEqual(seen, [alice.userId, ...people.map((p) => p.userId)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

  const online = await room.send(alice, { kind: 'member.list', online: true });
  t.deepEqual(online.members.map((m) => m.userId), people.slice(0, 4).map((p) => p.userId));
  t.true(online.members.every((m) => m.online));
  t.is((await room.send(alice, { kind: 'member.list', online: false })).total, 27);
  const rosas = await room.send(alice, { kind: 'member.list', query: '  rOSA ' });
  t.is(rosas.total, 10);
  t.true(rosas.members.every((m) => m.name.startsWith('Rosa')));

  await room.send(alice, { kind: 'room.update', permissionOverrides: { member: ['send_chat'] } });
  const err = await t.throwsAsync(room.send(people[5]!, { kind: 'member.list' }));
  t.is((err as { code?: string }).code, 'forbidden');
  const bad = await t.throwsAsync(room.sendRaw(alice, { kind: 'member.list', limit: ROOM_LIMITS.memberPageMaxLimit + 1 }));
  t.regex(bad?.message ?? '', /limit/);
});

test('a crowd plays on its own clock: no ready wait, and a member buffering pauses nobody', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const room = await bed.createRoom(alice, { settings: { waitForAllReady: true } });
  const { item } = await room.send(alice, { kind: 'playlist.push', ...media('Final') });
  await room.send(alice, { kind: 'playlist.setCurrent', mediaId: item.id });
  const fans = Array.from({ length: ROOM_LIMITS.crowdEnterMembers }, (_, i) => user(uid(`fan${i}`)));
  for (const fan of fans) await room.send(fan, { kind: 'member.join' });
  for (const person of [alice, fans[0]!]) await room.send(person, { kind: 'presence.enter', connectionId: 'c' });
  t.true(room.lastEvent('headcount')?.headcount.crowd);

  const played = await room.send(alice, { kind: 'playback.play' });
  t.like(played.playback, { playing: true, waitingForReady: null }, 'nobody is waited for, though fans[0] never said ready');
  await room.send(fans[0]!, { kind: 'member.player', state: 'buffering', mediaId: item.id });
  t.true(room.lastEvent('playback')?.playback.playing);
});
