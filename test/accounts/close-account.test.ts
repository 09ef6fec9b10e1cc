/**
 * Closing one's own account over HTTP against a whole service
 * (docs/2026-11-26-profiles-and-accounts.md): owned rooms go to a room admin or are deleted,
 * memberships end, chat stays as "Former member", the account's own rows are gone, its tokens
 * stop at once, the username is never given out again, and a root account cannot close itself.
 */
import test from 'ava';
import sharp from 'sharp';
import { createPool } from '../../store/pool.js';
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
