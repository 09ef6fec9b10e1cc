/**
 * What the realtime tests share: a gateway bed, a RoomClient of the bed's rooms (rooms are made
 * and joined through the actor directly, as the signed-up users), tickets and sockets through
 * the real HTTP API and upgrade, and reading the gateway's `/metrics` (on its metrics listener).
 */
import { connect, type NatsConnection } from 'nats';
import type { Caller, UserCaller } from '../../../accounts/model.js';
import { ActorClient } from '../../../actors/runtime/client.js';
import { newRoomId, RoomClient } from '../../../gateways/rooms/room-client.js';
import { RealtimeClient, RealtimeRefused, requestTicket, type ConnectOptions } from '../../harness/ws-client.js';
import { ALLOWED_ORIGIN, type GatewayBed, type Member } from '../bed.js';
import { uniqueIp } from '../../fixtures/client-address.js';

export { ALLOWED_ORIGIN };

export interface Rooms {
  nc: NatsConnection;
  client: RoomClient;
  close(): Promise<void>;
}

export async function roomsOf(bed: GatewayBed): Promise<Rooms> {
  const nc = await connect({ servers: bed.config.nats.url });
  return { nc, client: new RoomClient(new ActorClient(nc, bed.config.nats.subject_prefix)), close: () => nc.close() };
}

/** The caller a gateway resolves for a bed member's session. */
export function callerOf(member: Member, guest = false): Caller {
  if (guest) return { kind: 'guest', guestId: member.userId, sessionId: member.sessionId, displayName: member.username };
  return { kind: 'user', userId: member.userId, sessionId: member.sessionId, username: member.username, displayName: member.username, role: 'user' } satisfies UserCaller;
}

export interface TestRoom {
  id: string;
  owner: Member;
}

/** A room owned by `owner` with `members` joined (guests are members whose id starts with `guest:`). */
export async function createRoom(rooms: Rooms, owner: Member, members: Member[] = [], options: { requireJoinApproval?: boolean } = {}): Promise<TestRoom> {
  const id = newRoomId();
  await rooms.client.send(id, { kind: 'room.create', name: 'Movie night', visibility: 'public', ...options }, callerOf(owner));
  for (const member of members) await join(rooms, id, member);
  return { id, owner };
}

export async function join(rooms: Rooms, roomId: string, member: Member): Promise<void> {
  await rooms.client.send(roomId, { kind: 'member.join' }, callerOf(member, member.userId.startsWith('guest:')));
}

/** A socket for `member` through a fresh ticket, from the allowed browser origin. */
export async function open(bed: GatewayBed, roomId: string, member: Member, options: Partial<ConnectOptions> = {}): Promise<RealtimeClient> {
  const ticket = await requestTicket(bed.url, roomId, member.token, { 'x-forwarded-for': uniqueIp() });
  return RealtimeClient.connect({ url: bed.url, roomId, ticket, origin: ALLOWED_ORIGIN, ...options });
}

/** The refusal of a connection attempt that must fail before the upgrade. */
export async function refusal(options: ConnectOptions): Promise<RealtimeRefused> {
  try {
    const client = await RealtimeClient.connect(options);
    await client.close();
  } catch (err) {
    if (err instanceof RealtimeRefused) return err;
    throw err;
  }
  throw new Error('the connection was accepted');
}

/** A sample of the gateway's `/metrics` (summed over label sets), or 0 when absent. */
export async function metric(bed: GatewayBed, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${bed.metricsUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (!(rest.startsWith(' ') || rest.startsWith('{'))) continue;
    if (labels && !rest.includes(labels)) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

export { uniqueIp };
