import test from 'ava';
import { ROOM_LIMITS } from '../../../actors/room/index.js';
import { RoomTestBed, addMember, rejects, uid, user } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_chat');
});

test.after.always(async () => {
  await bed?.close();
});

test('a message is committed before it is acknowledged, then published', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const room = await bed.createRoom(alice);
  const { message, duplicate } = await room.send(alice, { kind: 'chat.send', text: '  hello\r\nworld\t!  ' });
  t.false(duplicate);
  t.like(message, { userId: alice.userId, name: 'Alice', text: 'hello\nworld\t!', pinned: false });
  t.regex(message.id, /^\d+$/);
  const { rows } = await bed.pool.query('SELECT text, user_id FROM chat_messages WHERE id = $1', [message.id]);
  t.deepEqual(rows, [{ text: 'hello\nworld\t!', user_id: alice.userId }]);
  t.deepEqual(room.lastEvent('chat.message'), { type: 'chat.message', message });
});

test('chat text: 1..2000 characters after trimming, no control characters but newline and tab', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  const max = ROOM_LIMITS.chatMaxChars;
  await t.notThrowsAsync(room.send(alice, { kind: 'chat.send', text: 'x'.repeat(max) }));
  // Characters, not UTF-16 units: 2000 emoji fit.
  await t.notThrowsAsync(room.send(alice, { kind: 'chat.send', text: '🎬'.repeat(max) }));
  for (const text of ['x'.repeat(max + 1), '', '   \n  ', 'bell\u0007', 'nul\u0000', 'c1\u0085', 'lone \ud800 surrogate']) {
    const err = await rejects(t, room.send(alice, { kind: 'chat.send', text }), 'invalid_argument');
    t.is(err.issues[0]?.key, 'text', JSON.stringify(text));
  }
});

test('a retried send with the same command id is stored once and published once', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  const first = await room.send(alice, { kind: 'chat.send', text: 'once' }, { commandId: 'cmd-1' });
  const retry = await room.send(alice, { kind: 'chat.send', text: 'once' }, { commandId: 'cmd-1' });
  t.true(retry.duplicate);
  t.deepEqual(retry.message, first.message);
  t.is(room.events('chat.message').length, 1);

  // The key is per room: the same command id elsewhere is a different message.
  const other = await bed.createRoom(alice);
  t.false((await other.send(alice, { kind: 'chat.send', text: 'once' }, { commandId: 'cmd-1' })).duplicate);

  // A retry reaching a new activation after a failover is still recognised.
  room.abandon();
  const next = await bed.activate(room.id);
  t.true((await next.send(alice, { kind: 'chat.send', text: 'once' }, { commandId: 'cmd-1' })).duplicate);
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_messages WHERE room_id = $1', [room.id]);
  t.is(rows[0]?.n, 1);
});

test("a client message id makes resends idempotent across command ids, per sender", async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  const first = await room.send(alice, { kind: 'chat.send', text: 'hi', clientMessageId: 'm-1' }, { commandId: 'a' });
  const resent = await room.send(alice, { kind: 'chat.send', text: 'hi', clientMessageId: 'm-1' }, { commandId: 'b' });
  t.is(resent.message.id, first.message.id);
  const bobs = await room.send(bob, { kind: 'chat.send', text: 'hi', clientMessageId: 'm-1' });
  t.not(bobs.message.id, first.message.id, "another sender's id of the same value is another message");
});

test('history pages newest first with a cursor', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  for (let i = 1; i <= 7; i += 1) await room.send(alice, { kind: 'chat.send', text: `m${i}` });
  const page1 = await room.send(alice, { kind: 'chat.history', limit: 3 });
  t.deepEqual(page1.messages.map((m) => m.text), ['m7', 'm6', 'm5']);
  t.is(page1.nextBefore, page1.messages[2]?.id ?? null);
  const page2 = await room.send(alice, { kind: 'chat.history', limit: 3, before: page1.nextBefore as string });
  t.deepEqual(page2.messages.map((m) => m.text), ['m4', 'm3', 'm2']);
  const page3 = await room.send(alice, { kind: 'chat.history', limit: 3, before: page2.nextBefore as string });
  t.deepEqual(page3.messages.map((m) => m.text), ['m1']);
  t.is(page3.nextBefore, null);

  const exact = await room.send(alice, { kind: 'chat.history', limit: 7 });
  t.is(exact.nextBefore, null, 'no older page when the page ends exactly at the first message');
  t.is((await room.send(alice, { kind: 'chat.history' })).messages.length, 7, `default limit ${ROOM_LIMITS.chatHistoryDefaultLimit}`);
  for (const limit of [0, ROOM_LIMITS.chatHistoryMaxLimit + 1]) {
    await rejects(t, room.send(alice, { kind: 'chat.history', limit }), 'invalid_argument', /limit/);
  }
  await rejects(t, room.sendRaw(alice, { kind: 'chat.history', before: 'abc' }), 'invalid_argument', /before/);
});

