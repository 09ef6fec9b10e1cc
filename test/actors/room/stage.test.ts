/**
 * The stage part of the room actor (actors/room/stage/, docs/2026-11-29-sfu.md) with the call
 * warden talking to a real LiveKit server: a share ends by itself when its sharer goes offline,
 * loses share_screen, leaves or is banned; the room's bandwidth refuses a share and a camera
 * with a sentence; a sharer the SFU lost ends with reason sfu; a handoff takes the screen back;
 * the call (voices, cameras) admits only use_webrtc, and losing it leaves the stage watched.
 */
import test from 'ava';
import { RoomServiceClient, TrackSource } from 'livekit-server-sdk';
import { CallWarden, sfuRoomName, signCallToken, type SfuConfig, type SfuPart } from '../../../sfu/index.js';
import type { MemberRoomView } from '../../../contracts/room/model.js';
import { withDeadline } from '../../fixtures/deadline.js';
import { testStack } from '../../harness/stack.js';
import { joinSignalling, type SignalPeer } from '../../sfu/signal-peer.js';
import { RoomTestBed, addMember, logger, media, rejects, uid, user, type TestRoom } from './fixtures.js';

let tb: RoomTestBed;
let sfu: SfuConfig;
let warden: CallWarden;
let livekit: RoomServiceClient;
const peers: SignalPeer[] = [];

test.before(async () => {
  // Throws, naming the SVCTEST_SFU_* variables, when the stack runs no LiveKit.
  const stackSfu = testStack().sfu;
  sfu = { url: stackSfu.url, publicUrl: stackSfu.publicUrl, apiKey: stackSfu.apiKey, apiSecret: stackSfu.apiSecret, prefix: uid('stage') };
  warden = new CallWarden(sfu, { logger, pollMs: 100 });
  livekit = new RoomServiceClient(sfu.url, sfu.apiKey, sfu.apiSecret, { failover: false });
  tb = await RoomTestBed.start('room_stage', { sfu: warden, sfuLossMs: 300 });
});
test.after.always(async () => {
  for (const peer of peers) peer.close();
  warden?.close();
  await tb?.close();
});

async function roomWithSharer(): Promise<{ room: TestRoom; owner: ReturnType<typeof user>; bob: ReturnType<typeof user> }> {
  const owner = user(uid('owner'), 'Olga');
  const bob = user(uid('bob'), 'Bob');
  const room = await tb.createRoom(owner);
  await addMember(room, bob);
  await room.send(bob, { kind: 'presence.enter', connectionId: 'bob-1' });
  await room.send(owner, { kind: 'presence.enter', connectionId: 'owner-1' });
  return { room, owner, bob };
}

/** A participant in one of the room's SFU rooms (a signalling peer: what LiveKit sees of a browser). */
async function inSfu(roomId: string, userId: string, part: SfuPart, sources: Parameters<typeof signCallToken>[1]['sources']): Promise<SignalPeer> {
  await livekit.createRoom({ name: sfuRoomName(sfu.prefix, roomId, part) });
  const { token } = await signCallToken(sfu, { roomId, part, identity: userId, name: userId, sources, sessionId: uid('session'), guest: false });
  const peer = await joinSignalling(sfu.publicUrl, token);
  peers.push(peer);
  return peer;
}

/** Waits (with a deadline) until `check` holds. */
async function until(check: () => boolean, deadlineMs = 5000): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
  return check();
}

async function view(room: TestRoom, caller: ReturnType<typeof user>): Promise<MemberRoomView> {
  return (await room.send(caller, { kind: 'room.get' })) as MemberRoomView;
}

async function publishable(roomId: string, userId: string, part: SfuPart = 'stage'): Promise<string[]> {
  const participant = await livekit.getParticipant(sfuRoomName(sfu.prefix, roomId, part), userId);
  return (participant.permission?.canPublishSources ?? []).map((s) => TrackSource[s]).sort();
}

