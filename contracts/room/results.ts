/**
 * What each room command answers, keyed by command kind, so a gateway can type
 * `rooms.send(roomId, command)` as `RoomResultOf<typeof command.kind>`.
 */
import type { RoomCommandKind } from './commands.js';
import type { CallSource, ChatMessage, ChatReaction, DanmakuComment, IceServer, MediaItem, MemberRoomView, MemberView, PlaybackView, PlaylistFolder, Poll, QueueVotes, RoomInfo, RoomView, StageShare, VoiceParticipant, VoteSkip } from './model.js';

export interface RoomResults {
  'room.create': { room: RoomInfo };
  'room.get': RoomView;
  'room.update': { room: RoomInfo };
  'room.delete': { deleted: true };
  'room.review': { room: RoomInfo };

  /** `pending` when the room requires approval of joins. */
  'member.join': { status: 'active' | 'pending'; member: MemberView };
  /** False when the caller was not a member (leaving twice is not an error). */
  'member.leave': { left: boolean };
  'member.approve': { member: MemberView };
  'member.reject': { userId: string };
  'member.kick': { userId: string };
  'member.ban': { member: MemberView };
  'member.unban': { userId: string };
  /** `nextAfter` is null on the last page; `total` counts every ban of the room. */
  'member.bans': { members: MemberView[]; nextAfter: string | null; total: number };
  /** `nextAfter` is null on the last page; `total` counts the members the filters match. */
  'member.list': { members: MemberView[]; nextAfter: string | null; total: number };
  'member.setRole': { member: MemberView };
  'member.setPermissions': { member: MemberView };
  'owner.transfer': { room: RoomInfo };
  /** How many of each record of the closed account the room changed. */
  'member.forget': { pollVotes: number; polls: number; queueVotes: number; bans: number; libraries: number };

  /** The room as the caller sees it, so a new connection needs no second request. */
  'presence.enter': MemberRoomView;
  'presence.refresh': { online: true };
  'presence.leave': { online: boolean };
  'member.player': { member: MemberView; playback: PlaybackView };

  'playlist.push': { item: MediaItem; index: number };
  'playlist.insert': { item: MediaItem; index: number };
  'playlist.move': { mediaId: string; index: number; folderId: string | null };
  'playlist.folder.add': { folder: PlaylistFolder };
  'playlist.folder.rename': { folder: PlaylistFolder };
  'playlist.folder.move': { folderId: string; index: number };
  'playlist.folder.remove': { folderId: string; removedItems: number };
  'playlist.folder.play': { playback: PlaybackView };
  'playlist.remove': { mediaId: string };
  'playlist.clear': { removed: number };
  'playlist.setCurrent': { playback: PlaybackView };
  'playlist.edit': { item: MediaItem };
  'playlist.vote': { queueVotes: QueueVotes };
  /** `current`: the item is the one playing now (the only one a member without view_media_resources may play). */
  'playlist.playable': { item: MediaItem; current: boolean };

  'playback.play': { playback: PlaybackView };
  'playback.pause': { playback: PlaybackView };
  'playback.seek': { playback: PlaybackView };
  'playback.rate': { playback: PlaybackView };
  'playback.next': { playback: PlaybackView };
  'playback.previous': { playback: PlaybackView };
  'playback.ended': { playback: PlaybackView };
  /** The votes after this one (`skipped`: they reached the threshold and the room moved on). */
  'playback.voteSkip': { voteSkip: VoteSkip; skipped: boolean; playback: PlaybackView };

  'poll.open': { poll: Poll };
  'poll.vote': { poll: Poll };
  'poll.close': { poll: Poll };

  /** `duplicate` when this send was a retry of one already stored (nothing new was posted). */
  'chat.send': { message: ChatMessage; duplicate: boolean };
  /** Newest first; pass `nextBefore` as `before` for the next page (null: no older messages). */
  'chat.history': { messages: ChatMessage[]; nextBefore: string | null };
  'chat.delete': { messageId: string };
  'chat.edit': { message: ChatMessage };
  'chat.pin': { message: ChatMessage };
  'chat.unpin': { message: ChatMessage };
  /** Pinned messages, newest first. */
  'chat.pins': { messages: ChatMessage[]; nextBefore: string | null };

  /** The message's reactions after the change. */
  'chat.react': { messageId: string; reactions: ChatReaction[] };
  'chat.unreact': { messageId: string; reactions: ChatReaction[] };
  'reaction.send': { sent: true };
  'danmaku.send': { comment: DanmakuComment };
  /** By position, earliest first; at most danmakuPerItemMax. */
  'danmaku.list': { comments: DanmakuComment[] };

  'webrtc.join': { iceServers: IceServer[] };
  /** ICE servers (TURN credentials included) for this caller, and everyone in the call, the caller last. */
  'voice.join': { iceServers: IceServer[]; participants: VoiceParticipant[] };
  /** False when the caller was not in the call. */
  'voice.leave': { left: boolean };
  'voice.mute': { participant: VoiceParticipant };
  'voice.signal': { delivered: true };

  'stage.start': { share: StageShare };
  /** False when there was no such share. */
  'stage.stop': { stopped: boolean };
  /**
   * `identity`: the caller's participant identity in the call (their user or guest id);
   * `sources`: what they may publish now (screen_share only while they hold a share);
   * `moderator`: may mute others and stop their shares; `cameraRefused`: why `camera` is not
   * among the sources although they hold use_webrtc (the room's bandwidth, sfu.roomMaxKbps).
   */
  'call.admit': { identity: string; name: string; sources: CallSource[]; moderator: boolean; cameraRefused?: string };
  'call.mute': { muted: boolean };

  'live.authorize': { item: MediaItem; online: boolean };
  'live.status': { online: boolean; changed: boolean };
}

export type RoomResultOf<K extends RoomCommandKind> = RoomResults[K];
