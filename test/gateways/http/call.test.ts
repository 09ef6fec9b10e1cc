/**
 * The room's SFU call and stage through HTTP against a real LiveKit server
 * (docs/2026-11-29-sfu.md): the token joinCall hands out is accepted by LiveKit and carries
 * exactly the sources the permissions give; a share is refused without share_screen or when the
 * stage is full, pauses the room, and is granted and revoked in LiveKit by the warden; a kicked
 * member and a signed-out session leave the call within a second (the sessions rule).
 */
import test from 'ava';
import { RoomServiceClient, TokenVerifier, TrackSource } from 'livekit-server-sdk';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';
import { open } from '../ws/fixtures.js';
import { testStack } from '../../harness/stack.js';
import { joinSignalling, type SignalPeer } from '../../sfu/signal-peer.js';
import { sfuRoomName } from '../../../sfu/index.js';

interface Grant {
  url: string;
  part: string;
  token: string;
  expiresAt: number;
  identity: string;
  sources: string[];
  moderator: boolean;
  iceServers: unknown[];
  limits: { memberKbps: number; shareKbps: number; cameraKbps: number };
}
interface ErrorBody {
  code: string;
  message: string;
}

let bed: GatewayBed;
let livekit: RoomServiceClient;
const peers: SignalPeer[] = [];

test.before(async () => {
  bed = await startGatewayBed('http_call', { sfu: true });
  const sfu = testStack().sfu;
  livekit = new RoomServiceClient(sfu.url, sfu.apiKey, sfu.apiSecret, { failover: false });
});
test.after.always(async () => {
  for (const peer of peers) peer.close();
  await bed?.close();
});

async function roomWith(owner: Member, members: Member[]): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Show and talk' }, owner.token);
  const roomId = created.body.room.id;
  for (const member of members) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  return roomId;
}

/** A grant for the room's call or stage, and a signalling peer in that SFU room. */
async function joinCall(roomId: string, member: Member, part: 'call' | 'stage' = 'call'): Promise<{ grant: Grant; peer: SignalPeer }> {
  const answer = await bed.call<Grant>('POST', `/api/rooms/${roomId}/call`, { part }, member.token);
  if (answer.status !== 200) throw new Error(`joinCall: ${answer.status} ${JSON.stringify(answer.body)}`);
  const peer = await joinSignalling(answer.body.url, answer.body.token);
  peers.push(peer);
  return { grant: answer.body, peer };
}

/** What LiveKit lets `identity` publish, by source name. */
async function publishable(roomId: string, identity: string, part: 'call' | 'stage' = 'call'): Promise<string[]> {
  const participant = await livekit.getParticipant(sfuRoomName(bed.config.nats.subject_prefix, roomId, part), identity);
  const permission = participant.permission;
  if (!permission?.canPublish) return [];
  return permission.canPublishSources.map((source) => TrackSource[source]).sort();
}

