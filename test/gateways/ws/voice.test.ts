/**
 * Voice chat over the realtime gateway (docs/2026-11-23-webrtc-voice.md): joining hands out
 * ICE servers (the built-in STUN listener and TURN credentials a real coturn accepts),
 * signalling reaches only its addressee, everything needs `use_webrtc`, the call has a cap,
 * and a participant whose socket leaves the room leaves the call.
 */
import { createSocket } from 'node:dgram';
import test from 'ava';
import type { RoomEvent, VoiceParticipant } from '../../../actors/room/index.js';
import { RealtimeCommandError, type RealtimeClient } from '../../harness/ws-client.js';
import type { EventMessage } from '../../../contracts/ws/protocol.js';
import { turnCredential } from '../../../webrtc/turn-credentials.js';
import { BUILTIN_MEMBER_PERMISSIONS } from '../../../contracts/permissions/defaults.js';
import { startCoturn, type Coturn } from '../../fixtures/coturn.js';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';
import { allocate } from '../stun/turn-allocate.js';
import { stun } from '../stun/stun-client.js';
import { callerOf, createRoom, open, roomsOf, type Rooms } from './fixtures.js';

const SECRET = 'voice-test-shared-secret';
const CAP = 3;
let bed: GatewayBed;
let rooms: Rooms;
let coturn: Coturn;
let stunPort: number;
const clients: RealtimeClient[] = [];

function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  return new Promise((resolve) => socket.bind(0, '127.0.0.1', () => {
    const { port } = socket.address();
    socket.close(() => resolve(port));
  }));
}

test.before(async () => {
  coturn = await startCoturn({ secret: SECRET });
  stunPort = await freeUdpPort();
  bed = await startGatewayBed('ws_voice', {
    env: {
      SVC_STUN_ENABLED: 'true',
      SVC_STUN_HOST: '127.0.0.1',
      SVC_STUN_PORT: String(stunPort),
      SVC_STUN_PUBLIC_HOST: '127.0.0.1',
      SVC_TURN_URLS: coturn.url,
      SVC_TURN_SHARED_SECRET: SECRET,
      SVC_TURN_CREDENTIAL_TTL_SECONDS: '600',
      SVC_VOICE_MAX_PARTICIPANTS: String(CAP),
    },
  });
  rooms = await roomsOf(bed);
});
test.after.always(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await rooms?.close();
  await bed?.close();
  await coturn?.stop();
});

async function socket(roomId: string, member: Member): Promise<RealtimeClient> {
  const client = await open(bed, roomId, member);
  clients.push(client);
  return client;
}

async function people(count: number): Promise<Member[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => bed.signUp(`v${i}`)));
}

const voiceEvents = (client: RealtimeClient): RoomEvent[] => client.events.map((m) => m.event).filter((e) => e.type.startsWith('voice.'));
const isType =
  <T extends RoomEvent['type']>(type: T, where: (event: Extract<RoomEvent, { type: T }>) => boolean = () => true) =>
  (message: EventMessage): boolean =>
    message.event.type === type && where(message.event as Extract<RoomEvent, { type: T }>);

async function commandError(promise: Promise<unknown>): Promise<RealtimeCommandError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof RealtimeCommandError) return err;
    throw err;
  }
  throw new Error('the command succeeded');
}

test.serial('voice.join answers the runtime ICE servers, the built-in STUN listener and TURN credentials that coturn accepts', async (t) => {
  const [owner, b] = await people(2);
  const room = await createRoom(rooms, owner!, [b!]);
  const a = await socket(room.id, owner!);
  const other = await socket(room.id, b!);

  const { result } = await a.command({ kind: 'voice.join' });
  t.deepEqual(result.participants.map((p: VoiceParticipant) => [p.userId, p.muted]), [[owner!.userId, false]]);
  const urls = result.iceServers.flatMap((server) => server.urls);
  t.true(urls.includes('stun:stun.l.google.com:19302'), 'the runtime list (webrtc.externalIceServers) comes first');
  t.true(urls.includes(`stun:127.0.0.1:${stunPort}`), 'the built-in listener, at stun.public_host');
  const turn = result.iceServers.find((server) => server.urls.includes(coturn.url));
  t.truthy(turn?.username);
  const [expiry, userId] = [turn!.username!.slice(0, turn!.username!.indexOf(':')), turn!.username!.slice(turn!.username!.indexOf(':') + 1)];
  t.is(userId, owner!.userId);
  t.true(Number(expiry) > Date.now() / 1000 + 500 && Number(expiry) <= Date.now() / 1000 + 600);

  // The listener the service started answers a STUN client that is not ours.
  const binding = await stun.request(`127.0.0.1:${stunPort}`, { retries: 3 });
  t.is(binding.getXorAddress()?.address, '127.0.0.1');
  t.true(stun.validateFingerprint(binding));

  // coturn (use-auth-secret) allocates a relay with the handed-out credential, and refuses a tampered one.
  const allocated = await allocate('127.0.0.1', coturn.port, turn!.username!, turn!.credential!);
  t.true(allocated.ok, `coturn refused the service's credential: ${JSON.stringify(allocated)}\n${await coturn.log()}`);
  const forged = await allocate('127.0.0.1', coturn.port, turn!.username!.replace(userId, b!.userId), turn!.credential!);
  t.false(forged.ok, 'a credential is bound to its username');
  const expired = turnCredential(SECRET, owner!.userId, 60, Date.now() - 3_600_000);
  t.false((await allocate('127.0.0.1', coturn.port, expired.username, expired.credential)).ok, 'an expired credential is refused');
  const otherSecret = turnCredential('not-the-secret', owner!.userId, 600, Date.now());
  t.false((await allocate('127.0.0.1', coturn.port, otherSecret.username, otherSecret.credential)).ok, 'a credential from another secret is refused');

  // Others with use_webrtc see the join; a new connection sees the call in its snapshot.
  await other.waitForEvent(isType('voice.joined', (e) => e.participant.userId === owner!.userId));
  const late = await socket(room.id, b!);
  t.deepEqual(late.snapshot?.view.voice?.map((p) => p.userId), [owner!.userId]);
});

