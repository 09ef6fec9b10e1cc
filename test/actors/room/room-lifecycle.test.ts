import test from 'ava';
import { PERMISSIONS } from '../../../contracts/permissions/names.js';
import { RoomTestBed, addMember, guest, rejects, service, uid, user } from './fixtures.js';

// Tests that change runtime settings are serial (ava runs them before the concurrent ones)
// and put the old values back.
let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_lifecycle');
});

test.after.always(async () => {
  await bed?.close();
});

test('the creator owns the new room and is its admin with every permission', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const room = await bed.createRoom(alice, { name: '  Friday film club  ', visibility: 'hidden' });
  const view = await room.send(alice, { kind: 'room.get' });
  if (view.access !== 'member') return t.fail('owner should see the member view');
  t.like(view.room, { id: room.id, name: 'Friday film club', ownerId: alice.userId, visibility: 'hidden', status: 'active', hasPassword: false });
  t.like(view.me, { userId: alice.userId, status: 'active', role: 'admin', isOwner: true });
  t.deepEqual(view.me.permissions, [...PERMISSIONS]);
  t.deepEqual(view.members?.map((m) => [m.userId, m.name, m.role, m.isOwner]), [[alice.userId, 'Alice', 'admin', true]]);
  t.like(view.playback, { mediaId: null, playing: false, position: 0 });
  t.is(view.seq, room.ctx.currentSeq(), 'the snapshot says which event it is current to');

  const { rows } = await bed.pool.query('SELECT owner_id, status FROM rooms WHERE id = $1', [room.id]);
  t.deepEqual(rows, [{ owner_id: alice.userId, status: 'active' }]);
});

test('an id without a room answers not_found; a room cannot be created twice, but its creator may retry', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const room = await bed.activate(uid('room'));
  await rejects(t, room.send(alice, { kind: 'room.get' }), 'not_found');
  await rejects(t, room.send(alice, { kind: 'member.join' }), 'not_found');

  const created = await room.send(alice, { kind: 'room.create', name: 'One', visibility: 'public' });
  await rejects(t, room.send(bob, { kind: 'room.create', name: 'Two', visibility: 'public' }), 'conflict');
  const retried = await room.send(alice, { kind: 'room.create', name: 'One again', visibility: 'public' });
  t.deepEqual(retried.room, created.room, 'a retry returns the room as created');
});

test.serial('either creation switch alone refuses room creation', async (t) => {
  const alice = user(uid('alice'));
  await bed.withSettings('server', { allowRoomCreation: false }, async () => {
    await rejects(t, bed.createRoom(alice), 'forbidden', /server\.allowRoomCreation/);
  });
  await bed.withSettings('room', { disableCreateRoom: true }, async () => {
    await rejects(t, bed.createRoom(alice), 'forbidden', /room\.disableCreateRoom/);
  });
  await t.notThrowsAsync(bed.createRoom(alice), 'allowed again once both switches are back');
});

test('guests and service callers cannot create rooms', async (t) => {
  await rejects(t, bed.createRoom(guest(uid('guest'))), 'forbidden', /guests/);
  await rejects(t, bed.createRoom(service()), 'forbidden');
});

test.serial('server.maxRoomsPerUser holds at its boundary; deleted and rejected rooms free their place', async (t) => {
  const alice = user(uid('alice'));
  await bed.withSettings('server', { maxRoomsPerUser: 2 }, async () => {
    const first = await bed.createRoom(alice);
    await bed.createRoom(alice);
    const err = await rejects(t, bed.createRoom(alice), 'limit_exceeded', /server\.maxRoomsPerUser = 2/);
    t.regex(err.message, /own 2 rooms/);

    await first.send(alice, { kind: 'room.delete' });
    const third = await bed.createRoom(alice);

    await bed.withSettings('room', { createRoomNeedReview: true }, async () => {
      await third.send(alice, { kind: 'room.delete' });
      const underReview = await bed.createRoom(alice);
      await rejects(t, bed.createRoom(alice), 'limit_exceeded', /maxRoomsPerUser/);
      await underReview.send(service(), { kind: 'room.review', approve: false });
      await t.notThrowsAsync(bed.createRoom(alice), 'a rejected room no longer counts');
    });
  });
});

test.serial('two rooms created at once on two hosts cannot both take the last place', async (t) => {
  const otherHost = bed.otherHost();
  await bed.withSettings('server', { maxRoomsPerUser: 1 }, async () => {
    for (let round = 0; round < 5; round += 1) {
      const owner = user(uid('racer'));
      const [a, b] = await Promise.all([bed.activate(uid('room')), bed.activate(uid('room'), { type: otherHost })]);
      const outcomes = await Promise.allSettled([
        a.send(owner, { kind: 'room.create', name: 'A', visibility: 'public' }),
        b.send(owner, { kind: 'room.create', name: 'B', visibility: 'public' }),
      ]);
      t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1, `round ${round}: exactly one creation wins`);
      const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rooms WHERE owner_id = $1', [owner.userId]);
      t.is(rows[0]?.n, 1);
    }
  });
});

