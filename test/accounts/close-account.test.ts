/**
 * Closing one's own account over HTTP against a whole service
 * (docs/2026-11-26-profiles-and-accounts.md): owned rooms go to a room admin or are deleted,
 * memberships end, chat stays as "Former member", the account's own rows are gone, its tokens
 * stop at once, the username is never given out again, and a root account cannot close itself.
 */
import test from 'ava';
import sharp from 'sharp';
import { createPool } from '../../postgres/pool.js';
import { BED_PASSWORD, startGatewayBed, type GatewayBed, type Member } from '../gateways/bed.js';

let bed: GatewayBed;

test.before(async () => {
  bed = await startGatewayBed('close_account');
  await bed.set('server', { maxRoomsPerUser: 100 });
});
test.after.always(async () => {
  await bed?.close();
});

async function room(owner: Member, name: string, members: Member[] = []): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name }, owner.token);
  for (const member of members) await bed.call('POST', `/api/rooms/${created.body.room.id}/join`, {}, member.token);
  return created.body.room.id;
}

async function rowsOf(sql: string, params: unknown[]): Promise<number> {
  const pool = createPool({ url: bed.databaseUrl, max: 1 });
  try {
    return (await pool.query(sql, params)).rowCount ?? 0;
  } finally {
    await pool.end();
  }
}

interface Closed {
  closed: { roomsLeft: number; roomsTransferred: number; roomsDeleted: number; anonymisedMessages: number; revokedSessions: number };
}

test('closing an account settles its rooms, anonymises its chat, deletes its own data and ends its sessions at once', async (t) => {
  const alice = await bed.signUp('alice');
  const bob = await bed.signUp('bob');
  const carol = await bed.signUp('carol');

  // Alice owns a room with Bob (member) and Carol (room admin): Carol takes it.
  const shared = await room(alice, 'Shared', [bob, carol]);
  t.is((await bed.call('PUT', `/api/rooms/${shared}/members/${carol.userId}/role`, { role: 'admin' }, alice.token)).status, 200);
  // Alice owns a room nobody else is in: deleted.
  const lonely = await room(alice, 'Lonely');
  // Alice is a member of Bob's room, and talks there.
  const bobs = await room(bob, 'Bob\'s', [alice]);
  t.is((await bed.call('POST', `/api/rooms/${bobs}/chat`, { text: 'bye all' }, alice.token)).status, 201);
  const avatar = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#123' } }).png().toBuffer();
  t.is((await bed.call('PUT', '/api/me/avatar', { content: avatar.toString('base64') }, alice.token)).status, 200);

  // A personal media library (its connector is not the point here: the row is).
  t.is(
    await rowsOf(`INSERT INTO media_libraries (id, kind, name, url, secret_sealed, owner_user_id, created_by) VALUES ($1, 'webdav', 'Mine', 'https://dav.invalid/', '', $2::uuid, $2::text)`, [
      `lib-${alice.userId}`,
      alice.userId,
    ]),
    1,
  );

  // A slip in the confirmation or a wrong password changes nothing.
  const slip = await bed.call<{ issues: Array<{ key: string }> }>('POST', '/api/me/close', { confirmUsername: bob.username }, alice.token);
  t.is(slip.status, 400);
  t.is(slip.body.issues[0]?.key, 'confirmUsername');
  const wrong = await bed.call<{ issues: Array<{ key: string }> }>('POST', '/api/me/close', { confirmUsername: alice.username, currentPassword: 'not it at all' }, alice.token);
  t.is(wrong.status, 401);
  t.is(wrong.body.issues[0]?.key, 'currentPassword');
  t.is((await bed.call('GET', '/api/me', undefined, alice.token)).status, 200);

  const closed = await bed.call<Closed>('POST', '/api/me/close', { confirmUsername: alice.username.toUpperCase(), currentPassword: BED_PASSWORD }, alice.token);
  t.is(closed.status, 200, JSON.stringify(closed.body));
  t.deepEqual(closed.body.closed, { roomsLeft: 1, roomsTransferred: 1, roomsDeleted: 1, anonymisedMessages: 1, revokedSessions: 1 });

  // The token stops at once.
  t.is((await bed.call('GET', '/api/me', undefined, alice.token)).status, 401);
  t.is((await bed.call('GET', `/api/rooms/${bobs}`, undefined, alice.token)).status, 401);

  const sharedNow = await bed.call<{ room: { ownerId: string } }>('GET', `/api/rooms/${shared}`, undefined, carol.token);
  t.is(sharedNow.body.room.ownerId, carol.userId);
  const sharedMembers = await bed.call<{ members: Array<{ userId: string }> }>('GET', `/api/rooms/${shared}/members`, undefined, bob.token);
  t.deepEqual(sharedMembers.body.members.map((member) => member.userId).sort(), [bob.userId, carol.userId].sort());
  t.is((await bed.call('GET', `/api/rooms/${lonely}`, undefined, bob.token)).status, 404);
  const bobsMembers = await bed.call<{ members: Array<{ userId: string }> }>('GET', `/api/rooms/${bobs}/members`, undefined, bob.token);
  t.deepEqual(bobsMembers.body.members.map((member) => member.userId), [bob.userId]);
  const chat = await bed.call<{ messages: Array<{ userId: string; name: string; text: string }> }>('GET', `/api/rooms/${bobs}/chat`, undefined, bob.token);
  t.deepEqual(
    chat.body.messages.map(({ userId, name, text }) => ({ userId, name, text })),
    [{ userId: 'former-member', name: 'Former member', text: 'bye all' }],
  );

  for (const table of ['users WHERE id', 'password_credentials WHERE user_id', 'sessions WHERE user_id', 'user_avatars WHERE user_id', 'media_libraries WHERE owner_user_id']) {
    t.is(await rowsOf(`SELECT 1 FROM ${table} = $1::uuid`, [alice.userId]), 0, table);
  }
  t.is(await rowsOf('SELECT 1 FROM room_members WHERE user_id = $1', [alice.userId]), 0);
  t.is(await rowsOf('SELECT 1 FROM chat_messages WHERE user_id = $1 OR name = $2', [alice.userId, alice.username]), 0);

  // The username is retired.
  const again = await bed.call<{ code: string; issues: Array<{ key: string }> }>('POST', '/api/auth/password/register', { username: alice.username, password: BED_PASSWORD }, undefined, {
    'x-svc-client': 'native',
  });
  t.is(again.status, 409);
  t.is(again.body.issues[0]?.key, 'username');
});

