import test from 'ava';
import { ROOM_LIMITS } from '../../../actors/room/index.js';
import { RoomTestBed, addMember, guest, rejects, service, uid, user } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_members');
});

test.after.always(async () => {
  await bed?.close();
});

test('joining makes an active member, announced to the room; joining again changes nothing', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'), 'Bob');
  const room = await bed.createRoom(alice);
  const joined = await room.send(bob, { kind: 'member.join' });
  t.like(joined, { status: 'active', member: { userId: bob.userId, name: 'Bob', role: 'member', status: 'active', online: false } });
  t.like(room.lastEvent('member.joined'), { member: { userId: bob.userId } });
  const events = room.ctx.events.length;
  t.like(await room.send(bob, { kind: 'member.join' }), { status: 'active' });
  t.is(room.ctx.events.length, events);

  const { rows } = await bed.pool.query('SELECT name, role, status, guest FROM room_members WHERE room_id = $1 AND user_id = $2', [
    room.id,
    bob.userId,
  ]);
  t.deepEqual(rows, [{ name: 'Bob', role: 'member', status: 'active', guest: false }]);
});

test('names shown to others follow the room-name rule: forbidden characters are stripped, long names cut, and nothing visible falls back to the id', async (t) => {
  // The owner's name too: it is shown in the member list like anyone's.
  const alice = user(uid('alice'), 'Alice\u202Enimda');
  const room = await bed.createRoom(alice);
  const owner = await room.send(alice, { kind: 'room.get' });
  t.is(owner.access === 'member' ? owner.members?.find((m) => m.userId === alice.userId)?.name : undefined, 'Alicenimda');

  const bidi = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
  const cases: Array<[given: string, shown: string | null]> = [
    ...bidi.map((c): [string, string] => [`Bob${c}nimda`, 'Bobnimda']),
    ['Bell\u0007', 'Bell'],
    ['Nul\u0000l', 'Null'],
    ['Esc\u001b[31mred', 'Esc[31mred'],
    ['Del\u007fete', 'Delete'],
    ['C1\u009bcsi', 'C1csi'],
    // Line breaks and tabs separate words: they become spaces.
    ['two\nlines', 'two lines'],
    ['two\r\nlines', 'two lines'],
    ['next\u0085line', 'next line'],
    ['para\u2029graph', 'para graph'],
    ['tab\tbed', 'tab bed'],
    ['lone \ud800half', 'lone half'],
    // Joiners stay: emoji sequences and several scripts need them; right-to-left names keep their marks.
    ['👩\u200d💻 Dev', '👩\u200d💻 Dev'],
    ['\u0645\u200c\u0646 \u200f', '\u0645\u200c\u0646 \u200f'],
    ['  Spaced out  ', 'Spaced out'],
    ['x'.repeat(ROOM_LIMITS.nameMaxChars + 10), 'x'.repeat(ROOM_LIMITS.nameMaxChars)],
    ['🎬'.repeat(ROOM_LIMITS.nameMaxChars + 1), '🎬'.repeat(ROOM_LIMITS.nameMaxChars)],
    // Nothing visible left: the user id is shown instead.
    ['\u202e\u2066', null],
    ['\u0007\n\t', null],
    ['\u200b\u200d\u2060', null],
    ['\u3164', null],
    ['   ', null],
  ];
  for (const [given, shown] of cases) {
    const caller = user(uid('m'), given);
    const { member } = await room.send(caller, { kind: 'member.join' });
    const expected = shown ?? caller.userId;
    t.is(member.name, expected, JSON.stringify(given));
    const { rows } = await bed.pool.query('SELECT name FROM room_members WHERE room_id = $1 AND user_id = $2', [room.id, caller.userId]);
    t.deepEqual(rows, [{ name: expected }], `stored: ${JSON.stringify(given)}`);
  }

  // The name stored with a chat message is the member's sanitised name.
  const mallory = user(uid('mallory'), 'Mallory\u2067 \u202eadmin');
  await addMember(room, mallory);
  const { message } = await room.send(mallory, { kind: 'chat.send', text: 'hi' });
  t.is(message.name, 'Mallory admin');
  const history = await room.send(alice, { kind: 'chat.history' });
  t.is(history.messages[0]?.name, 'Mallory admin');

  // A ban of someone who never joined shows their id under the same rule.
  for (const [userId, shown] of [
    [`eve\u202e${uid('x')}`, null],
    ['\u202e\u2066', 'unnamed'],
  ] as const) {
    const { member } = await room.send(alice, { kind: 'member.ban', userId });
    t.is(member.userId, userId);
    t.is(member.name, shown ?? userId.replace('\u202e', ''), JSON.stringify(userId));
  }

  // Room names follow the same rule, refused instead (the owner is there to correct them).
  for (const name of ['Movie\u202enight', 'Movie\u2028night', '\u200b\u200d']) {
    const err = await rejects(t, room.send(alice, { kind: 'room.update', name }), 'invalid_argument');
    t.is(err.issues[0]?.key, 'name', JSON.stringify(name));
  }
});