/** Waits (deadline, no sleep-and-check of a duration) until `check` holds. */
async function eventually(check: () => Promise<boolean>, deadlineMs = 5000): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** Whether `closed` settles within `ms`. */
async function within(closed: Promise<number>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([closed.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

test('the tokens are accepted by LiveKit and carry exactly what the permissions give: the call with use_webrtc, the stage for every member', async (t) => {
  const [owner, bob] = [await bed.signUp('callowner'), await bed.signUp('callbob')];
  const guest = await bed.guest('Gus');
  const roomId = await roomWith(owner, [bob, guest]);

  const { grant } = await joinCall(roomId, bob);
  t.is(grant.url, testStack().sfu.publicUrl);
  t.is(grant.identity, bob.userId);
  t.deepEqual(grant.sources, ['microphone', 'camera']);
  t.false(grant.moderator);
  t.deepEqual(grant.limits, { memberKbps: 6000, shareKbps: 4000, cameraKbps: 1200 });
  t.true(grant.expiresAt > Date.now() && grant.expiresAt <= Date.now() + 301_000);
  t.deepEqual(await publishable(roomId, bob.userId), ['CAMERA', 'MICROPHONE']);

  // Guests hold no use_webrtc by default: the call, which carries every voice and camera, is not theirs;
  // the stage is, with nothing to send.
  const notTheirs = await bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/call`, { part: 'call' }, guest.token);
  t.is(notTheirs.status, 403);
  t.regex(notTheirs.body.message, /use_webrtc/);
  const asGuest = await joinCall(roomId, guest, 'stage');
  t.is(asGuest.grant.part, 'stage');
  t.deepEqual(asGuest.grant.sources, []);
  t.deepEqual(await publishable(roomId, guest.userId, 'stage'), []);

  const asOwner = await joinCall(roomId, owner);
  t.true(asOwner.grant.moderator);

  // Each token opens one SFU room of this room, with no data channel.
  const sfu = testStack().sfu;
  const verifier = new TokenVerifier(sfu.apiKey, sfu.apiSecret);
  const claims = await verifier.verify(grant.token);
  t.like(claims.video, { roomJoin: true, room: sfuRoomName(bed.config.nats.subject_prefix, roomId, 'call'), canSubscribe: true, canPublishData: false });
  t.falsy(claims.video?.roomAdmin);
  t.falsy(claims.video?.roomCreate);
  t.like((await verifier.verify(asGuest.grant.token)).video, { room: sfuRoomName(bed.config.nats.subject_prefix, roomId, 'stage'), canPublish: false });

  const outsider = await bed.signUp('calloutsider');
  const refused = await bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/call`, { part: 'stage' }, outsider.token);
  t.is(refused.status, 403);
  const bad = await bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/call`, { part: 'everything' }, bob.token);
  t.is(bad.status, 400);
  t.regex(bad.body.message, /part/);
});

test('a share: refused without share_screen or a connection, pauses the room, full names the sharer, stopped by a moderator; the warden grants and revokes screen_share', async (t) => {
  const [owner, bob] = [await bed.signUp('shareowner'), await bed.signUp('sharebob')];
  const guest = await bed.guest('Gwen');
  const roomId = await roomWith(owner, [bob, guest]);
  await bed.call('POST', `/api/rooms/${roomId}/playlist`, { title: 'Film', url: 'https://media.example.com/film.mp4' }, owner.token);
  const ownerSocket = await open(bed, roomId, owner);
  const bobSocket = await open(bed, roomId, bob);
  const guestSocket = await open(bed, roomId, guest);
  try {
    const played = await bed.call<{ playback: { playing: boolean } }>('POST', `/api/rooms/${roomId}/playback/play`, {}, owner.token);
    t.true(played.body.playback.playing);
    await joinCall(roomId, bob, 'stage');

    const noPermission = await bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/stage`, {}, guest.token);
    t.is(noPermission.status, 403);
    t.regex(noPermission.body.message, /share_screen/);

    const outsider = await bed.signUp('shareoutsider');
    await bed.call('POST', `/api/rooms/${roomId}/join`, {}, outsider.token);
    const offline = await bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/stage`, {}, outsider.token);
    t.is(offline.status, 409);
    t.regex(offline.body.message, /connect/);

    const bad = await bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/stage`, { keepPlaying: 'yes' }, bob.token);
    t.is(bad.status, 400);
    t.is(bad.body.code, 'invalid_argument');
    t.regex(bad.body.message, /keepPlaying/);

    const started = await bed.call<{ share: { userId: string; name: string; keepPlaying: boolean }; seq: number }>('POST', `/api/rooms/${roomId}/stage`, {}, bob.token);
    t.is(started.status, 201);
    t.like(started.body.share, { userId: bob.userId, keepPlaying: false });
    // Everyone sees the stage, and the pause it made, by the sharer.
    const pause = await guestSocket.waitForEvent((m) => m.event.type === 'playback' && m.event.cause === 'playback.pause');
    t.like(pause.event, { by: bob.userId, playback: { playing: false } });
    await guestSocket.waitForEvent((m) => m.event.type === 'stage.started');
    t.true(await eventually(async () => (await publishable(roomId, bob.userId, 'stage')).includes('SCREEN_SHARE')), 'the warden granted screen_share');
    t.deepEqual(await publishable(roomId, bob.userId, 'stage'), ['SCREEN_SHARE', 'SCREEN_SHARE_AUDIO']);
    const view = await bed.call<{ stage?: Array<{ userId: string }> }>('GET', `/api/rooms/${roomId}`, undefined, guest.token);
    t.deepEqual(view.body.stage?.map((s) => s.userId), [bob.userId]);

    const full = await bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/stage`, { keepPlaying: true }, owner.token);
    t.is(full.status, 409);
    t.regex(full.body.message, new RegExp(`stage is full: ${bob.username} is showing a screen`));

    const notMine = await bed.call<ErrorBody>('DELETE', `/api/rooms/${roomId}/stage/${owner.userId}`, undefined, bob.token);
    t.is(notMine.status, 403);
    t.regex(notMine.body.message, /manage_members/);
    const stopped = await bed.call<{ stopped: boolean }>('DELETE', `/api/rooms/${roomId}/stage/${bob.userId}`, undefined, owner.token);
    t.deepEqual(stopped.body.stopped, true);
    const ended = await bobSocket.waitForEvent((m) => m.event.type === 'stage.stopped');
    t.like(ended.event, { userId: bob.userId, reason: 'moderator', by: owner.userId });
    t.true(await eventually(async () => !(await publishable(roomId, bob.userId, 'stage')).includes('SCREEN_SHARE')), 'the warden revoked screen_share');
    const again = await bed.call<{ stopped: boolean }>('DELETE', `/api/rooms/${roomId}/stage/${bob.userId}`, undefined, owner.token);
    t.false(again.body.stopped);
  } finally {
    await Promise.all([ownerSocket.close(), bobSocket.close(), guestSocket.close()]);
  }
});

test("a kicked sharer's share ends and they leave the stage and the call within a second", async (t) => {
  const [owner, bob] = [await bed.signUp('kickowner'), await bed.signUp('kickbob')];
  const roomId = await roomWith(owner, [bob]);
  const ownerSocket = await open(bed, roomId, owner);
  const bobSocket = await open(bed, roomId, bob);
  try {
    const { peer } = await joinCall(roomId, bob);
    const { peer: stagePeer } = await joinCall(roomId, bob, 'stage');
    t.is((await bed.call('POST', `/api/rooms/${roomId}/stage`, { keepPlaying: true }, bob.token)).status, 201);
    const kicked = await bed.call('POST', `/api/rooms/${roomId}/members/${bob.userId}/kick`, undefined, owner.token);
    t.is(kicked.status, 200);
    t.true(await within(peer.closed, 1000), 'LiveKit closed the call of the kicked member within a second');
    t.true(await within(stagePeer.closed, 1000), 'and their stage');
    const ended = await ownerSocket.waitForEvent((m) => m.event.type === 'stage.stopped');
    t.like(ended.event, { userId: bob.userId, reason: 'removed' });
  } finally {
    await Promise.all([ownerSocket.close(), bobSocket.close()]);
  }
});

test("a signed-out session's participant leaves the call within a second", async (t) => {
  const [owner, carol] = [await bed.signUp('outowner'), await bed.signUp('outcarol')];
  const roomId = await roomWith(owner, [carol]);
  const { peer } = await joinCall(roomId, carol);
  const { peer: stagePeer } = await joinCall(roomId, carol, 'stage');
  const { peer: ownerPeer } = await joinCall(roomId, owner);
  t.is((await bed.call('POST', '/api/auth/logout', undefined, carol.token)).status, 204);
  t.true(await within(peer.closed, 1000), 'LiveKit closed the signed-out session within a second');
  t.true(await within(stagePeer.closed, 1000), 'on the stage too');
  t.false(await within(ownerPeer.closed, 200), 'others stay');
});

test('muting needs manage_members; a member without a published microphone is not muted; bad input names the field', async (t) => {
  const [owner, bob] = [await bed.signUp('muteowner'), await bed.signUp('mutebob')];
  const roomId = await roomWith(owner, [bob]);
  await joinCall(roomId, bob);
  const refused = await bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/call/mute`, { userId: owner.userId }, bob.token);
  t.is(refused.status, 403);
  t.regex(refused.body.message, /manage_members/);
  const answer = await bed.call<{ muted: boolean }>('POST', `/api/rooms/${roomId}/call/mute`, { userId: bob.userId }, owner.token);
  t.is(answer.status, 200);
  t.false(answer.body.muted);
  const bad = await bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/call/mute`, {}, owner.token);
  t.is(bad.status, 400);
  t.regex(bad.body.message, /userId/);
});

test('without an SFU the public info says so, and the call endpoints answer unavailable with a sentence', async (t) => {
  const plain = await startGatewayBed('http_call_nosfu');
  try {
    // What the web client reads before it asks for a grant.
    t.deepEqual((await plain.call<{ calls: unknown }>('GET', '/api/public/info')).body.calls, { sfu: false });
    t.deepEqual((await bed.call<{ calls: unknown }>('GET', '/api/public/info')).body.calls, { sfu: true });
    const owner = await plain.signUp('nosfu');
    const created = await plain.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'No SFU' }, owner.token);
    const answer = await plain.call<ErrorBody>('POST', `/api/rooms/${created.body.room.id}/call`, { part: 'call' }, owner.token);
    t.is(answer.status, 503);
    t.is(answer.body.code, 'unavailable');
    t.regex(answer.body.message, /this server has no SFU/);
    const share = await plain.call<ErrorBody>('POST', `/api/rooms/${created.body.room.id}/stage`, {}, owner.token);
    t.is(share.status, 503);
    t.regex(share.body.message, /no SFU/);
  } finally {
    await plain.close();
  }
});