test('a share ends by itself: left when the sharer goes offline or leaves, removed when banned or without share_screen', async (t) => {
  const { room, owner, bob } = await roomWithSharer();
  await room.send(bob, { kind: 'stage.start', keepPlaying: true });
  await room.send(bob, { kind: 'presence.leave', connectionId: 'bob-1' });
  t.like(room.lastEvent('stage.stopped'), { userId: bob.userId, reason: 'left' });

  await room.send(bob, { kind: 'presence.enter', connectionId: 'bob-2' });
  await room.send(bob, { kind: 'stage.start', keepPlaying: true });
  await room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: [], deny: ['share_screen'] });
  t.like(room.lastEvent('stage.stopped'), { userId: bob.userId, reason: 'removed' });
  await rejects(t, room.send(bob, { kind: 'stage.start' }), 'forbidden', /share_screen/);
  await room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: [], deny: [] });

  await room.send(bob, { kind: 'stage.start', keepPlaying: true });
  await room.send(bob, { kind: 'member.leave' });
  t.like(room.lastEvent('stage.stopped'), { userId: bob.userId, reason: 'left' });

  await addMember(room, bob);
  await room.send(bob, { kind: 'presence.enter', connectionId: 'bob-3' });
  await room.send(bob, { kind: 'stage.start', keepPlaying: true });
  await room.send(owner, { kind: 'member.ban', userId: bob.userId });
  t.like(room.lastEvent('stage.stopped'), { userId: bob.userId, reason: 'removed' });
  t.is(room.events('stage.started').length, 4);
  t.is(room.events('stage.stopped').length, 4);
});

test('a share pauses the room unless the sharer keeps it playing; stopping one\'s own needs nothing', async (t) => {
  const { room, owner, bob } = await roomWithSharer();
  await room.send(owner, { kind: 'playlist.push', ...media() });
  await room.send(owner, { kind: 'playback.play' });
  await room.send(bob, { kind: 'stage.start', keepPlaying: true });
  t.true((await view(room, bob)).playback.playing, 'kept playing');
  t.deepEqual(await room.send(bob, { kind: 'stage.stop' }), { stopped: true });
  t.like(room.lastEvent('stage.stopped'), { userId: bob.userId, reason: 'stopped' });
  t.falsy(room.lastEvent('stage.stopped')?.by);

  const { share } = await room.send(bob, { kind: 'stage.start' });
  t.false(share.keepPlaying);
  t.like(room.lastEvent('playback'), { cause: 'playback.pause', by: bob.userId, playback: { playing: false } });
  t.deepEqual((await view(room, owner)).stage?.map((s) => s.name), ['Bob']);
});

test("the room's bandwidth refuses a share and a camera with a sentence; freed cameras make room", async (t) => {
  await tb.withSettings('sfu', { roomMaxKbps: 5000, shareMaxKbps: 3800, cameraMaxKbps: 1200 }, async () => {
    const { room, owner, bob } = await roomWithSharer();
    const admitted = await room.send(owner, { kind: 'call.admit', part: 'call' });
    t.deepEqual(admitted.sources, ['microphone', 'camera']);
    t.true(admitted.moderator);
    t.deepEqual((await room.send(bob, { kind: 'call.admit', part: 'call' })).sources, ['microphone', 'camera']);
    await rejects(t, room.send(bob, { kind: 'stage.start' }), 'limit_exceeded', /bandwidth is taken: its screens and cameras have 2400 of 5000 kbit\/s \(sfu.roomMaxKbps\), and a screen needs 3800/);
    const others = [user(uid('carol'), 'Carol'), user(uid('dave'), 'Dave'), user(uid('eve'), 'Eve')];
    for (const [i, other] of others.entries()) {
      await addMember(room, other);
      await room.send(other, { kind: 'presence.enter', connectionId: `c${i}` });
    }
    const [carol, dave, eve] = others as [typeof bob, typeof bob, typeof bob];
    await room.send(carol, { kind: 'call.admit', part: 'call' });
    t.deepEqual((await room.send(dave, { kind: 'call.admit', part: 'call' })).sources, ['microphone', 'camera'], '4800 of 5000');
    const refused = await room.send(eve, { kind: 'call.admit', part: 'call' });
    t.deepEqual(refused.sources, ['microphone']);
    t.regex(refused.cameraRefused ?? '', /no camera: .* 4800 of 5000 kbit\/s/);
    t.false(refused.moderator);
    // A camera's seat goes with its member's connection.
    await room.send(owner, { kind: 'presence.leave', connectionId: 'owner-1' });
    await room.send(carol, { kind: 'presence.leave', connectionId: 'c0' });
    await room.send(dave, { kind: 'presence.leave', connectionId: 'c1' });
    const { share } = await room.send(bob, { kind: 'stage.start', keepPlaying: true });
    t.is(share.userId, bob.userId);
    t.deepEqual((await room.send(bob, { kind: 'call.admit', part: 'call' })).sources, ['microphone', 'camera']);
    t.deepEqual((await room.send(bob, { kind: 'call.admit', part: 'stage' })).sources, ['screen_share', 'screen_share_audio'], 'the screen goes to the stage');
  });
});

