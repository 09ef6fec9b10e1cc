/**
 * Replies, the author's edit and delete window, and mentions that notify
 * (docs/2026-11-26-chat-replies-edits-mentions.md).
 */
import test from 'ava';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import { RoomTestBed, TestClock, addMember, rejects, uid, user, type TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_chat_threads');
});

test.after.always(async () => {
  await bed?.close();
});

/** An account (notifications go to accounts only) as a caller named `name`. */
async function account(name: string): Promise<Caller> {
  const key = uid(name.toLowerCase());
  const { rows } = await bed.pool.query<{ id: string }>(
    'INSERT INTO users (username, username_key, display_name) VALUES ($1, $1, $2) RETURNING id::text',
    [key, name],
  );
  return user(rows[0]!.id, name);
}

/** A room on a clock of its own, so a test can move past the edit window without sleeping. */
async function roomWithClock(owner: Caller): Promise<{ room: TestRoom; clock: TestClock }> {
  const clock = new TestClock();
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Threads', visibility: 'public' });
  return { room, clock };
}

async function mentionNotes(userId: string): Promise<Array<Record<string, unknown>>> {
  const { rows } = await bed.pool.query<{ payload: Record<string, unknown> }>(
    "SELECT payload FROM notifications WHERE user_id = $1 AND kind = 'chat.mention' ORDER BY id",
    [userId],
  );
  return rows.map((row) => row.payload);
}

test('a reply keeps what it answers, with an excerpt; history shows it; a deleted original shows as deleted', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const bob = user(uid('bob'), 'Bob');
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  const long = `${'🎬'.repeat(ROOM_LIMITS.chatReplyExcerptChars)} and more`;
  const { message: original } = await room.send(alice, { kind: 'chat.send', text: long });
  const { message: reply } = await room.send(bob, { kind: 'chat.send', text: 'agreed', replyTo: original.id });
  t.deepEqual(reply.replyTo, { id: original.id, deleted: false, userId: alice.userId, name: 'Alice', excerpt: `${'🎬'.repeat(ROOM_LIMITS.chatReplyExcerptChars)}…` });
  t.deepEqual(room.lastEvent('chat.message'), { type: 'chat.message', message: reply });
  const history = await room.send(alice, { kind: 'chat.history' });
  t.deepEqual(history.messages[0], reply, 'history carries the same quote');

  await room.send(alice, { kind: 'chat.delete', messageId: original.id });
  const after = await room.send(bob, { kind: 'chat.history' });
  t.deepEqual(after.messages.map((m) => m.replyTo), [{ id: original.id, deleted: true, userId: '', name: '', excerpt: '' }]);
});

test('a reply to a deleted, unknown or other room\'s message is refused as not_found naming replyTo, and nothing is stored', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const room = await bed.createRoom(alice);
  const { message: gone } = await room.send(alice, { kind: 'chat.send', text: 'soon gone' });
  await room.send(alice, { kind: 'chat.delete', messageId: gone.id });
  const other = await bed.createRoom(alice);
  const { message: elsewhere } = await other.send(alice, { kind: 'chat.send', text: 'elsewhere' });
  for (const replyTo of [gone.id, elsewhere.id, '9223372036854775807']) {
    await rejects(t, room.send(alice, { kind: 'chat.send', text: 'hm', replyTo }), 'not_found', /^replyTo: /);
  }
  const err = await rejects(t, room.sendRaw(alice, { kind: 'chat.send', text: 'hm', replyTo: 'abc' }), 'invalid_argument');
  t.deepEqual(err.issues.map((issue) => issue.key), ['replyTo']);
  t.deepEqual((await room.send(alice, { kind: 'chat.history' })).messages, []);
});

