/**
 * The rooms endpoints over HTTP against a whole service (gateway + actors on the test stack):
 * create, read, settings, delete, join and leave, ownership, the public directory with search
 * and cursor paging, "my rooms", and Idempotency-Key. Every answer is also checked against
 * /api/openapi.json by the bed.
 */
import test from 'ava';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';

let bed: GatewayBed;
let owner: Member;
let other: Member;

test.before(async () => {
  bed = await startGatewayBed('http-rooms');
  await bed.set('server', { maxRoomsPerUser: 100 });
  owner = await bed.signUp('owner');
  other = await bed.signUp('other');
});
test.after.always(async () => {
  await bed?.close();
});

interface RoomInfo {
  id: string;
  name: string;
  ownerId: string;
  visibility: string;
  status: string;
  hasPassword: boolean;
  requireJoinApproval: boolean;
  queueMode: string;
  createdAt: number;
}

async function createRoom(member: Member, body: Record<string, unknown>): Promise<RoomInfo> {
  const answer = await bed.call<{ room: RoomInfo }>('POST', '/api/rooms', body, member.token);
  if (answer.status !== 201) throw new Error(`create failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.room;
}

test('creating a room answers 201 with the room and its location; the owner reads it as a member', async (t) => {
  const created = await bed.call<{ room: RoomInfo; seq: number }>('POST', '/api/rooms', { name: '  Movie night ', waitForAllReady: true }, owner.token);
  t.is(created.status, 201);
  const room = created.body.room;
  t.is(room.name, 'Movie night');
  t.is(room.queueMode, 'next', 'a room plays its list through by default');
  t.is(room.visibility, 'public');
  t.is(room.ownerId, owner.userId);
  t.false(room.hasPassword);
  t.is(created.headers.get('location'), `/api/rooms/${room.id}`);

  const read = await bed.call<{ access: string; room: RoomInfo; me: { isOwner: boolean; role: string } }>('GET', `/api/rooms/${room.id}`, undefined, owner.token);
  t.is(read.status, 200);
  t.is(read.body.access, 'member');
  t.true(read.body.me.isOwner);
  t.is(read.body.me.role, 'admin');

  // Someone else sees the preview only.
  const preview = await bed.call<{ access: string; room: { memberCount: number } }>('GET', `/api/rooms/${room.id}`, undefined, other.token);
  t.is(preview.status, 200);
  t.is(preview.body.access, 'visitor');
  t.is(preview.body.room.memberCount, 1);
});

test.serial('create refuses bad input by field, guests, anonymous callers, and switched-off creation', async (t) => {
  const bad = await bed.call<{ code: string; issues: Array<{ key: string }> }>('POST', '/api/rooms', { name: 'x', visibility: 'secret', colour: 'red' }, owner.token);
  t.is(bad.status, 400);
  t.is(bad.body.code, 'invalid_argument');
  const keys = bad.body.issues.map((issue) => issue.key);
  t.true(keys.includes('visibility'));
  t.true(keys.includes('colour'));

  const blank = await bed.call<{ issues: Array<{ key: string }> }>('POST', '/api/rooms', { name: '   ' }, owner.token);
  t.is(blank.status, 400);
  t.deepEqual(blank.body.issues.map((issue) => issue.key), ['name']);

  const guest = await bed.guest();
  t.is((await bed.call('POST', '/api/rooms', { name: 'guest room' }, guest.token)).status, 403);
  t.is((await bed.call('POST', '/api/rooms', { name: 'anon room' })).status, 401);

  const mine = await bed.call<{ rooms: unknown[] }>('GET', '/api/me/rooms', undefined, other.token);
  await bed.set('room', { disableCreateRoom: true });
  try {
    const off = await bed.call<{ code: string; message: string }>('POST', '/api/rooms', { name: 'not now' }, other.token);
    t.is(off.status, 403);
    t.regex(off.body.message, /room\.disableCreateRoom/);
  } finally {
    await bed.set('room', { disableCreateRoom: false });
  }
  // Nothing was written by any refused request.
  const after = await bed.call<{ rooms: unknown[] }>('GET', '/api/me/rooms', undefined, other.token);
  t.is(after.body.rooms.length, mine.body.rooms.length);
});

test('a retried create with the same Idempotency-Key makes one room; another key makes another', async (t) => {
  const maker = await bed.signUp('retry');
  const headers = { 'idempotency-key': 'create-1' };
  const first = await bed.call<{ room: RoomInfo }>('POST', '/api/rooms', { name: 'Once' }, maker.token, headers);
  const again = await bed.call<{ room: RoomInfo }>('POST', '/api/rooms', { name: 'Once' }, maker.token, headers);
  t.is(first.status, 201);
  t.is(again.status, 201);
  t.is(again.body.room.id, first.body.room.id);
  const different = await bed.call<{ room: RoomInfo }>('POST', '/api/rooms', { name: 'Once' }, maker.token, { 'idempotency-key': 'create-2' });
  t.not(different.body.room.id, first.body.room.id);
  // The same key from someone else is their own request.
  const theirs = await bed.call<{ room: RoomInfo }>('POST', '/api/rooms', { name: 'Once' }, other.token, headers);
  t.not(theirs.body.room.id, first.body.room.id);
  const mine = await bed.call<{ rooms: Array<{ room: RoomInfo }> }>('GET', '/api/me/rooms', undefined, maker.token);
  t.is(mine.body.rooms.length, 2);

  const badKey = await bed.call<{ issues: Array<{ key: string }> }>('POST', '/api/rooms', { name: 'x' }, maker.token, { 'idempotency-key': 'has space' });
  t.is(badKey.status, 400);
  t.is(badKey.body.issues[0]?.key, 'headers.idempotency-key');
});

test('a retried chat send with the same Idempotency-Key posts once', async (t) => {
  const room = await createRoom(owner, { name: 'Retry chat' });
  const headers = { 'idempotency-key': 'msg-1' };
  const first = await bed.call<{ message: { id: string }; duplicate: boolean }>('POST', `/api/rooms/${room.id}/chat`, { text: 'hello' }, owner.token, headers);
  const again = await bed.call<{ message: { id: string }; duplicate: boolean }>('POST', `/api/rooms/${room.id}/chat`, { text: 'hello' }, owner.token, headers);
  t.is(first.status, 201);
  t.is(again.body.message.id, first.body.message.id);
  const history = await bed.call<{ messages: unknown[] }>('GET', `/api/rooms/${room.id}/chat`, undefined, owner.token);
  t.is(history.body.messages.length, 1);
});

test('settings change through PATCH; only edit_room_settings may; bad values are named and change nothing', async (t) => {
  const room = await createRoom(owner, { name: 'Settings' });
  const changed = await bed.call<{ room: RoomInfo }>('PATCH', `/api/rooms/${room.id}`, { name: 'Renamed', password: 'secret', requireJoinApproval: true, queueMode: 'repeat_one' }, owner.token);
  t.is(changed.status, 200);
  t.is(changed.body.room.queueMode, 'repeat_one');
  t.is(changed.body.room.name, 'Renamed');
  t.true(changed.body.room.hasPassword);
  t.true(changed.body.room.requireJoinApproval);

  const bad = await bed.call<{ issues: Array<{ key: string }> }>('PATCH', `/api/rooms/${room.id}`, { name: 'Fine', readyTimeoutMs: 5 }, owner.token);
  t.is(bad.status, 400);
  t.deepEqual(bad.body.issues.map((issue) => issue.key), ['readyTimeoutMs']);
  const badMode = await bed.call<{ issues: Array<{ key: string }> }>('PATCH', `/api/rooms/${room.id}`, { queueMode: 'loop' }, owner.token);
  t.is(badMode.status, 400);
  t.deepEqual(badMode.body.issues.map((issue) => issue.key), ['queueMode']);
  const actorBad = await bed.call<{ issues: Array<{ key: string }> }>('PATCH', `/api/rooms/${room.id}`, { name: '\u202e', visibility: 'hidden' }, owner.token);
  t.is(actorBad.status, 400);
  t.is(actorBad.body.issues[0]?.key, 'name');
  const read = await bed.call<{ room: RoomInfo }>('GET', `/api/rooms/${room.id}`, undefined, owner.token);
  t.is(read.body.room.name, 'Renamed');
  t.is(read.body.room.visibility, 'public');
  t.is(read.body.room.queueMode, 'repeat_one', 'refused changes left the mode as it was');

  const outsider = await bed.call('PATCH', `/api/rooms/${room.id}`, { name: 'Mine now' }, other.token);
  t.is(outsider.status, 403);
  const missing = await bed.call<{ code: string }>('PATCH', '/api/rooms/nosuchroom', { name: 'x' }, owner.token);
  t.is(missing.status, 404);
  t.is(missing.body.code, 'not_found');
});

test('join with the password, leave, rejoin; wrong or missing password is refused', async (t) => {
  const room = await createRoom(owner, { name: 'Locked', password: 'open sesame' });
  const missing = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${room.id}/join`, undefined, other.token);
  t.is(missing.status, 400);
  t.is(missing.body.issues[0]?.key, 'password');
  const wrong = await bed.call('POST', `/api/rooms/${room.id}/join`, { password: 'nope' }, other.token);
  t.is(wrong.status, 403);

  const joined = await bed.call<{ status: string; member: { userId: string; role: string } }>('POST', `/api/rooms/${room.id}/join`, { password: 'open sesame' }, other.token);
  t.is(joined.status, 200);
  t.is(joined.body.status, 'active');
  t.is(joined.body.member.role, 'member');
  t.is((await bed.call<{ access: string }>('GET', `/api/rooms/${room.id}`, undefined, other.token)).body.access, 'member');

  const left = await bed.call<{ left: boolean }>('POST', `/api/rooms/${room.id}/leave`, undefined, other.token);
  t.true(left.body.left);
  const twice = await bed.call<{ left: boolean }>('POST', `/api/rooms/${room.id}/leave`, undefined, other.token);
  t.false(twice.body.left);
  const ownerLeaves = await bed.call('POST', `/api/rooms/${room.id}/leave`, undefined, owner.token);
  t.is(ownerLeaves.status, 403);
  t.is((await bed.call('POST', '/api/rooms/nosuchroom/join', {}, other.token)).status, 404);
});

