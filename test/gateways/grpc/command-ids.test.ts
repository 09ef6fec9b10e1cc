/**
 * A room command id reaches only the caller who sent it, over gRPC and across transports: a
 * stranger who re-sends a member's `svc-command-id` (or an id shaped like the member's
 * WebSocket or HTTP command id) is answered as the stranger he is, never with the member's
 * reply, and a stranger who sends an id first does not turn the member's own command with it
 * into a repeat.
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { createHash, randomUUID } from 'node:crypto';
import { open } from '../ws/fixtures.js';
import { refused, startGrpcBed, type GrpcBed } from './fixtures.js';

let g: GrpcBed;
test.before(async () => {
  g = await startGrpcBed('grpc_command_ids');
});
test.after.always(async () => {
  await g?.close();
});

/** A hidden, password-protected room with one secret message, and a signed-in stranger. */
async function secretRoom(prefix: string) {
  const owner = await g.user(`${prefix}-owner`);
  const { room } = await owner.as.rooms.CreateRoom({ name: `${prefix} room`, visibility: 'ROOM_VISIBILITY_HIDDEN', password: 'only friends' });
  const roomId = room!.id;
  await owner.as.chat.Send({ roomId, text: 'the secret plan' });
  const stranger = await g.user(`${prefix}-stranger`);
  return { owner, stranger, roomId };
}

test("a stranger re-sending a member's svc-command-id is refused as a non-member, not answered with the member's reply", async (t) => {
  const { owner, stranger, roomId } = await secretRoom('replay');
  const commandId = `history-${randomUUID()}`;
  const history = await owner.as.chat.History({ roomId }, { commandId });
  t.deepEqual(
    history.messages.map((m) => m.text),
    ['the secret plan'],
  );

  const err = await refused(t, stranger.as.chat.History({ roomId }, { commandId }), 'forbidden', grpc.status.PERMISSION_DENIED);
  t.notRegex(err.message, /secret plan/);
  // The member's own retry is still the one command it was.
  t.deepEqual(await owner.as.chat.History({ roomId }, { commandId }), history);
});

test("a stranger sending an id first does not turn the member's own command with that id into a repeat", async (t) => {
  const { owner, stranger, roomId } = await secretRoom('preempt');
  const commandId = `send-${randomUUID()}`;
  await refused(t, stranger.as.chat.Send({ roomId, text: 'let me in' }, { commandId }), 'forbidden', grpc.status.PERMISSION_DENIED);

  const sent = await owner.as.chat.Send({ roomId, text: 'meet at nine' }, { commandId });
  t.like(sent, { duplicate: false, message: { text: 'meet at nine', userId: owner.member.userId } });
  t.deepEqual(
    (await owner.as.chat.History({ roomId })).messages.map((m) => m.text),
    ['meet at nine', 'the secret plan'],
  );
  // A retry by the member runs once: the first answer again.
  t.deepEqual(await owner.as.chat.Send({ roomId, text: 'meet at nine' }, { commandId }), sent);
});

test("a gRPC caller cannot send another transport's or another caller's command id", async (t) => {
  const { owner, stranger, roomId } = await secretRoom('shapes');
  // The owner reads the chat over a WebSocket, with frame id `read-1`.
  const socket = await open(g.bed, roomId, owner.member);
  t.teardown(() => socket.close());
  const frameId = `read-${randomUUID().slice(0, 8)}`;
  const { result } = await socket.command({ kind: 'chat.history' }, { id: frameId });
  t.is(result.messages[0]?.text, 'the secret plan');
  // The id the WebSocket gateway used to send it as.
  await refused(t, stranger.as.chat.History({ roomId }, { commandId: `ws:${owner.member.userId}:${frameId}` }), 'forbidden', grpc.status.PERMISSION_DENIED);

  // The owner posts over HTTP with an Idempotency-Key; a stranger who learns the key works out
  // the digest the HTTP gateway used to send it as.
  const key = randomUUID();
  const posted = await g.bed.call('POST', `/api/rooms/${roomId}/chat`, { text: 'bring snacks' }, owner.member.token, { 'idempotency-key': key });
  t.is(posted.status, 201, JSON.stringify(posted.body));
  const httpId = `http:${createHash('sha256').update(['sendChat', owner.member.userId, roomId, key, ''].join('\0')).digest('base64url')}`;
  await refused(t, stranger.as.chat.History({ roomId }, { commandId: httpId }), 'forbidden', grpc.status.PERMISSION_DENIED);
  await refused(t, stranger.as.chat.Send({ roomId, text: 'bring snacks' }, { commandId: httpId }), 'forbidden', grpc.status.PERMISSION_DENIED);
  // The owner's HTTP retry is still answered as the one message it was.
  const again = await g.bed.call('POST', `/api/rooms/${roomId}/chat`, { text: 'bring snacks' }, owner.member.token, { 'idempotency-key': key });
  t.deepEqual((again.body as { message: unknown }).message, (posted.body as { message: unknown }).message);
});
