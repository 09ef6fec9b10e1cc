/**
 * Replies, edits and mentions through the gateways: gRPC and HTTP answer what the room holds,
 * errors name the field, and a WebSocket member sees the edit and their mention live.
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import type { ChatMessage } from '../../contracts/room/model.js';
import type { RealtimeClient } from '../harness/ws-client.js';
import { actorSide, chatMessageMessage, plain } from './grpc/parity.js';
import { refused, startGrpcBed, type GrpcBed } from './grpc/fixtures.js';
import { open } from './ws/fixtures.js';
import { waitFor } from '../fixtures/deadline.js';

let g: GrpcBed;
let actors: Awaited<ReturnType<typeof actorSide>>;
const sockets: RealtimeClient[] = [];
test.before(async () => {
  g = await startGrpcBed('gateway_chat_threads');
  actors = await actorSide(g.bed);
});
test.after.always(async () => {
  await Promise.all(sockets.map((socket) => socket.close().catch(() => undefined)));
  await actors?.close();
  await g?.close();
});

async function party(prefix: string) {
  const owner = await g.user(prefix);
  const friend = await g.user('friend');
  const { room } = await owner.as.rooms.CreateRoom({ name: `${prefix} room`, visibility: 'ROOM_VISIBILITY_HIDDEN' });
  const roomId = room!.id;
  await friend.as.rooms.JoinRoom({ roomId });
  const history = async () => (await actors.rooms.send(roomId, { kind: 'chat.history' }, actors.callerOf(owner.member))).result.messages;
  return { owner, friend, roomId, history };
}

test('gRPC: a reply with its quote, an edit by its author, history as the room holds it; refusals name what is wrong', async (t) => {
  const { owner, friend, roomId, history } = await party('grpc');
  const original = (await owner.as.chat.Send({ roomId, text: 'which film tonight?' })).message!;
  const reply = (await friend.as.chat.Send({ roomId, text: `@${owner.member.username} the bunny one`, replyTo: original.id })).message!;
  t.like(reply, { replyTo: { id: original.id, deleted: false, userId: owner.member.userId, excerpt: 'which film tonight?' }, mentions: [owner.member.userId] });

  const edited = (await friend.as.chat.Edit({ roomId, messageId: reply.id, text: 'the bunny one, surely' })).message!;
  t.like(edited, { id: reply.id, text: 'the bunny one, surely', mentions: [] });
  t.true(Number(edited.editedAt) >= Number(reply.createdAt));
  t.deepEqual(plain((await owner.as.chat.History({ roomId })).messages), (await history()).map(chatMessageMessage));

  await refused(t, owner.as.chat.Edit({ roomId, messageId: reply.id, text: 'not yours' }), 'forbidden', grpc.status.PERMISSION_DENIED);
  const missing = await refused(t, owner.as.chat.Send({ roomId, text: 'to nothing', replyTo: '9223372036854775807' }), 'not_found', grpc.status.NOT_FOUND);
  t.regex(missing.message, /^replyTo: /);
  t.is((await refused(t, friend.as.chat.Edit({ roomId, messageId: reply.id, text: ' ' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'text');
});

test('HTTP: POST with replyTo and PATCH of one\'s own message answer the room\'s message; errors in the documented shape', async (t) => {
  const { owner, friend, roomId, history } = await party('http');
  const sent = await g.bed.call<{ message: ChatMessage }>('POST', `/api/rooms/${roomId}/chat`, { text: 'first' }, owner.member.token);
  t.is(sent.status, 201);
  const reply = await g.bed.call<{ message: ChatMessage }>('POST', `/api/rooms/${roomId}/chat`, { text: 'second', replyTo: sent.body.message.id }, friend.member.token);
  t.is(reply.status, 201);
  t.like(reply.body.message.replyTo, { id: sent.body.message.id, excerpt: 'first', deleted: false });

  const patched = await g.bed.call<{ message: ChatMessage }>('PATCH', `/api/rooms/${roomId}/chat/${reply.body.message.id}`, { text: 'second, edited' }, friend.member.token);
  t.is(patched.status, 200, JSON.stringify(patched.body));
  t.deepEqual(patched.body.message, (await history())[0]);
  t.is(typeof patched.body.message.editedAt, 'number');

  const forbidden = await g.bed.call('PATCH', `/api/rooms/${roomId}/chat/${sent.body.message.id}`, { text: 'mine now' }, friend.member.token);
  t.like(forbidden, { status: 403, body: { status: 403, code: 'forbidden' } });
  t.is(typeof forbidden.body.requestId, 'string');
  const unknown = await g.bed.call('POST', `/api/rooms/${roomId}/chat`, { text: 'x', replyTo: '9223372036854775807' }, owner.member.token);
  t.like(unknown, { status: 404, body: { code: 'not_found' } });
  t.regex(String(unknown.body.message), /^replyTo: /);
  const bad = await g.bed.call('POST', `/api/rooms/${roomId}/chat`, { text: 'x', replyTo: 'abc' }, owner.member.token);
  t.like(bad, { status: 400, body: { code: 'invalid_argument' } });
  t.regex(String(bad.body.message), /replyTo/);
  t.is((await history()).length, 2, 'refused commands wrote nothing');
});

test('WebSocket: a member sees chat.edited live, and a mention arrives as a notification on their socket', async (t) => {
  const { owner, friend, roomId } = await party('ws');
  const socket = await open(g.bed, roomId, friend.member);
  sockets.push(socket);
  const { message } = await owner.as.chat.Send({ roomId, text: 'hello' });
  const edited = (await owner.as.chat.Edit({ roomId, messageId: message!.id, text: `hello @${friend.member.username}` })).message!;
  const event = await socket.waitForEvent((e) => e.event.type === 'chat.edited');
  t.like(event.event, { type: 'chat.edited', message: { id: edited.id, text: edited.text, mentions: [friend.member.userId] } });
  const note = await waitFor('the mention notification', () => socket.notifications.find((n) => n.kind === 'chat.mention'));
  t.like(note, { kind: 'chat.mention', roomId, messageId: edited.id, by: owner.member.username, excerpt: edited.text });
  // Through a socket too: the command is the same one.
  const answer = await socket.command({ kind: 'chat.edit', messageId: message!.id, text: 'not mine' }).catch((err: unknown) => err);
  t.like(answer, { code: 'forbidden' });
});
