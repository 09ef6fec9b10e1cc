/**
 * The generic encoder (gateways/grpc/encode.ts) against the messages as the .proto documents
 * them (parity.ts, written without the gateway's code): values go through the encoder, the wire
 * and proto-loader's decoder, as a client receives them.
 */
import test from 'ava';
import type { RoomEvent } from '../../../contracts/room/events.js';
import type { ChatMessage, MediaItem, MemberRoomView, MemberView, PlaybackView, RoomInfo } from '../../../contracts/room/model.js';
import { loadApi } from '../../../gateways/grpc/proto.js';
import { chatMessage, mediaItem, member, memberRoomView, playback, roomEvent, roomInfo, roomView, VISIBILITY } from '../../../gateways/grpc/views.js';
import { chatMessageMessage, mediaMessage, memberMessage, playbackMessage, plain, roomInfoMessage } from './parity.js';

/** Through the wire: serialize as the server does, decode as a client does. */
function wire(type: string, value: unknown): unknown {
  const definition = loadApi().definition[`svc.v1.${type}`] as unknown as { serialize(value: unknown): Buffer; deserialize(bytes: Buffer): unknown };
  return plain(definition.deserialize(definition.serialize(value)));
}

const room: RoomInfo = {
  id: 'r1',
  name: 'Movie night',
  ownerId: 'u1',
  visibility: 'hidden',
  status: 'pending_review',
  hasPassword: true,
  requireJoinApproval: false,
  waitForAllReady: true,
  readyTimeoutMs: 8000,
  queueMode: 'repeat_all',
  voteSkipPercent: 50,
  danmaku: false,
  permissionOverrides: { member: ['send_chat', 'vote'] },
  slowModeSeconds: 0,
  createdAt: 1_764_000_000_000,
  updatedAt: 1_764_000_000_500,
};
const someone: MemberView = { userId: 'u2', name: 'Ann', role: 'guest', status: 'pending', guest: true, isOwner: false, joinedAt: 5, online: true, player: null, permissionOverride: null };
const reporting: MemberView = { ...someone, player: { state: 'buffering', mediaId: null }, permissionOverride: { grant: ['vote'], deny: [] } };
const item: MediaItem = {
  id: 'm1',
  title: 'Film',
  url: 'https://example.com/a.mp4',
  provider: 'direct',
  headers: { Referer: 'https://example.com/', 'X-Token': 'abc' },
  subtitles: [{ name: 'English', url: 'https://example.com/en.vtt', language: 'en', default: true }, { name: 'Track 3', stream: 0 }],
  live: false,
  proxy: true,
  seekable: 'checking',
  reach: {
    how: 'video',
    container: 'matroska',
    video: 'HEVC Main 10, 1920×1080, HDR10',
    audio: 'E-AC3 5.1',
    blockers: [{ kind: 'video', name: 'HEVC 10-bit' }, { kind: 'audio', name: 'E-AC3' }],
    height: 1080,
    heights: [1080, 720, 480],
    durationSeconds: 5400.5,
    videoStream: 0,
    audioStream: 1,
    videoTreatment: 'convert',
    audioTreatment: 'convert',
    imageSubtitles: [{ index: 3, codec: 'hdmv_pgs_subtitle', language: 'eng', title: null }],
    facts: { width: 1920, height: 1080, frameRate: 23.976, profile: 'Main 10', level: 120, hdr: 'pq', videoBitrate: null, audioSampleRate: 48000, audioProfile: null },
  },
  addedBy: 'u1',
  addedAt: 7,
  folderId: null,
};
const state: PlaybackView = {
  mediaId: 'm1',
  playing: true,
  position: 12.5,
  rate: 1.25,
  updatedAt: 9,
  version: 4,
  waitingForReady: { userIds: ['u2'], deadline: 10 },
  item: { id: 'm1', title: 'Film', provider: 'direct', live: false, subtitles: [], seekable: 'yes', reachHow: 'audio' },
};
const message: ChatMessage = {
  id: '42',
  userId: 'u1',
  name: 'Bo',
  text: 'hi @Ann',
  pinned: false,
  createdAt: 11,
  reactions: [{ reaction: 'heart', userIds: ['u2'] }],
  replyTo: { id: '41', deleted: false, userId: 'u2', name: 'Ann', excerpt: 'hello' },
  mentions: ['u2'],
};