test.serial('server.maxMembersPerRoom counts members and join requests, at its boundary', async (t) => {
  const alice = user(uid('alice'));
  await bed.withSettings('server', { maxMembersPerRoom: 3 }, async () => {
    const room = await bed.createRoom(alice);
    await addMember(room, user(uid('m1')));
    await room.send(alice, { kind: 'room.update', requireJoinApproval: true });
    const pending = user(uid('m2'));
    t.is((await room.send(pending, { kind: 'member.join' })).status, 'pending');
    // Owner + member + request = 3 seats.
    await rejects(t, room.send(user(uid('m3')), { kind: 'member.join' }), 'limit_exceeded', /maxMembersPerRoom = 3/);
    await room.send(alice, { kind: 'member.reject', userId: pending.userId });
    t.is((await room.send(user(uid('m3')), { kind: 'member.join' })).status, 'pending');
  });
});

test('a room requiring approval holds joiners as pending until approved or rejected', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const carol = user(uid('carol'));
  const room = await bed.createRoom(alice, { requireJoinApproval: true });
  t.is((await room.send(bob, { kind: 'member.join' })).status, 'pending');
  t.like(room.lastEvent('member.requested'), { member: { userId: bob.userId, status: 'pending' } });
  t.is(room.events('member.joined').length, 0);
  await rejects(t, room.send(bob, { kind: 'chat.send', text: 'let me in' }), 'forbidden', /waiting for approval/);
  t.like(await room.send(bob, { kind: 'room.get' }), { access: 'visitor', me: { status: 'pending' } });

  const view = await room.send(alice, { kind: 'room.get' });
  t.deepEqual(view.access === 'member' ? view.pendingMembers?.map((m) => m.userId) : undefined, [bob.userId]);
  await room.send(alice, { kind: 'member.approve', userId: bob.userId });
  t.like(room.lastEvent('member.joined'), { member: { userId: bob.userId, status: 'active' } });
  await t.notThrowsAsync(room.send(bob, { kind: 'chat.send', text: 'thanks' }));

  await room.send(carol, { kind: 'member.join' });
  await room.send(alice, { kind: 'member.reject', userId: carol.userId });
  t.like(room.lastEvent('member.left'), { userId: carol.userId, reason: 'rejected' });
  await rejects(t, room.send(alice, { kind: 'member.approve', userId: carol.userId }), 'not_found');
  t.like(await room.send(carol, { kind: 'room.get' }), { me: { status: 'none' } });
});

test('a pending member can withdraw the request; a member can leave; the owner cannot', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const room = await bed.createRoom(alice, { requireJoinApproval: true });
  await room.send(bob, { kind: 'member.join' });
  t.deepEqual(await room.send(bob, { kind: 'member.leave' }), { left: true });
  t.deepEqual(await room.send(bob, { kind: 'member.leave' }), { left: false });
  await rejects(t, room.send(alice, { kind: 'member.leave' }), 'forbidden', /owner cannot leave/);
});

