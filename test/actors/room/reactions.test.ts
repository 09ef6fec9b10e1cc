/**
 * Reactions: on chat messages (stored with the message, one per member per reaction) and over
 * the video (published to the members, never stored).
 */
import test from 'ava';
import { REACTIONS } from '../../../contracts/room/reactions.js';
import { RoomTestBed, addMember, rejects, uid, user } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_reactions');
});

test.after.always(async () => {
  await bed?.close();
});

test('one reaction per member per message and name: counts and who, stored, published, taken back', async (t) => {
  const alice = user(uid('alice'), 'Alice');
  const bob = user(uid('bob'), 'Bob');
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  const { message } = await room.send(alice, { kind: 'chat.send', text: 'nice scene' });
  t.deepEqual(message.reactions, []);

  await room.send(bob, { kind: 'chat.react', messageId: message.id, reaction: 'laugh' });
  const again = await room.send(bob, { kind: 'chat.react', messageId: message.id, reaction: 'laugh' });
  t.deepEqual(again.reactions, [{ reaction: 'laugh', userIds: [bob.userId] }], 'twice is once');
  t.is(room.events('chat.reactions').length, 1, 'nothing changed, nothing published the second time');

  await room.send(alice, { kind: 'chat.react', messageId: message.id, reaction: 'laugh' });
  const after = await room.send(alice, { kind: 'chat.react', messageId: message.id, reaction: 'thumbs_up' });
  // In the order of the reaction set, members earliest first.
  t.deepEqual(after.reactions, [
    { reaction: 'thumbs_up', userIds: [alice.userId] },
    { reaction: 'laugh', userIds: [bob.userId, alice.userId] },
  ]);
  t.deepEqual(room.lastEvent('chat.reactions'), { type: 'chat.reactions', messageId: message.id, reactions: after.reactions, by: alice.userId });

  // History and pins carry them.
  const { messages } = await room.send(alice, { kind: 'chat.history' });
  t.deepEqual(messages[0]?.reactions, after.reactions);
  const pinned = await room.send(alice, { kind: 'chat.pin', messageId: message.id });
  t.deepEqual(pinned.message.reactions, after.reactions);

  const removed = await room.send(bob, { kind: 'chat.unreact', messageId: message.id, reaction: 'laugh' });
  t.deepEqual(removed.reactions, [
    { reaction: 'thumbs_up', userIds: [alice.userId] },
    { reaction: 'laugh', userIds: [alice.userId] },
  ]);
  const before = room.events('chat.reactions').length;
  await room.send(bob, { kind: 'chat.unreact', messageId: message.id, reaction: 'laugh' });
  t.is(room.events('chat.reactions').length, before, 'taking back what was not given changes nothing');

  // Deleting the message takes its reactions with it.
  await room.send(alice, { kind: 'chat.delete', messageId: message.id });
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_reactions WHERE message_id = $1', [message.id]);
  t.is(rows[0]?.n, 0);
});

test('a reaction names one of the fixed set and a message of this room', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  const { message } = await room.send(alice, { kind: 'chat.send', text: 'hi' });
  for (const reaction of ['smile', '👍', '', 'HEART']) {
    const err = await rejects(t, room.sendRaw(alice, { kind: 'chat.react', messageId: message.id, reaction }), 'invalid_argument');
    t.is(err.issues[0]?.key, 'reaction', reaction);
    await rejects(t, room.sendRaw(alice, { kind: 'reaction.send', reaction }), 'invalid_argument', /reaction/);
  }
  for (const reaction of REACTIONS) await room.send(alice, { kind: 'chat.react', messageId: message.id, reaction });
  const other = await bed.createRoom(alice);
  await rejects(t, other.send(alice, { kind: 'chat.react', messageId: message.id, reaction: 'heart' }), 'not_found', /not in this room's chat/);
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_reactions WHERE message_id = $1', [message.id]);
  t.is(rows[0]?.n, REACTIONS.length, 'bad input wrote nothing');
});

test('a video reaction is published with its sender, is not a chat message, and needs membership', async (t) => {
  const alice = user(uid('alice'));
  const bob = user(uid('bob'));
  const room = await bed.createRoom(alice);
  await addMember(room, bob);
  t.deepEqual(await room.send(bob, { kind: 'reaction.send', reaction: 'clap' }), { sent: true });
  t.deepEqual(room.lastEvent('reaction'), { type: 'reaction', userId: bob.userId, reaction: 'clap' });
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_messages WHERE room_id = $1', [room.id]);
  t.is(rows[0]?.n, 0, 'not a chat message');
  const stranger = user(uid('stranger'));
  await rejects(t, room.send(stranger, { kind: 'reaction.send', reaction: 'clap' }), 'forbidden');
});