test.serial('room.passwordPolicy: required and forbidden apply on create and on update', async (t) => {
  const alice = user(uid('alice'));
  await bed.withSettings('room', { passwordPolicy: 'required' }, async () => {
    const err = await rejects(t, bed.createRoom(alice), 'invalid_argument');
    t.is(err.issues[0]?.key, 'password');
    const room = await bed.createRoom(alice, { password: 'secret' });
    await rejects(t, room.send(alice, { kind: 'room.update', password: null }), 'invalid_argument', /password/);
    await rejects(t, room.send(alice, { kind: 'room.update', password: '' }), 'invalid_argument', /password/);
  });
  await bed.withSettings('room', { passwordPolicy: 'forbidden' }, async () => {
    await rejects(t, bed.createRoom(alice, { password: 'secret' }), 'invalid_argument', /forbids/);
    const room = await bed.createRoom(alice);
    await rejects(t, room.send(alice, { kind: 'room.update', password: 'secret' }), 'invalid_argument', /forbids/);
  });
  // optional: both ways.
  const open = await bed.createRoom(alice);
  const locked = await open.send(alice, { kind: 'room.update', password: 'secret' });
  t.true(locked.room.hasPassword);
  const unlocked = await open.send(alice, { kind: 'room.update', password: null });
  t.false(unlocked.room.hasPassword);
});

test('a room password is stored as a salted hash and checked on join', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const carol = user(uid('carol'));
  const room = await bed.createRoom(alice, { password: 'correct horse' });
  const other = await bed.createRoom(alice, { password: 'correct horse' });

  const { rows } = await bed.pool.query<{ password_hash: string }>('SELECT password_hash FROM rooms WHERE id = ANY($1) ORDER BY id', [
    [room.id, other.id],
  ]);
  for (const row of rows) {
    t.regex(row.password_hash, /^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    t.false(row.password_hash.includes('correct horse'));
  }
  t.not(rows[0]?.password_hash, rows[1]?.password_hash, 'each hash has its own salt');

  const missing = await rejects(t, room.send(bob, { kind: 'member.join' }), 'invalid_argument');
  t.is(missing.issues[0]?.key, 'password');
  await rejects(t, room.send(bob, { kind: 'member.join', password: 'correct horse!' }), 'forbidden', /wrong room password/);
  const joined = await room.send(bob, { kind: 'member.join', password: 'correct horse' });
  t.is(joined.status, 'active');

  const preview = await room.send(carol, { kind: 'room.get' });
  t.like(preview, { access: 'visitor', room: { hasPassword: true, memberCount: 2 }, me: { status: 'none', permissions: [] } });
});

test.serial('a room under review is seen only by its owner, joined by nobody, and decided by the review workflow', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  await bed.withSettings('room', { createRoomNeedReview: true }, async () => {
    const room = await bed.createRoom(alice, { name: 'Needs a look' });
    t.deepEqual(bed.review.requests.find((r) => r.id === room.id), { id: room.id, name: 'Needs a look', ownerId: alice.userId });

    const own = await room.send(alice, { kind: 'room.get' });
    t.like(own, { access: 'member', room: { status: 'pending_review' } });
    await rejects(t, room.send(bob, { kind: 'room.get' }), 'not_found');
    await rejects(t, room.send(bob, { kind: 'member.join' }), 'not_found');
    await rejects(t, room.send(alice, { kind: 'room.review', approve: true }), 'forbidden', /review workflow/);

    const approved = await room.send(service(), { kind: 'room.review', approve: true });
    t.is(approved.room.status, 'active');
    t.like(room.lastEvent('room.updated'), { room: { status: 'active' } });
    t.is((await room.send(service(), { kind: 'room.review', approve: true })).room.status, 'active', 'repeating a decision is a no-op');
    await rejects(t, room.send(service(), { kind: 'room.review', approve: false }), 'conflict');
    t.is((await room.send(bob, { kind: 'member.join' })).status, 'active');

    const rejected = await bed.createRoom(alice);
    await rejected.send(service(), { kind: 'room.review', approve: false });
    t.like(await rejected.send(alice, { kind: 'room.get' }), { room: { status: 'rejected' } });
    await rejects(t, rejected.send(bob, { kind: 'room.get' }), 'not_found');
    await rejects(t, rejected.send(alice, { kind: 'chat.send', text: 'hello?' }), 'conflict', /rejected/);
    await rejected.send(alice, { kind: 'room.delete' });
  });
});

test.serial('when the review cannot be requested, room.create fails and a retry requests it', async (t) => {
  const alice = user(uid('alice'));
  await bed.withSettings('room', { createRoomNeedReview: true }, async () => {
    const room = await bed.activate(uid('room'));
    bed.review.failNext = true;
    await rejects(t, room.send(alice, { kind: 'room.create', name: 'Retry me', visibility: 'public' }), 'unavailable');
    t.false(bed.review.requests.some((r) => r.id === room.id));
    const retried = await room.send(alice, { kind: 'room.create', name: 'Retry me', visibility: 'public' });
    t.is(retried.room.status, 'pending_review');
    t.true(bed.review.requests.some((r) => r.id === room.id));
  });
});