test.serial('an offer addressed to B reaches B only: not C (in the call) nor D (not in the call)', async (t) => {
  const [owner, b, c, d] = await people(4);
  const room = await createRoom(rooms, owner!, [b!, c!, d!]);
  const [sa, sb, sc, sd] = await Promise.all([owner!, b!, c!, d!].map((m) => socket(room.id, m)));
  for (const s of [sa!, sb!, sc!]) await s.command({ kind: 'voice.join' });

  const offer = { type: 'offer' as const, sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n' };
  await sa!.command({ kind: 'voice.signal', to: b!.userId, description: offer });
  const received = await sb!.waitForEvent(isType('voice.signal'));
  t.deepEqual(received.event, { type: 'voice.signal', from: owner!.userId, to: b!.userId, description: offer });

  // Events reach every socket in seq order: once a later event arrives, an earlier one would have too.
  await sa!.command({ kind: 'voice.signal', to: c!.userId, candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 } });
  await sc!.waitForEvent(isType('voice.signal'));
  t.deepEqual(voiceEvents(sc!).filter((e) => e.type === 'voice.signal').map((e) => (e as { to: string }).to), [c!.userId]);
  await sa!.command({ kind: 'voice.mute', muted: true });
  await sd!.waitForEvent(isType('voice.muted', (e) => e.userId === owner!.userId && e.muted));
  t.false(voiceEvents(sd!).some((e) => e.type === 'voice.signal'), 'D saw no signalling');
  t.true(voiceEvents(sb!).filter((e) => e.type === 'voice.signal').length === 1, 'B got its own signal only');

  // Signalling someone outside the call, or without being in it, is refused.
  t.is((await commandError(sa!.command({ kind: 'voice.signal', to: d!.userId, description: offer }))).code, 'not_found');
  t.is((await commandError(sd!.command({ kind: 'voice.signal', to: b!.userId, description: offer }))).code, 'conflict');
  t.is((await commandError(sa!.command({ kind: 'voice.signal', to: b!.userId }))).code, 'invalid_argument');
});

test.serial('a member without use_webrtc can neither join nor see voice events', async (t) => {
  const [owner, e] = await people(2);
  const room = await createRoom(rooms, owner!, [e!]);
  const withoutVoice = BUILTIN_MEMBER_PERMISSIONS.filter((p) => p !== 'use_webrtc');
  await rooms.client.send(room.id, { kind: 'room.update', permissionOverrides: { member: [...withoutVoice] } }, callerOf(owner!));
  const sa = await socket(room.id, owner!);
  const se = await socket(room.id, e!);
  t.is(se.snapshot?.view.voice, undefined, 'no call in the snapshot');

  const refused = await commandError(se.command({ kind: 'voice.join' }));
  t.is(refused.code, 'forbidden');
  t.regex(refused.error.message, /use_webrtc/);

  await sa.command({ kind: 'voice.join' });
  await sa.command({ kind: 'chat.send', text: 'marker' });
  await se.waitForEvent(isType('chat.message'));
  t.deepEqual(voiceEvents(se), []);
});

test.serial('the participant cap refuses one more with limit_exceeded', async (t) => {
  const members = await people(CAP + 1);
  const room = await createRoom(rooms, members[0]!, members.slice(1));
  const sockets = await Promise.all(members.map((m) => socket(room.id, m)));
  for (const s of sockets.slice(0, CAP)) await s.command({ kind: 'voice.join' });
  const refused = await commandError(sockets[CAP]!.command({ kind: 'voice.join' }));
  t.is(refused.code, 'limit_exceeded');
  // A seat freed by leaving can be taken.
  const { result } = await sockets[0]!.command({ kind: 'voice.leave' });
  t.true(result.left);
  await sockets[CAP]!.waitForEvent(isType('voice.left', (e) => e.userId === members[0]!.userId && e.reason === 'left'));
  const joined = await sockets[CAP]!.command({ kind: 'voice.join' });
  t.is(joined.result.participants.length, CAP);
});

test.serial('closing the socket that joined takes the participant out of the call', async (t) => {
  const [owner, b] = await people(2);
  const room = await createRoom(rooms, owner!, [b!]);
  const sa = await socket(room.id, owner!);
  const sb = await socket(room.id, b!);
  await sa.command({ kind: 'voice.join' });
  await sb.command({ kind: 'voice.join', muted: true });
  await sb.close();
  const left = await sa.waitForEvent(isType('voice.left', (e) => e.userId === b!.userId));
  t.is((left.event as { reason: string }).reason, 'disconnected');
  t.deepEqual(voiceEvents(sa).filter((e) => e.type === 'voice.left').length, 1);
  const fresh = await socket(room.id, owner!);
  t.deepEqual(fresh.snapshot?.view.voice?.map((p) => p.userId), [owner!.userId]);
});