test('a root account cannot close itself; an admin can', async (t) => {
  const root = await bed.admin('root', 'root');
  const refused = await bed.call<{ code: string }>('POST', '/api/me/close', { confirmUsername: root.username, currentPassword: BED_PASSWORD }, root.token);
  t.is(refused.status, 403);
  t.is((await bed.call('GET', '/api/me', undefined, root.token)).status, 200);

  const admin = await bed.admin('admin');
  t.is((await bed.call('POST', '/api/me/close', { confirmUsername: admin.username, currentPassword: BED_PASSWORD }, admin.token)).status, 200);
  t.is((await bed.call('GET', '/api/me', undefined, admin.token)).status, 401);
});

test('guests and visitors cannot close anything', async (t) => {
  const guest = await bed.guest();
  t.is((await bed.call('POST', '/api/me/close', { confirmUsername: 'x' }, guest.token)).status, 403);
  t.is((await bed.call('POST', '/api/me/close', { confirmUsername: 'x' })).status, 401);
});

interface RoomView {
  polls?: Array<{ id: string; createdBy: string; counts: number[] }>;
  queueVotes?: Array<{ mediaId: string; votes: number; voters: string[] }>;
}
interface ChatPage {
  messages: Array<{ id: string; userId: string; name: string; text: string; mentions: string[]; reactions: Array<{ reaction: string; userIds: string[] }> }>;
}

async function ok<T>(answer: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const { status: got, body } = await answer;
  if (got !== status) throw new Error(`expected ${status}, got ${got}: ${JSON.stringify(body)}`);
  return body;
}