test('room.update changes the room and publishes it; room.delete removes it with everything in it', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  await room.send(bob, { kind: 'chat.send', text: 'hi' });

  const updated = await room.send(alice, {
    kind: 'room.update',
    name: 'Renamed',
    visibility: 'hidden',
    requireJoinApproval: true,
    waitForAllReady: true,
    readyTimeoutMs: 15000,
    permissionOverrides: { member: ['send_chat'] },
  });
  t.like(updated.room, { name: 'Renamed', visibility: 'hidden', requireJoinApproval: true, waitForAllReady: true, readyTimeoutMs: 15000 });
  t.deepEqual(updated.room.permissionOverrides, { member: ['send_chat'] });
  t.deepEqual(room.lastEvent('room.updated')?.room, updated.room);
  const cleared = await room.send(alice, { kind: 'room.update', permissionOverrides: { member: null } });
  t.deepEqual(cleared.room.permissionOverrides, {});

  await rejects(t, room.send(bob, { kind: 'room.delete' }), 'forbidden', /owner/);
  await room.send(alice, { kind: 'room.delete' });
  t.like(room.lastEvent('room.deleted'), { roomId: room.id });
  await rejects(t, room.send(alice, { kind: 'room.get' }), 'not_found');
  for (const table of ['rooms', 'room_members', 'room_playback', 'chat_messages']) {
    const column = table === 'rooms' ? 'id' : 'room_id';
    const { rows } = await bed.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [room.id]);
    t.is(rows[0]?.n, 0, `${table} is empty`);
  }
});

test('the owner can hand the room to an active non-guest member, and only the owner can', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const carol = user(uid('carol'));
  const visitor = guest(uid('guest'));
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  await addMember(room, carol);
  await addMember(room, visitor);
  await room.send(alice, { kind: 'member.setRole', userId: carol.userId, role: 'admin' });

  await rejects(t, room.send(carol, { kind: 'owner.transfer', userId: bob.userId }), 'forbidden', /owner/);
  await rejects(t, room.send(alice, { kind: 'owner.transfer', userId: visitor.userId }), 'forbidden', /guest/);
  await rejects(t, room.send(alice, { kind: 'owner.transfer', userId: uid('stranger') }), 'not_found');

  const moved = await room.send(alice, { kind: 'owner.transfer', userId: bob.userId });
  t.is(moved.room.ownerId, bob.userId);
  const asAlice = await room.send(alice, { kind: 'room.get' });
  t.like(asAlice.me, { role: 'admin', isOwner: false });
  await rejects(t, room.send(alice, { kind: 'room.delete' }), 'forbidden');
  const asBob = await room.send(bob, { kind: 'room.get' });
  t.like(asBob.me, { role: 'admin', isOwner: true });
  t.like(room.events('member.updated').at(-2), { member: { userId: bob.userId, role: 'admin', isOwner: true } });
});

test.serial('receiving a room counts against the new owner quota', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  await bed.withSettings('server', { maxRoomsPerUser: 1 }, async () => {
    await bed.createRoom(bob);
    const room = await bed.createRoom(alice);
    await addMember(room, bob);
    await rejects(t, room.send(alice, { kind: 'owner.transfer', userId: bob.userId }), 'limit_exceeded', /maxRoomsPerUser/);
  });
});

test('malformed commands are refused with the offending field named', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  const unknown = await rejects(t, room.sendRaw(alice, { kind: 'room.explode' }), 'invalid_argument');
  t.is(unknown.issues[0]?.key, 'kind');
  const extra = await rejects(t, room.sendRaw(alice, { kind: 'chat.send', text: 'x', colour: 'red' }), 'invalid_argument');
  t.is(extra.issues[0]?.key, 'colour');
  const wrongType = await rejects(t, room.sendRaw(alice, { kind: 'playback.seek', position: 'ten' }), 'invalid_argument');
  t.is(wrongType.issues[0]?.key, 'position');
  const badName = await rejects(t, room.send(alice, { kind: 'room.update', name: 'two\nlines' }), 'invalid_argument');
  t.is(badName.issues[0]?.key, 'name');
});

test('timer commands cannot be sent by clients', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  await rejects(t, room.sendRaw(alice, { kind: 'room.timer', name: 'ready', token: 'guess' }), 'forbidden');
  await rejects(t, room.sendRaw(alice, { kind: 'room.timer', name: 'ready', token: 'guess' }, { scheduled: true }), 'forbidden');
});

test.serial('webrtc.join hands out the configured ICE servers', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  const servers = [{ urls: ['turn:turn.example.com:3478'], username: 'u', credential: 'c' }];
  await bed.withSettings('webrtc', { externalIceServers: servers }, async () => {
    t.deepEqual(await room.send(alice, { kind: 'webrtc.join' }), { iceServers: servers });
  });
  t.deepEqual((await room.send(alice, { kind: 'webrtc.join' })).iceServers, bed.settings.get('webrtc.externalIceServers'));
});
