/**
 * Slow mode and the word filter through the gateways: the options set over gRPC and HTTP alike,
 * the slow mode refusal carrying its wait as each transport does (gRPC RESOURCE_EXHAUSTED with
 * svc-retry-after-seconds, HTTP 429 with Retry-After, both with the issue retryAfterMs), and the
 * word list in the room view only for holders of edit_room_settings.
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { refused, startGrpcBed, type GrpcBed } from './fixtures.js';
import { actorSide, roomInfoMessage } from './parity.js';
import type { MemberRoomView } from '../../../actors/room/index.js';

let g: GrpcBed;
let actors: Awaited<ReturnType<typeof actorSide>>;
test.before(async () => {
  g = await startGrpcBed('grpc_chat_moderation');
  actors = await actorSide(g.bed);
});
test.after.always(async () => {
  await actors?.close();
  await g?.close();
});

async function room(prefix: string) {
  const owner = await g.user(prefix);
  const friend = await g.user(`${prefix}-friend`);
  const { room: info } = await owner.as.rooms.CreateRoom({
    name: `${prefix} room`,
    visibility: 'ROOM_VISIBILITY_HIDDEN',
    settings: { slowModeSeconds: 60, wordFilter: { mode: 'WORD_FILTER_MODE_MASK', words: ['Heck'] } },
  });
  await friend.as.rooms.JoinRoom({ roomId: info!.id });
  return { owner, friend, roomId: info!.id, info: info! };
}

test('gRPC: the options at creation and in UpdateRoom, the word list in the view of settings holders only', async (t) => {
  const { owner, friend, roomId, info } = await room('grpc');
  t.is(info.slowModeSeconds, 60);
  const ownerView = await owner.as.rooms.GetRoom({ roomId });
  t.deepEqual(ownerView.member!.wordFilter, { mode: 'WORD_FILTER_MODE_MASK', words: ['heck'] });
  const friendView = await friend.as.rooms.GetRoom({ roomId });
  t.is(friendView.member!.wordFilter, undefined, 'optional: absent');
  const actorView = (await actors.rooms.send(roomId, { kind: 'room.get' }, actors.callerOf(friend.member))).result as MemberRoomView;
  t.deepEqual(friendView.member!.room, roomInfoMessage(actorView.room));

  const updated = await owner.as.rooms.UpdateRoom({ roomId, slowModeSeconds: 0, wordFilter: { mode: 'WORD_FILTER_MODE_BLOCK', words: ['spoiler', '剧透'] } });
  t.is(updated.room!.slowModeSeconds, 0);
  t.deepEqual((await owner.as.rooms.GetRoom({ roomId })).member!.wordFilter, { mode: 'WORD_FILTER_MODE_BLOCK', words: ['spoiler', '剧透'] });
  const blocked = await refused(t, friend.as.chat.Send({ roomId, text: '别剧透！' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(blocked.issues[0]?.key, 'text');
  const bad = await refused(t, owner.as.rooms.UpdateRoom({ roomId, wordFilter: { mode: 'WORD_FILTER_MODE_UNSPECIFIED', words: [] } }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(bad.issues[0]?.key, 'wordFilter.mode');
  const far = await refused(t, owner.as.rooms.UpdateRoom({ roomId, slowModeSeconds: 601 }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(far.issues[0]?.key, 'slowModeSeconds');
  await refused(t, friend.as.rooms.UpdateRoom({ roomId, slowModeSeconds: 1 }), 'forbidden', grpc.status.PERMISSION_DENIED);
});

test('gRPC: slow mode refuses with RESOURCE_EXHAUSTED and the wait; the filter masks', async (t) => {
  const { friend, roomId } = await room('grpc-slow');
  t.is((await friend.as.chat.Send({ roomId, text: 'what the heck' })).message!.text, 'what the ****');
  const err = await refused(t, friend.as.chat.Send({ roomId, text: 'again' }), 'rate_limited', grpc.status.RESOURCE_EXHAUSTED);
  t.regex(err.message, /slow mode: one message every 60 s/);
  t.is(err.issues[0]?.key, 'retryAfterMs');
  t.true(Number(err.issues[0]?.message) > 0 && Number(err.issues[0]?.message) <= 60_000);
  t.true(err.retryAfterSeconds !== undefined && err.retryAfterSeconds >= 1 && err.retryAfterSeconds <= 60, String(err.retryAfterSeconds));
});

test('gRPC: deleting a message does not free its clientMessageId for a second message inside the slow mode window', async (t) => {
  const { owner, friend, roomId } = await room('grpc-resend');
  await owner.as.rooms.UpdateRoom({ roomId, wordFilter: { mode: 'WORD_FILTER_MODE_MASK', words: [] } });
  const first = await friend.as.chat.Send({ roomId, text: 'hello', clientMessageId: 'c-1' });
  t.is((await friend.as.chat.Send({ roomId, text: 'hello', clientMessageId: 'c-1' })).message!.id, first.message!.id, 'a resend while it stands');
  await friend.as.chat.Delete({ roomId, messageId: first.message!.id });
  const err = await refused(t, friend.as.chat.Send({ roomId, text: 'hello', clientMessageId: 'c-1' }), 'rate_limited', grpc.status.RESOURCE_EXHAUSTED);
  t.regex(err.message, /slow mode: one message every 60 s/);
  t.is(err.issues[0]?.key, 'retryAfterMs');
  t.true(err.retryAfterSeconds !== undefined && err.retryAfterSeconds >= 1 && err.retryAfterSeconds <= 60, String(err.retryAfterSeconds));
  t.deepEqual((await friend.as.chat.History({ roomId })).messages, []);
});

test('HTTP: the options in POST and PATCH, the list only for settings holders, slow mode as 429 with Retry-After', async (t) => {
  const owner = await g.bed.signUp('http');
  const friend = await g.bed.signUp('http-friend');
  const created = await g.bed.call<{ room: { id: string; slowModeSeconds: number } }>(
    'POST',
    '/api/rooms',
    { name: 'HTTP room', slowModeSeconds: 30, wordFilter: { mode: 'mask', words: ['heck'] } },
    owner.token,
  );
  t.is(created.status, 201, JSON.stringify(created.body));
  const roomId = created.body.room.id;
  t.is(created.body.room.slowModeSeconds, 30);
  t.is((await g.bed.call('POST', `/api/rooms/${roomId}/join`, {}, friend.token)).status, 200);
  const ownerView = await g.bed.call<{ wordFilter?: unknown }>('GET', `/api/rooms/${roomId}`, undefined, owner.token);
  t.deepEqual(ownerView.body.wordFilter, { mode: 'mask', words: ['heck'] });
  const friendView = await g.bed.call<{ wordFilter?: unknown }>('GET', `/api/rooms/${roomId}`, undefined, friend.token);
  t.false('wordFilter' in friendView.body);

  const first = await g.bed.call<{ message: { text: string } }>('POST', `/api/rooms/${roomId}/chat`, { text: 'heck yes' }, friend.token);
  t.is(first.status, 201, JSON.stringify(first.body));
  t.is(first.body.message.text, '**** yes');
  const second = await g.bed.call<{ code: string; message: string; requestId: string; issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/chat`, { text: 'more' }, friend.token);
  t.is(second.status, 429);
  t.like(second.body, { code: 'rate_limited', status: 429 });
  t.regex(second.body.requestId, /\S/);
  t.is(second.body.issues[0]?.key, 'retryAfterMs');
  const retryAfter = Number(second.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 30, String(retryAfter));

  const bad = await g.bed.call<{ issues: Array<{ key: string }> }>('PATCH', `/api/rooms/${roomId}`, { wordFilter: { mode: 'mask', words: ['ok', 'y'.repeat(51)] } }, owner.token);
  t.is(bad.status, 400);
  t.is(bad.body.issues[0]?.key, 'wordFilter.words.1');
  const patched = await g.bed.call<{ room: { slowModeSeconds: number } }>('PATCH', `/api/rooms/${roomId}`, { slowModeSeconds: 0, wordFilter: { mode: 'mask', words: [] } }, owner.token);
  t.is(patched.status, 200, JSON.stringify(patched.body));
  t.is(patched.body.room.slowModeSeconds, 0);
  const free = await g.bed.call<{ message: { text: string } }>('POST', `/api/rooms/${roomId}/chat`, { text: 'heck' }, friend.token);
  t.is(free.body.message.text, 'heck');
});