test('the author edits within the window: stored, published with editedAt, quotes follow; others and late edits are refused', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const bob = user(uid('bob'), 'Bob');
  const { room, clock } = await roomWithClock(alice);
  await addMember(room, bob);
  const { message } = await room.send(bob, { kind: 'chat.send', text: 'teh scene' });
  const { message: reply } = await room.send(alice, { kind: 'chat.send', text: 'which?', replyTo: message.id });
  t.is(reply.replyTo?.excerpt, 'teh scene');

  clock.advance(60_000);
  const { message: edited } = await room.send(bob, { kind: 'chat.edit', messageId: message.id, text: '  the scene  ' });
  t.like(edited, { id: message.id, text: 'the scene', editedAt: clock.ms, createdAt: message.createdAt });
  t.deepEqual(room.lastEvent('chat.edited'), { type: 'chat.edited', message: edited });
  const history = await room.send(alice, { kind: 'chat.history' });
  t.deepEqual(history.messages.map((m) => [m.text, m.replyTo?.excerpt]), [['which?', 'the scene'], ['the scene', undefined]]);

  await rejects(t, room.send(alice, { kind: 'chat.edit', messageId: message.id, text: 'mine now' }), 'forbidden', /only its author/);
  const invalid = await rejects(t, room.send(bob, { kind: 'chat.edit', messageId: message.id, text: '   ' }), 'invalid_argument');
  t.is(invalid.issues[0]?.key, 'text');
  await rejects(t, room.send(bob, { kind: 'chat.edit', messageId: '9223372036854775807', text: 'x' }), 'not_found');

  clock.advance(ROOM_LIMITS.chatEditWindowMs);
  await rejects(t, room.send(bob, { kind: 'chat.edit', messageId: message.id, text: 'too late' }), 'conflict', /can be edited by their author for 15 minutes after sending/);
  t.is((await room.send(alice, { kind: 'chat.history' })).messages[1]?.text, 'the scene', 'a refused edit writes nothing');
  t.is(room.events('chat.edited').length, 1);
});

test("the author's own delete has the same window; delete_chat deletes any message any time", async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const bob = user(uid('bob'), 'Bob');
  const { room, clock } = await roomWithClock(alice);
  await addMember(room, bob);
  const { message: early } = await room.send(bob, { kind: 'chat.send', text: 'take back' });
  const { message: late } = await room.send(bob, { kind: 'chat.send', text: 'said long ago' });
  const { message: owners } = await room.send(alice, { kind: 'chat.send', text: 'the owner speaks' });
  clock.advance(ROOM_LIMITS.chatEditWindowMs);
  await t.notThrowsAsync(room.send(bob, { kind: 'chat.delete', messageId: early.id }), 'exactly at the window: still the author\'s');
  clock.advance(1);
  await rejects(t, room.send(bob, { kind: 'chat.delete', messageId: late.id }), 'conflict', /can be deleted by their author for 15 minutes after sending/);
  // A moderator: someone else's, and their own, long after.
  await room.send(alice, { kind: 'chat.delete', messageId: late.id });
  await room.send(alice, { kind: 'chat.delete', messageId: owners.id });
  t.deepEqual((await room.send(alice, { kind: 'chat.history' })).messages, []);
});

test('mentions: members by their shown name, never the sender nor non-members, capped; each mentioned account is notified', async (t) => {
  const alice = await account('Alice');
  const bob = await account('Bob Stone');
  const carol = await account('Carol');
  const stranger = await account('Dave');
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  await addMember(room, carol);
  const guest: Caller = { userId: `guest:${uid('g')}`, name: 'Gus', guest: true };
  await addMember(room, guest);

  const text = '@bob stone look! @Dave @Alice and @Gus, mail carol@example.com, @Carol';
  const { message } = await room.send(alice, { kind: 'chat.send', text });
  t.deepEqual(message.mentions, [bob.userId, guest.userId, carol.userId], 'in order; the sender, a non-member and an e-mail address are not mentions');
  t.deepEqual((await room.send(bob, { kind: 'chat.history' })).messages[0]?.mentions, message.mentions);

  const expected = { kind: 'chat.mention', roomId: room.id, roomName: 'Movie night', messageId: message.id, by: 'Alice', excerpt: text };
  t.deepEqual(await mentionNotes(bob.userId), [expected]);
  t.deepEqual(await mentionNotes(carol.userId), [expected]);
  t.deepEqual(await mentionNotes(stranger.userId), []);
  t.deepEqual(await mentionNotes(alice.userId), []);

  // An edit notifies only those it newly mentions.
  await room.send(alice, { kind: 'chat.edit', messageId: message.id, text: '@Carol only, and @Bob Stone' });
  t.is((await mentionNotes(bob.userId)).length, 1);
  t.is((await mentionNotes(carol.userId)).length, 1);
  t.deepEqual(room.lastEvent('chat.edited')?.message.mentions, [carol.userId, bob.userId]);
});

test(`at most ${ROOM_LIMITS.chatMentionsMax} members are mentioned by one message`, async (t) => {
  const owner = user(uid('owner'), 'Owner');
  const room = await bed.createRoom(owner);
  const members: Caller[] = [];
  for (let i = 0; i < ROOM_LIMITS.chatMentionsMax + 2; i += 1) {
    const member = user(uid('m'), `Fan${i}`);
    await addMember(room, member);
    members.push(member);
  }
  const text = members.map((m) => `@${m.name}`).join(' ');
  const { message } = await room.send(owner, { kind: 'chat.send', text });
  t.deepEqual(message.mentions, members.slice(0, ROOM_LIMITS.chatMentionsMax).map((m) => m.userId));
});