test('a moderator mutes and stops; a share the SFU lost ends with reason sfu', async (t) => {
  const { room, owner, bob } = await roomWithSharer();
  await rejects(t, room.send(bob, { kind: 'call.mute', userId: owner.userId }), 'forbidden', /manage_members/);
  const peer = await inSfu(room.id, bob.userId, 'stage', []);
  await room.send(bob, { kind: 'stage.start', keepPlaying: true });
  await warden.settled();
  t.deepEqual(await publishable(room.id, bob.userId), ['SCREEN_SHARE', 'SCREEN_SHARE_AUDIO']);
  t.deepEqual(await room.send(owner, { kind: 'call.mute', userId: bob.userId }), { muted: false }, 'no microphone track published');
  // Once the warden has seen the sharer in the call, lose them (their SFU node died).
  t.true(await until(() => warden.sharerInCall(room.id, bob.userId)));
  peer.close();
  await peer.closed;
  t.true(await until(() => room.lastEvent('stage.stopped') !== undefined, 10_000));
  t.like(room.lastEvent('stage.stopped'), { userId: bob.userId, reason: 'sfu' });
});

test("a handoff takes the sharer's screen back; the next activation starts with an empty stage", async (t) => {
  const { room, bob } = await roomWithSharer();
  await inSfu(room.id, bob.userId, 'stage', []);
  await room.send(bob, { kind: 'stage.start', keepPlaying: true });
  await warden.settled();
  t.true((await publishable(room.id, bob.userId)).includes('SCREEN_SHARE'));
  await room.deactivate('drain');
  t.deepEqual(await publishable(room.id, bob.userId), []);
  // Everyone is told, or their pages would keep a stage the next activation has not.
  t.like(room.lastEvent('stage.stopped'), { userId: bob.userId, reason: 'sfu' });
  const again = await tb.activate(room.id);
  t.is((await view(again, bob)).stage, undefined);
});

test('the call admits only use_webrtc; a member who loses it leaves the call and keeps watching the stage', async (t) => {
  const { room, owner, bob } = await roomWithSharer();
  await room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: [], deny: ['use_webrtc'] });
  // The call's SFU room carries every voice and camera: a token for it would let them receive all of it.
  await rejects(t, room.send(bob, { kind: 'call.admit', part: 'call' }), 'forbidden', /use_webrtc/);
  t.deepEqual((await room.send(bob, { kind: 'call.admit', part: 'stage' })).sources, [], 'watches the stage, sends nothing');
  await room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: [], deny: [] });

  t.deepEqual((await room.send(bob, { kind: 'call.admit', part: 'call' })).sources, ['microphone', 'camera']);
  const [inCall, onStage] = [await inSfu(room.id, bob.userId, 'call', ['microphone', 'camera']), await inSfu(room.id, bob.userId, 'stage', [])];
  await room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: [], deny: ['use_webrtc'] });
  await withDeadline(inCall.closed, 5000, 'the SFU closing the call of a member without use_webrtc');
  await warden.settled();
  t.truthy(await livekit.getParticipant(sfuRoomName(sfu.prefix, room.id, 'stage'), bob.userId), 'still on the stage');

  await room.send(owner, { kind: 'member.kick', userId: bob.userId });
  await withDeadline(onStage.closed, 5000, 'the SFU closing the stage of a kicked member');
  t.is(await livekit.getParticipant(sfuRoomName(sfu.prefix, room.id, 'stage'), bob.userId).catch(() => undefined), undefined, 'a kicked member leaves the stage too');
});
