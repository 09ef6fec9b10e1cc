/**
 * What a member without view_media_resources receives of the live status of items
 * (docs/2026-11-26-guests-watch.md): the current item's, followed through playback events, and
 * no other's; and a member's own grants and denials. The lens is what every transport filters a
 * room's events with.
 */
import test from 'ava';
import type { MemberRoomView, PlaybackView, RoomEvent } from '../../../actors/room/index.js';
import { MemberLens } from '../../../gateways/rooms/member-lens.js';
import { BUILTIN_GUEST_PERMISSIONS } from '../../../contracts/permissions/defaults.js';

const settings = { get: (() => [...BUILTIN_GUEST_PERMISSIONS]) as never };

const playback = (mediaId: string | null): PlaybackView => ({
  mediaId,
  playing: true,
  position: 0,
  rate: 1,
  updatedAt: 1,
  version: 1,
  waitingForReady: null,
  item: mediaId === null ? null : { id: mediaId, title: mediaId, provider: 'live', live: true, subtitles: [], seekable: 'no', reachHow: null },
});

function guestSnapshot(mediaId: string | null): MemberRoomView {
  return {
    access: 'member',
    room: {
      id: 'r',
      name: 'R',
      ownerId: 'owner',
      visibility: 'public',
      queueMode: 'next',
    voteSkipPercent: 0,
      status: 'active',
      hasPassword: false,
      requireJoinApproval: false,
      waitForAllReady: false,
      readyTimeoutMs: 10_000,
      danmaku: false,
      permissionOverrides: {},
      slowModeSeconds: 0,
      createdAt: 1,
      updatedAt: 1,
    },
    headcount: { members: 1, online: 1, crowd: false },
    me: { userId: 'gus', status: 'active', role: 'guest', isOwner: false, permissions: ['view_chat_history', 'view_member_list'], permissionOverride: null },
    playback: playback(mediaId),
    seq: 1,
  };
}

const live = (mediaId: string, online = true): RoomEvent => ({ type: 'live', mediaId, online });
const switchTo = (mediaId: string): RoomEvent => ({ type: 'playback', playback: playback(mediaId), cause: 'playlist.setCurrent', by: 'owner' });

test("a guest receives the current item's live status and no other item's, following what is current", (t) => {
  const lens = new MemberLens('gus', guestSnapshot('a'), settings);
  t.true(lens.admit(live('a')));
  t.false(lens.admit(live('b')), 'another item is behind view_media_resources');
  t.false(lens.admit({ type: 'playlist', op: 'removed', mediaId: 'b' }), 'the playlist is too');

  t.true(lens.admit(switchTo('b')), 'playback reaches every member');
  t.true(lens.admit(live('b', false)));
  t.false(lens.admit(live('a')), 'the previous item is no longer what the guest watches');

  lens.reset(guestSnapshot(null));
  t.false(lens.admit(live('b')));
});

test("a guest receives the current item's checks (how it reaches browsers) and no other item's", (t) => {
  const lens = new MemberLens('gus', guestSnapshot('a'), settings);
  const checked = (mediaId: string): RoomEvent => ({ type: 'media.checked', mediaId, seekable: 'yes', reachHow: 'video' });
  t.true(lens.admit(checked('a')));
  t.false(lens.admit(checked('b')), 'another item is behind view_media_resources');
});

test("a member's own grants and denials decide what they receive from the next event on", (t) => {
  const lens = new MemberLens('gus', guestSnapshot('a'), settings);
  const voice: RoomEvent = { type: 'voice.muted', userId: 'owner', muted: true };
  const joined: RoomEvent = { type: 'member.left', userId: 'someone', reason: 'left', by: 'someone' };
  t.false(lens.visible(voice), 'the guest role has no use_webrtc');
  t.true(lens.visible(joined), 'the guest role sees who is there');

  const updated = (grant: string[], deny: string[]): RoomEvent => ({
    type: 'member.updated',
    member: { userId: 'gus', name: 'Gus', role: 'guest', status: 'active', guest: true, isOwner: false, joinedAt: 1, online: true, player: null, permissionOverride: { grant, deny } as never },
  });
  t.true(lens.admit(updated(['use_webrtc'], ['view_member_list'])));
  t.true(lens.visible(voice), 'granted use_webrtc');
  t.false(lens.visible(joined), 'denied view_member_list');

  lens.reset({ ...guestSnapshot('a'), me: { ...guestSnapshot('a').me, permissionOverride: { grant: [], deny: ['view_member_list'] } } });
  t.false(lens.visible(voice), 'a fresh snapshot without the grant');
  t.false(lens.visible(joined), "the snapshot's denial");
});

test("a crowd's plain member leaving reaches their own connections only; a kick still reaches those who see the list", (t) => {
  const lens = new MemberLens('gus', guestSnapshot('a'), settings);
  t.false(lens.admit({ type: 'member.left', userId: 'someone', reason: 'left', by: 'someone', quiet: true }));
  t.true(lens.admit({ type: 'member.left', userId: 'someone', reason: 'kicked', by: 'owner' }));
  const own: RoomEvent = { type: 'member.left', userId: 'gus', reason: 'left', by: 'gus', quiet: true };
  t.true(lens.admit(own));
  t.is(lens.endsWatch(own), 'left');
});