test('kick removes a member who may come back; ban keeps them out until unbanned, members or not', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const stranger = user(uid('stranger'));
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  await room.send(bob, { kind: 'presence.enter', connectionId: 'c1' });

  await room.send(alice, { kind: 'member.kick', userId: bob.userId });
  t.like(room.lastEvent('member.left'), { userId: bob.userId, reason: 'kicked', by: alice.userId });
  await rejects(t, room.send(bob, { kind: 'chat.send', text: 'hey' }), 'forbidden', /join the room first/);
  const view = await room.send(alice, { kind: 'room.get' });
  t.false(view.access === 'member' && view.members?.some((m) => m.userId === bob.userId));
  t.is((await room.send(bob, { kind: 'member.join' })).status, 'active', 'a kicked member may rejoin');

  await room.send(alice, { kind: 'member.ban', userId: bob.userId });
  t.like(room.lastEvent('member.left'), { userId: bob.userId, reason: 'banned' });
  t.like(room.lastEvent('member.banned'), { member: { userId: bob.userId, status: 'banned' } });
  await rejects(t, room.send(bob, { kind: 'member.join' }), 'forbidden', /banned/);
  t.deepEqual(await room.send(bob, { kind: 'member.leave' }), { left: false }, 'leaving does not lift a ban');
  await rejects(t, room.send(bob, { kind: 'member.join' }), 'forbidden', /banned/);

  await room.send(alice, { kind: 'member.ban', userId: stranger.userId });
  await rejects(t, room.send(stranger, { kind: 'member.join' }), 'forbidden', /banned/);
  const banned = await room.send(alice, { kind: 'room.get' });
  t.deepEqual(banned.access === 'member' ? banned.bannedMembers?.map((m) => m.userId).sort() : [], [bob.userId, stranger.userId].sort());

  await room.send(alice, { kind: 'member.unban', userId: bob.userId });
  t.like(room.lastEvent('member.unbanned'), { userId: bob.userId });
  t.is((await room.send(bob, { kind: 'member.join' })).status, 'active');
  await rejects(t, room.send(alice, { kind: 'member.unban', userId: bob.userId }), 'not_found');

  // Bans survive a new activation (they are rows, not memory).
  const again = await bed.activate(room.id);
  await rejects(t, again.send(stranger, { kind: 'member.join' }), 'forbidden', /banned/);
});

test('nobody acts on the owner; only the owner acts on admins or makes admins', async (t) => {
  const alice = user(uid('alice'));
  const admin = user(uid('admin'));
  const admin2 = user(uid('admin2'));
  const member = user(uid('member'));
  const room = await bed.createRoom(alice);
  for (const caller of [admin, admin2, member]) await addMember(room, caller);
  await room.send(alice, { kind: 'member.setRole', userId: admin.userId, role: 'admin' });
  await room.send(alice, { kind: 'member.setRole', userId: admin2.userId, role: 'admin' });

  for (const kind of ['member.kick', 'member.ban'] as const) {
    await rejects(t, room.send(admin, { kind, userId: alice.userId }), 'forbidden', /owner/);
    await rejects(t, room.send(service(), { kind, userId: alice.userId }), 'forbidden', /owner/);
    await rejects(t, room.send(admin, { kind, userId: admin2.userId }), 'forbidden', /only the room owner/);
    await rejects(t, room.send(admin, { kind, userId: admin.userId }), 'forbidden', /yourself/);
  }
  await rejects(t, room.send(admin, { kind: 'member.setRole', userId: alice.userId, role: 'member' }), 'forbidden', /owner/);
  await rejects(t, room.send(admin, { kind: 'member.setRole', userId: admin2.userId, role: 'member' }), 'forbidden', /only the room owner/);
  await rejects(t, room.send(admin, { kind: 'member.setRole', userId: member.userId, role: 'admin' }), 'forbidden', /only the room owner/);

  // An admin manages members below admin.
  const demoted = await room.send(admin, { kind: 'member.setRole', userId: member.userId, role: 'guest' });
  t.is(demoted.member.role, 'guest');
  t.like(room.lastEvent('member.updated'), { member: { userId: member.userId, role: 'guest' } });
  await room.send(admin, { kind: 'member.kick', userId: member.userId });

  // The owner may act on admins.
  await room.send(alice, { kind: 'member.setRole', userId: admin2.userId, role: 'member' });
  await room.send(alice, { kind: 'member.kick', userId: admin2.userId });
  t.like(room.lastEvent('member.left'), { userId: admin2.userId, reason: 'kicked' });
});

test.serial('guests join only while user.enableGuest is on, hold the guest role only, and are shut out when it goes off', async (t) => {
  const alice = user(uid('alice'));
  const visitor = guest(uid('guest'));
  const room = await bed.createRoom(alice);
  await bed.withSettings('user', { enableGuest: false }, async () => {
    await rejects(t, room.send(visitor, { kind: 'member.join' }), 'forbidden', /user\.enableGuest/);
  });
  const joined = await room.send(visitor, { kind: 'member.join' });
  t.like(joined.member, { role: 'guest', guest: true });
  await rejects(t, room.send(alice, { kind: 'member.setRole', userId: visitor.userId, role: 'member' }), 'forbidden', /guest role/);
  await t.notThrowsAsync(room.send(visitor, { kind: 'room.get' }));
  await bed.withSettings('user', { enableGuest: false }, async () => {
    await rejects(t, room.send(visitor, { kind: 'room.get' }), 'forbidden', /user\.enableGuest/);
  });
});