test('ownership goes to an active member; the old owner stays admin; only the owner may hand it over', async (t) => {
  const room = await createRoom(owner, { name: 'Handover' });
  const heir = await bed.signUp('heir');
  const notMember = await bed.call('PUT', `/api/rooms/${room.id}/owner`, { userId: heir.userId }, owner.token);
  t.is(notMember.status, 404);
  await bed.call('POST', `/api/rooms/${room.id}/join`, {}, heir.token);
  t.is((await bed.call('PUT', `/api/rooms/${room.id}/owner`, { userId: heir.userId }, heir.token)).status, 403);

  const moved = await bed.call<{ room: RoomInfo }>('PUT', `/api/rooms/${room.id}/owner`, { userId: heir.userId }, owner.token);
  t.is(moved.status, 200);
  t.is(moved.body.room.ownerId, heir.userId);
  const formerOwner = await bed.call<{ me: { role: string; isOwner: boolean } }>('GET', `/api/rooms/${room.id}`, undefined, owner.token);
  t.is(formerOwner.body.me.role, 'admin');
  t.false(formerOwner.body.me.isOwner);
  t.is((await bed.call('PUT', `/api/rooms/${room.id}/owner`, {}, heir.token)).status, 400);
});

test('only the owner deletes; afterwards the room is gone for everyone', async (t) => {
  const room = await createRoom(owner, { name: 'Short lived' });
  await bed.call('POST', `/api/rooms/${room.id}/join`, {}, other.token);
  t.is((await bed.call('DELETE', `/api/rooms/${room.id}`, undefined, other.token)).status, 403);
  const deleted = await bed.call('DELETE', `/api/rooms/${room.id}`, undefined, owner.token);
  t.is(deleted.status, 204);
  t.is((await bed.call('GET', `/api/rooms/${room.id}`, undefined, owner.token)).status, 404);
  t.is((await bed.call('DELETE', `/api/rooms/${room.id}`, undefined, owner.token)).status, 404);
});

