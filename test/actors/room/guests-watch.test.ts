/**
 * Guests watch (docs/2026-11-26-guests-watch.md): what is playing reaches every member of the
 * room, guests included, without its upstream address or headers; the rest of the playlist
 * stays behind view_media_resources, and `playlist.playable` (what the play endpoint and the
 * media proxy ask) hands a member without it the current item and nothing else. By default a
 * guest sees who is there and reads the chat.
 */
import test from 'ava';
import type { MemberRoomView, RoomView } from '../../../actors/room/index.js';
import { GUEST_PERMISSION_CEILING } from '../../../contracts/permissions/defaults.js';
import { RoomTestBed, addMember, guest, media, rejects, service, uid, user } from './fixtures.js';

let bed: RoomTestBed;
test.before(async () => {
  bed = await RoomTestBed.start('room_guests_watch');
});
test.after.always(() => bed?.close());

function memberView(t: { fail(message: string): void }, view: RoomView): MemberRoomView {
  if (view.access !== 'member') {
    t.fail('expected the member view');
    throw new Error('visitor view');
  }
  return view;
}

/** A room playing A (proxied, with upstream headers), with B queued, and a guest in it. */
async function watchParty() {
  const owner = user(uid('owner'));
  const visitor = guest(uid('guest'));
  const room = await bed.createRoom(owner);
  const headers = { Authorization: 'Bearer upstream-secret' };
  const { item: a } = await room.send(owner, { kind: 'playlist.push', ...media('A', { proxy: true, headers }) });
  const { item: b } = await room.send(owner, { kind: 'playlist.push', ...media('B') });
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: a.id });
  await room.send(owner, { kind: 'playback.play' });
  await addMember(room, visitor);
  return { owner, visitor, room, a, b };
}

test("a guest's view has what is playing and its playback, without the playlist or the item's source", async (t) => {
  const { visitor, room, a } = await watchParty();
  const view = memberView(t, await room.send(visitor, { kind: 'room.get' }));
  t.false('playlist' in view, 'the list stays behind view_media_resources');
  t.like(view.playback, { mediaId: a.id, playing: true });
  t.deepEqual(view.playback.item, { id: a.id, title: 'A', provider: 'direct', live: false, subtitles: [], seekable: 'unknown', reachHow: null });
  t.deepEqual(view.liveOnline, []);
  // The event that changes what plays carries it, so a guest needs no second read.
  const { playback } = room.lastEvent('playback')!;
  t.deepEqual(playback.item, view.playback.item);
});

test('a guest may play the current item and no other; a member with view_media_resources any', async (t) => {
  const { owner, visitor, room, a, b } = await watchParty();
  const current = await room.send(visitor, { kind: 'playlist.playable', mediaId: a.id });
  t.deepEqual(current, { item: a, current: true });

  await rejects(t, room.send(visitor, { kind: 'playlist.playable', mediaId: b.id }), 'forbidden', /view_media_resources/);
  // An id that is not in the list is refused the same way: a guest cannot probe which ids exist.
  await rejects(t, room.send(visitor, { kind: 'playlist.playable', mediaId: 'not-an-item' }), 'forbidden', /view_media_resources/);

  t.deepEqual(await room.send(owner, { kind: 'playlist.playable', mediaId: b.id }), { item: b, current: false });
  await rejects(t, room.send(owner, { kind: 'playlist.playable', mediaId: 'not-an-item' }), 'not_found');
  const stranger = user(uid('stranger'));
  await rejects(t, room.send(stranger, { kind: 'playlist.playable', mediaId: a.id }), 'forbidden', /join the room first/);

  // When B becomes current, A is no longer the guest's to play.
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: b.id });
  t.deepEqual(room.lastEvent('playback')!.playback.item?.id, b.id);
  t.like(await room.send(visitor, { kind: 'playlist.playable', mediaId: b.id }), { current: true });
  await rejects(t, room.send(visitor, { kind: 'playlist.playable', mediaId: a.id }), 'forbidden', /view_media_resources/);
});

test('a live item that is current says whether it is on air to every member; other live items stay hidden', async (t) => {
  const { owner, visitor, room } = await watchParty();
  const { item: live } = await room.send(owner, { kind: 'playlist.push', title: 'On air', provider: 'live' });
  const { item: other } = await room.send(owner, { kind: 'playlist.push', title: 'Also on air', provider: 'live' });
  const ingest = service('rtmp-ingest');
  await room.send(ingest, { kind: 'live.status', mediaId: live.id, online: true });
  await room.send(ingest, { kind: 'live.status', mediaId: other.id, online: true });

  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: live.id });
  t.like(room.lastEvent('playback')!.playback.item, { id: live.id, provider: 'live', onAir: true });
  const view = memberView(t, await room.send(visitor, { kind: 'room.get' }));
  t.deepEqual(view.liveOnline, [live.id], 'only the current item');
  t.like(view.playback.item, { id: live.id, onAir: true });
  const owners = memberView(t, await room.send(owner, { kind: 'room.get' }));
  t.deepEqual([...(owners.liveOnline ?? [])].sort(), [live.id, other.id].sort());
});

test('by default a guest sees who is there and reads the chat, and can do nothing above the ceiling', async (t) => {
  const { owner, visitor, room } = await watchParty();
  await room.send(owner, { kind: 'chat.send', text: 'welcome' });
  const view = memberView(t, await room.send(visitor, { kind: 'room.get' }));
  t.deepEqual(view.me.permissions, ['view_chat_history', 'view_member_list']);
  t.deepEqual(view.members?.map((m) => m.userId).sort(), [owner.userId, visitor.userId].sort());
  const history = await room.send(visitor, { kind: 'chat.history' });
  t.deepEqual(
    history.messages.map((m) => m.text),
    ['welcome'],
  );
  await rejects(t, room.send(visitor, { kind: 'chat.send', text: 'hi' }), 'forbidden', /send_chat/);
  await rejects(t, room.send(visitor, { kind: 'playback.pause' }), 'forbidden', /control_playback/);
  await rejects(t, room.send(visitor, { kind: 'webrtc.join' }), 'forbidden', /use_webrtc/);
});

test('a room admin who is not the owner saves a guest override within the ceiling, and the guest gets it', async (t) => {
  const { owner, visitor, room } = await watchParty();
  const admin = user(uid('admin'));
  await addMember(room, admin);
  await room.send(owner, { kind: 'member.setRole', userId: admin.userId, role: 'admin' });

  const saved = await room.send(admin, { kind: 'room.update', permissionOverrides: { guest: [...GUEST_PERMISSION_CEILING] } });
  t.deepEqual([...(saved.room.permissionOverrides.guest ?? [])].sort(), [...GUEST_PERMISSION_CEILING].sort());
  const view = memberView(t, await room.send(visitor, { kind: 'room.get' }));
  t.deepEqual([...view.me.permissions].sort(), [...GUEST_PERMISSION_CEILING].sort());
  t.truthy(view.playback.item, 'what is playing needs no permission');

  // Nothing in the override: the guest still watches, and sees nobody else and no history.
  await room.send(admin, { kind: 'room.update', permissionOverrides: { guest: [] } });
  const bare = memberView(t, await room.send(visitor, { kind: 'room.get' }));
  t.deepEqual(bare.me.permissions, []);
  t.false('members' in bare);
  t.truthy(bare.playback.item);
  await rejects(t, room.send(visitor, { kind: 'chat.history' }), 'forbidden', /view_chat_history/);
});