test('presence: connections come and go, members show online, and kicked members drop out', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  t.true(room.actor.idle(), 'nobody present: the room may passivate');

  const view = await room.send(bob, { kind: 'presence.enter', connectionId: 'tab-1' });
  t.like(view, { access: 'member', me: { userId: bob.userId } });
  t.like(room.lastEvent('member.updated'), { member: { userId: bob.userId, online: true } });
  t.false(room.actor.idle());
  const before = room.ctx.events.length;
  await room.send(bob, { kind: 'presence.enter', connectionId: 'tab-2' });
  t.is(room.ctx.events.length, before, 'a second connection is not news');

  t.deepEqual(await room.send(bob, { kind: 'presence.leave', connectionId: 'tab-1' }), { online: true });
  t.deepEqual(await room.send(bob, { kind: 'presence.leave', connectionId: 'tab-2' }), { online: false });
  t.like(room.lastEvent('member.updated'), { member: { userId: bob.userId, online: false } });
  t.true(room.actor.idle());

  await rejects(t, room.send(user(uid('stranger')), { kind: 'presence.enter', connectionId: 'x' }), 'forbidden');
  await room.send(bob, { kind: 'presence.enter', connectionId: 'tab-3' });
  await room.send(alice, { kind: 'member.kick', userId: bob.userId });
  t.true(room.actor.idle(), 'the kicked member is no longer present');
});

test('a connection that is not refreshed expires, so a dead gateway cannot keep a room awake', async (t) => {
  const tb = await RoomTestBed.start('room_presence_ttl', { presenceTtlMs: 60_000 });
  t.teardown(() => tb.close());
  const alice = user(uid('alice'));
  const room = await tb.createRoom(alice);
  await room.send(alice, { kind: 'presence.enter', connectionId: 'gw1-sock1' });
  t.true(room.hasTimer('presence'));

  tb.clock.advance(30_000);
  await room.send(alice, { kind: 'presence.enter', connectionId: 'gw2-sock1' });
  tb.clock.advance(31_000);
  await room.fire('presence');
  const view = await room.send(alice, { kind: 'room.get' });
  t.true(view.access === 'member' && view.members?.[0]?.online, 'the refreshed connection is still there');

  tb.clock.advance(60_000);
  await room.fire('presence');
  t.like(room.lastEvent('member.updated'), { member: { userId: alice.userId, online: false } });
  t.true(room.actor.idle());
});

test('presence.refresh keeps a connection alive with a small answer, and brings back one that expired', async (t) => {
  const tb = await RoomTestBed.start('room_presence_refresh', { presenceTtlMs: 60_000 });
  t.teardown(() => tb.close());
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const room = await tb.createRoom(alice);
  await addMember(room, bob);
  await room.send(bob, { kind: 'presence.enter', connectionId: 'sock' });
  tb.clock.advance(40_000);
  t.deepEqual(await room.send(bob, { kind: 'presence.refresh', connectionId: 'sock' }), { online: true });
  tb.clock.advance(40_000);
  await room.fire('presence');
  const view = await room.send(alice, { kind: 'room.get' });
  t.true(view.access === 'member' && view.members?.some((m) => m.userId === bob.userId && m.online), 'refreshed, so still online');

  tb.clock.advance(61_000);
  await room.fire('presence');
  t.like(room.lastEvent('member.updated'), { member: { userId: bob.userId, online: false } });
  await room.send(bob, { kind: 'presence.refresh', connectionId: 'sock' });
  t.like(room.lastEvent('member.updated'), { member: { userId: bob.userId, online: true } });
  await rejects(t, room.send(user(uid('stranger')), { kind: 'presence.refresh', connectionId: 'x' }), 'forbidden');
});

test('a name stored before names were cleaned is shown cleaned once the room loads again', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const room = await bed.createRoom(alice);
  const mallory = uid('mallory');
  await bed.pool.query(
    `INSERT INTO room_members (room_id, user_id, name, role, status, guest, joined_at) VALUES ($1, $2, $3, 'member', 'active', false, now())`,
    [room.id, mallory, 'Mallory\u202Enimda'],
  );
  room.abandon();
  const again = await bed.activate(room.id, { type: bed.otherHost() });
  const view = await again.send(alice, { kind: 'room.get' });
  t.is(view.access === 'member' ? view.members?.find((m) => m.userId === mallory)?.name : undefined, 'Mallorynimda');
});

test('a user id with a control character is refused by name before anything is written', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  const error = await rejects(t, room.send(alice, { kind: 'member.ban', userId: 'mallory\u0000' }), 'invalid_argument');
  t.deepEqual(error.issues.map((issue) => issue.key), ['userId']);
});