test('the directory lists active public rooms newest first, searched by word prefixes, paged by cursor without gaps or repeats', async (t) => {
  const lister = await bed.signUp('lister');
  const tag = `zq${Date.now().toString(36)}`;
  const created: RoomInfo[] = [];
  for (let i = 0; i < 7; i++) created.push(await createRoom(lister, { name: `${tag} Film ${i}` }));
  const hidden = await createRoom(lister, { name: `${tag} Secret`, visibility: 'hidden' });
  await bed.call('POST', `/api/rooms/${created[0]!.id}/join`, {}, other.token);

  const seen: Array<{ id: string; memberCount: number }> = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const query = `/api/rooms?query=${encodeURIComponent(tag.toUpperCase())}&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
    const page = await bed.call<{ rooms: Array<{ id: string; memberCount: number }>; nextCursor?: string }>('GET', query, undefined, other.token);
    t.is(page.status, 200);
    t.true(page.body.rooms.length <= 3);
    seen.push(...page.body.rooms);
    cursor = page.body.nextCursor;
    pages++;
  } while (cursor && pages < 10);
  // Newest first; rooms created within the same millisecond by id, bytewise.
  const expected = [...created].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  t.deepEqual(seen.map((room) => room.id), expected.map((room) => room.id));
  t.false(seen.some((room) => room.id === hidden.id));
  t.is(seen.find((room) => room.id === created[0]!.id)?.memberCount, 2);

  // Two words narrow it; a word that is only a prefix of a name word still matches.
  const narrowed = await bed.call<{ rooms: Array<{ id: string }> }>('GET', `/api/rooms?query=${tag}+fil+3`, undefined, other.token);
  t.deepEqual(narrowed.body.rooms.map((room) => room.id), [created[3]!.id]);
  const none = await bed.call<{ rooms: unknown[]; nextCursor?: string }>('GET', `/api/rooms?query=${tag}+nothinglikethis`, undefined, other.token);
  t.deepEqual(none.body, { rooms: [] });

  // A guest may browse; nobody anonymous.
  const guest = await bed.guest();
  t.is((await bed.call('GET', `/api/rooms?query=${tag}`, undefined, guest.token)).status, 200);
  t.is((await bed.call('GET', '/api/rooms')).status, 401);

  // Forged cursors and limits out of range are named.
  for (const bad of ['cursor=abc', `cursor=${Buffer.from('["2026-02-30T00:00:00.000000Z","x"]').toString('base64url')}`, 'limit=0', 'limit=101', 'sort=name']) {
    const answer = await bed.call<{ code: string; issues: Array<{ key: string }> }>('GET', `/api/rooms?${bad}`, undefined, other.token);
    t.is(answer.status, 400, bad);
    t.is(answer.body.issues[0]?.key, bad.split('=')[0], bad);
  }
});

test('a room hidden later leaves the directory; my rooms shows owned and joined rooms with my role', async (t) => {
  const me = await bed.signUp('mine');
  const owned = await createRoom(me, { name: 'Owned by me' });
  const theirs = await createRoom(other, { name: 'Theirs' });
  await bed.call('POST', `/api/rooms/${theirs.id}/join`, {}, me.token);
  const notJoined = await createRoom(other, { name: 'Not joined' });

  const mine = await bed.call<{ rooms: Array<{ room: { id: string }; role: string; isOwner: boolean }> }>('GET', '/api/me/rooms', undefined, me.token);
  t.deepEqual(
    mine.body.rooms.map((entry) => [entry.room.id, entry.role, entry.isOwner]),
    [
      [theirs.id, 'member', false],
      [owned.id, 'admin', true],
    ],
  );
  t.false(mine.body.rooms.some((entry) => entry.room.id === notJoined.id));

  await bed.call('PATCH', `/api/rooms/${theirs.id}`, { visibility: 'hidden' }, other.token);
  const listed = await bed.call<{ rooms: Array<{ id: string }> }>('GET', '/api/rooms?query=Theirs', undefined, me.token);
  t.false(listed.body.rooms.some((room) => room.id === theirs.id));

  // A guest's own rooms are the ones it joined.
  const guest = await bed.guest('Visitor');
  await bed.call('POST', `/api/rooms/${owned.id}/join`, {}, guest.token);
  const guestRooms = await bed.call<{ rooms: Array<{ room: { id: string }; role: string }> }>('GET', '/api/me/rooms', undefined, guest.token);
  t.deepEqual(guestRooms.body.rooms.map((entry) => [entry.room.id, entry.role]), [[owned.id, 'guest']]);
});

test.serial('a room under review is listed for its owner only and not in the directory', async (t) => {
  const author = await bed.signUp('review');
  await bed.set('room', { createRoomNeedReview: true });
  let room: RoomInfo;
  try {
    room = await createRoom(author, { name: 'Awaiting review' });
  } finally {
    await bed.set('room', { createRoomNeedReview: false });
  }
  t.is(room.status, 'pending_review');
  const mine = await bed.call<{ rooms: Array<{ room: { id: string; status: string } }> }>('GET', '/api/me/rooms', undefined, author.token);
  t.deepEqual(mine.body.rooms.map((entry) => [entry.room.id, entry.room.status]), [[room.id, 'pending_review']]);
  const listed = await bed.call<{ rooms: Array<{ id: string }> }>('GET', '/api/rooms?query=Awaiting', undefined, other.token);
  t.false(listed.body.rooms.some((entry) => entry.id === room.id));
  t.is((await bed.call('GET', `/api/rooms/${room.id}`, undefined, other.token)).status, 404);
});