test('views arrive as the .proto documents them: enums by name, null as absent, records as entries', (t) => {
  t.deepEqual(wire('RoomInfo', roomInfo(room)), roomInfoMessage(room));
  t.deepEqual(wire('Member', member(someone)), memberMessage(someone));
  t.deepEqual(wire('Member', member(reporting)), memberMessage(reporting));
  t.deepEqual(wire('MediaItem', mediaItem(item)), mediaMessage(item));
  t.deepEqual(wire('MediaItem', mediaItem({ ...item, folderId: 'f1', headers: {} })), mediaMessage({ ...item, folderId: 'f1', headers: {} }));
  t.deepEqual(wire('Playback', playback(state)), playbackMessage(state));
  t.deepEqual(wire('Playback', playback({ ...state, mediaId: null, waitingForReady: null, item: null })), playbackMessage({ ...state, mediaId: null, waitingForReady: null, item: null }));
  t.deepEqual(wire('ChatMessage', chatMessage(message)), chatMessageMessage(message));
  t.deepEqual(wire('ChatMessage', chatMessage({ ...message, editedAt: 12 })), chatMessageMessage({ ...message, editedAt: 12 }));
  t.is(VISIBILITY.public, 'ROOM_VISIBILITY_PUBLIC');
});

test('a list the view may leave out is absent, an empty one is an empty wrapper; the room view is a oneof', (t) => {
  const view: MemberRoomView = {
    access: 'member',
    room,
    me: { userId: 'u1', status: 'none', role: null, isOwner: false, permissions: [], permissionOverride: null },
    headcount: { members: 0, online: 0, crowd: false },
    members: [],
    playback: state,
    seq: 3,
  };
  const decoded = wire('MemberRoomView', memberRoomView(view)) as Record<string, unknown>;
  t.deepEqual(decoded.members, { members: [] });
  t.is(decoded.pendingMembers, null);
  t.is(decoded.playlist, null);
  t.deepEqual(decoded.voice, []);
  t.is(decoded.voteSkip, undefined);
  t.deepEqual(decoded.me, { userId: 'u1', status: 'MEMBER_STATUS_NONE', isOwner: false, permissions: [], permissionOverride: null });

  const visitor = wire('RoomView', roomView({ access: 'visitor', room: { id: 'r1', name: 'n', visibility: 'public', status: 'active', hasPassword: false, requireJoinApproval: true, memberCount: 2 }, me: view.me, seq: 1 }));
  t.like(visitor, { access: 'visitor', member: undefined, visitor: { seq: 1, room: { visibility: 'ROOM_VISIBILITY_PUBLIC', memberCount: 2 } } });
  t.like(wire('RoomView', roomView(view)), { access: 'member', member: { seq: 3 } });
});

test('events are the RoomEvent member their type names; voice events have no gRPC form', (t) => {
  const event = (value: RoomEvent) => wire('RoomEvent', roomEvent(value, 7, 100));
  t.deepEqual(event({ type: 'member.left', userId: 'u2', reason: 'kicked', by: null }), {
    seq: 7,
    at: 100,
    memberLeft: { userId: 'u2', reason: 'MEMBER_LEFT_REASON_KICKED' },
    event: 'memberLeft',
  });
  t.like(event({ type: 'playback', playback: state, cause: 'playback.voteSkip', by: 'u1' }), {
    playback: { cause: 'PLAYBACK_CAUSE_PLAYBACK_VOTE_SKIP', by: 'u1', leftBehind: [] },
    event: 'playback',
  });
  t.like(event({ type: 'playlist', op: 'cleared' }), { playlist: { cleared: {}, op: 'cleared' }, event: 'playlist' });
  t.like(event({ type: 'playlist', op: 'moved', mediaId: 'm1', toIndex: 2, folderId: 'f1' }), { playlist: { moved: { mediaId: 'm1', toIndex: 2, folderId: 'f1' }, op: 'moved' } });
  t.like(event({ type: 'room.wordFilter', wordFilter: { mode: 'block', words: ['x'] } }), { wordFilter: { wordFilter: { mode: 'WORD_FILTER_MODE_BLOCK', words: ['x'] } }, event: 'wordFilter' });
  t.is(roomEvent({ type: 'voice.muted', userId: 'u1', muted: true }, 8, 100), null);
});
