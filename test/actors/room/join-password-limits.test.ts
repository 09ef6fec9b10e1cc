/**
 * Room passwords cannot be guessed at speed (docs/2026-11-26-room-abuse.md), over HTTP and gRPC
 * against a whole service: wrong passwords are limited per room and user and per room and
 * address, answered `rate_limited` with Retry-After, the right password too while blocked,
 * with the budget shared by both transports and nobody else's joins affected.
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { ROOM_PASSWORD_LIMITS } from '../../../gateways/rooms/room-password-guesses.js';
import { uniqueIp } from '../../fixtures/client-address.js';
import type { Answer, Member } from '../../gateways/bed.js';
import { refused, startGrpcBed, type GrpcBed } from '../../gateways/grpc/fixtures.js';

const RIGHT = 'the right password';
const PER_USER = ROOM_PASSWORD_LIMITS.perRoomUser.points;
const PER_ADDRESS = ROOM_PASSWORD_LIMITS.perRoomAddress.points;

let g: GrpcBed;

test.before(async () => {
  g = await startGrpcBed('room-join-password-limits');
  await g.bed.set('server', { maxRoomsPerUser: 100 });
});
test.after.always(async () => {
  await g?.close();
});

async function passwordRoom(): Promise<string> {
  const owner = await g.bed.signUp('owner');
  const created = await g.bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Locked', password: RIGHT }, owner.token);
  if (created.status !== 201 && created.status !== 200) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.room.id;
}

/** A join over HTTP; `ip` fixes the client address (default: a new one per call). */
function join(roomId: string, who: Member, password: string, ip?: string): Promise<Answer<{ code?: string; status?: unknown }>> {
  return g.bed.call('POST', `/api/rooms/${roomId}/join`, { password }, who.token, ip ? { 'x-forwarded-for': ip } : {});
}

const statuses = (answers: Array<Answer<unknown>>) => answers.map((answer) => answer.status);

test('over HTTP, wrong passwords per room and user stop at the budget, even sent all at once; the right one waits too', async (t) => {
  const roomId = await passwordRoom();
  const otherRoom = await passwordRoom();
  const mallory = await g.bed.signUp('mallory');

  // Sent together: each is counted before the room judges it, so no more than the budget is tried.
  const burst = await Promise.all(Array.from({ length: PER_USER + 5 }, (_, i) => join(roomId, mallory, `guess ${i}`)));
  t.is(statuses(burst).filter((status) => status === 403).length, PER_USER, statuses(burst).join(','));
  t.is(statuses(burst).filter((status) => status === 429).length, 5);

  const blocked = await join(roomId, mallory, 'one more');
  t.is(blocked.status, 429);
  t.is(blocked.body.code, 'rate_limited');
  const retryAfter = Number(blocked.headers.get('retry-after'));
  t.true(retryAfter > 0 && retryAfter <= ROOM_PASSWORD_LIMITS.perRoomUser.blockSeconds, `Retry-After ${retryAfter}`);
  t.is((await join(roomId, mallory, RIGHT)).status, 429, 'the right password is refused while blocked');

  // Another user of the room, and the same user in another room, are not held back.
  const bob = await g.bed.signUp('bob');
  t.is((await join(roomId, bob, RIGHT)).status, 200);
  t.is((await join(otherRoom, mallory, 'wrong')).status, 403);
  t.is((await join(otherRoom, mallory, RIGHT)).status, 200);
});

test('over HTTP, wrong passwords per room and address stop at the budget across users', async (t) => {
  const roomId = await passwordRoom();
  const ip = uniqueIp();
  const users = await Promise.all(Array.from({ length: Math.ceil(PER_ADDRESS / PER_USER) + 1 }, () => g.bed.signUp('guesser')));
  const spent: number[] = [];
  for (let i = 0; i < PER_ADDRESS; i++) spent.push((await join(roomId, users[Math.floor(i / PER_USER)]!, `guess ${i}`, ip)).status);
  t.deepEqual([...new Set(spent)], [403], 'every guess within the budget is judged');

  const fresh = users.at(-1)!;
  const blocked = await join(roomId, fresh, 'from the same address', ip);
  t.is(blocked.status, 429);
  t.true(Number(blocked.headers.get('retry-after')) > 0);
  t.is((await join(roomId, fresh, RIGHT, ip)).status, 429);
  // The same user from another address is judged.
  t.is((await join(roomId, fresh, RIGHT)).status, 200);
});

test('over gRPC, wrong passwords are limited too, sharing the budget with HTTP', async (t) => {
  const roomId = await passwordRoom();
  const { member: eve, as } = await g.user('eve');
  const half = Math.floor(PER_USER / 2);
  for (let i = 0; i < half; i++) t.is((await join(roomId, eve, `http guess ${i}`)).status, 403);
  for (let i = half; i < PER_USER; i++) await refused(t, as.rooms.JoinRoom({ roomId, password: `grpc guess ${i}` }), 'forbidden', grpc.status.PERMISSION_DENIED);

  const blocked = await refused(t, as.rooms.JoinRoom({ roomId, password: 'one more' }), 'rate_limited', grpc.status.RESOURCE_EXHAUSTED);
  t.true((blocked.retryAfterSeconds ?? 0) > 0, 'svc-retry-after-seconds is set');
  await refused(t, as.rooms.JoinRoom({ roomId, password: RIGHT }), 'rate_limited', grpc.status.RESOURCE_EXHAUSTED);

  const { as: frank } = await g.user('frank');
  const joined = await frank.rooms.JoinRoom({ roomId, password: RIGHT });
  t.is(joined.status, 'MEMBER_STATUS_ACTIVE');
});