test('closing an account forgets the person in every record the close-account table lists, and what the room shows stays coherent', async (t) => {
  const [alice, bob, carol, dave] = [await bed.signUp('falice'), await bed.signUp('fbob'), await bed.signUp('fcarol'), await bed.signUp('fdave')];
  const roomId = await room(bob, 'Forget', [alice, carol, dave]);
  await ok(bed.call('PUT', `/api/rooms/${roomId}/members/${alice.userId}/role`, { role: 'admin' }, bob.token));
  await ok(bed.call('PATCH', `/api/rooms/${roomId}`, { danmaku: true, queueMode: 'vote' }, bob.token));
  const push = async (body: Record<string, unknown>) => (await ok(bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, body, bob.token), 201)).item.id;
  const first = await push({ title: 'One', url: 'https://media.example.com/one.mp4' });
  const second = await push({ title: 'Two', url: 'https://media.example.com/two.mp4' });
  const live = await push({ title: 'Live', provider: 'live' });
  await ok(bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: first }, bob.token));

  // Chat: Alice mentions Bob (his inbox says by whom); Bob mentions Alice; three react to Bob's line.
  await ok(bed.call('POST', `/api/rooms/${roomId}/chat`, { text: `see you @${bob.username}` }, alice.token), 201);
  const bobs = (await ok(bed.call<{ message: { id: string; mentions: string[] } }>('POST', `/api/rooms/${roomId}/chat`, { text: `bye @${alice.username}` }, bob.token), 201)).message;
  t.deepEqual(bobs.mentions, [alice.userId]);
  for (const who of [alice, dave, carol]) await ok(bed.call('PUT', `/api/rooms/${roomId}/chat/${bobs.id}/reactions/thumbs_up`, undefined, who.token));
  // Danmaku, a poll Alice opened with two votes, two up-votes, Alice's stream key, a room library she connected.
  await ok(bed.call('POST', `/api/rooms/${roomId}/danmaku`, { mediaId: first, position: 0, text: 'wow' }, alice.token), 201);
  const poll = (await ok(bed.call<{ poll: { id: string } }>('POST', `/api/rooms/${roomId}/polls`, { question: 'Next?', options: ['A', 'B'] }, alice.token), 201)).poll;
  await ok(bed.call('POST', `/api/rooms/${roomId}/polls/${poll.id}/vote`, { choice: 1 }, alice.token));
  await ok(bed.call('POST', `/api/rooms/${roomId}/polls/${poll.id}/vote`, { choice: 1 }, carol.token));
  await ok(bed.call('POST', `/api/rooms/${roomId}/playlist/${second}/vote`, { vote: true }, alice.token));
  await ok(bed.call('POST', `/api/rooms/${roomId}/playlist/${second}/vote`, { vote: true }, carol.token));
  await ok(bed.call('GET', `/api/rooms/${roomId}/playlist/${live}/stream-key`, undefined, alice.token));
  const libraryId = `lib-room-${alice.userId.slice(0, 8)}`;
  await rowsOf(`INSERT INTO media_libraries (id, kind, name, url, secret_sealed, owner_room_id, created_by) VALUES ($1, 'webdav', 'Alice''s drive', 'https://dav.invalid/', '', $2, $3)`, [
    libraryId,
    roomId,
    alice.userId,
  ]);
  // What the table keeps with the room under Alice's id: an item she added, a folder, an emote.
  const hers = (await ok(bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Hers', url: 'https://media.example.com/hers.mp4' }, alice.token), 201)).item.id;
  await ok(bed.call('POST', `/api/rooms/${roomId}/playlist/folders`, { title: 'Her folder' }, alice.token), 201);
  const emote = await sharp({ create: { width: 16, height: 16, channels: 4, background: '#f80' } }).png().toBuffer();
  await ok(bed.call('PUT', `/api/rooms/${roomId}/emotes/hers`, { content: emote.toString('base64') }, alice.token));
  // Carol bans Alice from her own room; Alice's approved signup review is on record.
  const carols = await room(carol, 'Carol\'s', [alice]);
  await ok(bed.call('PUT', `/api/rooms/${carols}/bans/${alice.userId}`, undefined, carol.token));
  await rowsOf(
    `INSERT INTO registration_reviews (id, mode, username, username_key, state, payload, user_id) VALUES ($1, 'password', $2, lower($2), 'approved', '', $3::uuid)`,
    [`review-${alice.userId}`, alice.username, alice.userId],
  );
  const before = await ok(bed.call<RoomView>('GET', `/api/rooms/${roomId}`, undefined, bob.token));
  t.deepEqual(before.polls?.[0]?.counts, [0, 2]);

  for (const who of [alice, dave]) await ok(bed.call('POST', '/api/me/close', { confirmUsername: who.username, currentPassword: BED_PASSWORD }, who.token));
  const gone = [alice.userId, dave.userId];
  const isGone = (id: string) => gone.includes(id);

  // Chat: the mention of Alice is gone from Bob's line; the reactions still count three, none by a closed account.
  const chat = await ok(bed.call<ChatPage>('GET', `/api/rooms/${roomId}/chat`, undefined, bob.token));
  const bobsNow = chat.messages.find((message) => message.id === bobs.id);
  t.deepEqual(bobsNow?.mentions, []);
  const thumbs = bobsNow?.reactions.find((r) => r.reaction === 'thumbs_up')?.userIds ?? [];
  t.is(thumbs.length, 3, 'the reactions of closed accounts still count');
  t.true(thumbs.includes(carol.userId));
  t.false(thumbs.some(isGone), JSON.stringify(thumbs));
  t.is(new Set(thumbs).size, 3);
  // Bob's inbox no longer names Alice.
  const inbox = await ok(bed.call<{ notifications: Array<{ kind: string; by?: string }> }>('GET', '/api/me/notifications', undefined, bob.token));
  const mention = inbox.notifications.find((note) => note.kind === 'chat.mention');
  t.is(mention?.by, 'Former member');
  t.false(JSON.stringify(inbox).includes(alice.username));
  // Danmaku: kept, by "Former member".
  const danmaku = await ok(bed.call<{ comments: Array<{ userId: string; name: string; text: string }> }>('GET', `/api/rooms/${roomId}/danmaku/${first}`, undefined, bob.token));
  t.deepEqual(danmaku.comments.map(({ userId, name, text }) => ({ userId, name, text })), [{ userId: 'former-member', name: 'Former member', text: 'wow' }]);
  // The poll and the up-votes: the same tallies, nobody's id.
  const after = await ok(bed.call<RoomView>('GET', `/api/rooms/${roomId}`, undefined, bob.token));
  t.is(after.polls?.[0]?.createdBy, 'former-member');
  t.deepEqual(after.polls?.[0]?.counts, [0, 2], 'a closed account\'s vote still counts');
  const upvotes = after.queueVotes?.find((entry) => entry.mediaId === second);
  t.is(upvotes?.votes, 2);
  t.true(upvotes?.voters.includes(carol.userId));
  t.false(upvotes?.voters.some(isGone));
  // A room library connected with Alice's credentials is gone, and the room was told.
  t.is(await rowsOf('SELECT 1 FROM media_libraries WHERE id = $1', [libraryId]), 0);
  const notice = chat.messages.find((message) => /Alice's drive/.test(message.text));
  t.truthy(notice, 'a line in the room says the library was removed');
  t.regex(notice?.text ?? '', /removed/);
  // Kept with the room, as the table says: her item, folder and emote (ids that resolve to nobody).
  const kept = await ok(bed.call<RoomView & { playlist?: Array<{ id: string; addedBy: string }>; playlistFolders?: Array<{ title: string; createdBy: string }> }>('GET', `/api/rooms/${roomId}`, undefined, bob.token));
  t.is(kept.playlist?.find((item) => item.id === hers)?.addedBy, alice.userId);
  t.is(kept.playlistFolders?.find((folder) => folder.title === 'Her folder')?.createdBy, alice.userId);
  const emotes = await ok(bed.call<{ emotes: Array<{ name: string }> }>('GET', `/api/rooms/${roomId}/emotes`, undefined, bob.token));
  t.true(emotes.emotes.some((e) => e.name === 'hers'));
  // The ban holds (by id) but no longer names her.
  const bans = await ok(bed.call<{ members: Array<{ userId: string; name: string }> }>('GET', `/api/rooms/${carols}/bans`, undefined, carol.token));
  t.deepEqual(bans.members.map(({ userId, name }) => ({ userId, name })), [{ userId: alice.userId, name: 'Former member' }]);

  // And no other record holds either id.
  const holding: Array<[string, string]> = [
    ['chat_messages', 'user_id = $1 OR $1 = ANY(mentions)'],
    ['chat_reactions', 'user_id = $1'],
    ['danmaku', 'user_id = $1'],
    ['room_polls', 'created_by = $1'],
    ['room_poll_votes', 'user_id = $1'],
    ['room_queue_votes', 'user_id = $1'],
    ['live_stream_keys', 'created_by = $1'],
    ['media_libraries', 'created_by = $1'],
    ['registration_reviews', 'user_id::text = $1'],
    ['room_members', "user_id = $1 AND status <> 'banned'"],
  ];
  for (const [table, where] of holding) {
    for (const id of gone) t.is(await rowsOf(`SELECT 1 FROM ${table} WHERE ${where}`, [id]), 0, `${table} for ${id}`);
  }
});