test('delete removes a message for everyone; someone else\'s needs delete_chat', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  const { message: bobs } = await room.send(bob, { kind: 'chat.send', text: 'regrettable' });
  const { message: alices } = await room.send(alice, { kind: 'chat.send', text: 'mine' });
  await rejects(t, room.send(bob, { kind: 'chat.delete', messageId: alices.id }), 'forbidden', /delete_chat/);
  await room.send(alice, { kind: 'chat.delete', messageId: bobs.id });
  t.like(room.lastEvent('chat.deleted'), { messageId: bobs.id, by: alice.userId });
  const history = await room.send(alice, { kind: 'chat.history' });
  t.deepEqual(history.messages.map((m) => m.id), [alices.id]);
  await rejects(t, room.send(alice, { kind: 'chat.delete', messageId: bobs.id }), 'not_found');

  // Ids are scoped to the room: a message of another room is not found here.
  const other = await bed.createRoom(alice);
  const { message: elsewhere } = await other.send(alice, { kind: 'chat.send', text: 'elsewhere' });
  await rejects(t, room.send(alice, { kind: 'chat.delete', messageId: elsewhere.id }), 'not_found');
});

test('message ids beyond PostgreSQL bigint are refused as invalid, naming the field', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  const { message } = await room.send(alice, { kind: 'chat.send', text: 'still here' });
  // Nineteen digits pass the pattern but only up to 9223372036854775807 fit a bigint.
  for (const id of ['9223372036854775808', '9999999999999999999']) {
    for (const command of [
      { kind: 'chat.delete', messageId: id },
      { kind: 'chat.pin', messageId: id },
      { kind: 'chat.unpin', messageId: id },
    ] as const) {
      const err = await rejects(t, room.send(alice, command), 'invalid_argument');
      t.deepEqual(err.issues.map((issue) => issue.key), ['messageId'], `${command.kind} ${id}`);
    }
    const err = await rejects(t, room.send(alice, { kind: 'chat.history', before: id }), 'invalid_argument');
    t.deepEqual(err.issues.map((issue) => issue.key), ['before'], `chat.history before ${id}`);
  }
  // The largest bigint is a well-formed id: no such message, and everything is older than it.
  await rejects(t, room.send(alice, { kind: 'chat.delete', messageId: '9223372036854775807' }), 'not_found');
  await rejects(t, room.send(alice, { kind: 'chat.pin', messageId: '9223372036854775807' }), 'not_found');
  const history = await room.send(alice, { kind: 'chat.history', before: '9223372036854775807' });
  t.deepEqual(history.messages.map((m) => m.id), [message.id]);
});

test.serial('chat.maxPinnedMessagesPerRoom holds at its boundary, and 0 allows no pins', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  const ids: string[] = [];
  for (let i = 0; i < 4; i += 1) ids.push((await room.send(alice, { kind: 'chat.send', text: `p${i}` })).message.id);
  const [a, b, c, d] = ids as [string, string, string, string];
  await bed.withSettings('chat', { maxPinnedMessagesPerRoom: 2 }, async () => {
    await room.send(alice, { kind: 'chat.pin', messageId: a });
    const pinned = await room.send(alice, { kind: 'chat.pin', messageId: b });
    t.true(pinned.message.pinned);
    t.like(room.lastEvent('chat.pinned'), { message: { id: b, pinned: true }, by: alice.userId });
    await rejects(t, room.send(alice, { kind: 'chat.pin', messageId: c }), 'limit_exceeded', /maxPinnedMessagesPerRoom = 2/);
    const events = room.ctx.events.length;
    t.true((await room.send(alice, { kind: 'chat.pin', messageId: a })).message.pinned, 'pinning a pinned message is a no-op');
    t.is(room.ctx.events.length, events);
    await room.send(alice, { kind: 'chat.unpin', messageId: a });
    t.like(room.lastEvent('chat.pinned'), { message: { id: a, pinned: false } });
    await room.send(alice, { kind: 'chat.pin', messageId: c });
    const pins = await room.send(alice, { kind: 'chat.pins' });
    t.deepEqual(pins.messages.map((m) => m.id), [c, b]);
  });
  await bed.withSettings('chat', { maxPinnedMessagesPerRoom: 0 }, async () => {
    await rejects(t, room.send(alice, { kind: 'chat.pin', messageId: d }), 'limit_exceeded');
    await t.notThrowsAsync(room.send(alice, { kind: 'chat.unpin', messageId: b }), 'unpinning is always possible');
  });
});
