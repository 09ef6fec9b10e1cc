/**
 * Events a room publishes on `<prefix>.room.<id>.evt`. Each carries enough for a client to
 * update its view without re-reading; a client that sees a gap in `seq` re-reads `room.get`.
 */
import type { Permission } from '../permissions/names.js';
import type { ChatMessage, ChatReaction, DanmakuComment, MediaItem, MemberView, PlaylistFolder, PlaybackView, Poll, QueueVotes, RoomInfo, VoiceCandidate, VoiceDescription, VoiceParticipant, VoteSkip } from './model.js';
import type { ReactionName } from './reactions.js';
import type { WordFilter } from './moderation.js';

export type MemberLeftReason = 'left' | 'kicked' | 'banned' | 'rejected';

/** `left`: voice.leave; `disconnected`: the connection that joined left the room; `removed`: no longer a member, or lost use_webrtc. */
export type VoiceLeftReason = 'left' | 'disconnected' | 'removed';

/** Why playback changed: the command kind, or what the room did by itself. */
export type PlaybackCause =
  | 'playback.play'
  | 'playback.pause'
  | 'playback.seek'
  | 'playback.rate'
  | 'playback.next'
  | 'playback.previous'
  | 'playback.ended'
  /** Members voted the current item away (playback.voteSkip reached the threshold). */
  | 'playback.voteSkip'
  | 'playlist.setCurrent'
  | 'playlist.remove'
  | 'playlist.clear'
  /** Everyone present became ready: the held play started. */
  | 'ready'
  /** The ready wait ran out: the room played without the members in `leftBehind`. */
  | 'ready.timeout'
  /** A member started buffering: the room paused for them (it resumes when all are ready). */
  | 'buffering';

export type PlaylistEvent =
  | { type: 'playlist'; op: 'added'; item: MediaItem; index: number }
  | { type: 'playlist'; op: 'moved'; mediaId: string; toIndex: number; folderId: string | null }
  | { type: 'playlist'; op: 'removed'; mediaId: string }
  | { type: 'playlist'; op: 'cleared' }
  | { type: 'playlist'; op: 'edited'; item: MediaItem }
  // Playlist folders: indices count top-level entries; added/moved item indices count within item.folderId.
  | { type: 'playlist'; op: 'folderAdded'; folder: PlaylistFolder }
  | { type: 'playlist'; op: 'folderRenamed'; folderId: string; title: string }
  | { type: 'playlist'; op: 'folderMoved'; folderId: string; toIndex: number }
  | { type: 'playlist'; op: 'folderRemoved'; folderId: string; withItems: boolean };

export type RoomEvent =
  | { type: 'room.updated'; room: RoomInfo }
  | { type: 'room.deleted'; roomId: string }
  | { type: 'member.joined'; member: MemberView }
  /** A join request waiting for approval. */
  | { type: 'member.requested'; member: MemberView }
  | { type: 'member.left'; userId: string; reason: MemberLeftReason; by: string | null }
  /** Role, online state or player state changed. */
  | { type: 'member.updated'; member: MemberView }
  | { type: 'member.banned'; member: MemberView; by: string }
  | { type: 'member.unbanned'; userId: string; by: string }
  | { type: 'playback'; playback: PlaybackView; cause: PlaybackCause; by: string | null; leftBehind?: string[] }
  | PlaylistEvent
  | { type: 'chat.message'; message: ChatMessage }
  | { type: 'chat.deleted'; messageId: string; by: string }
  /** Its author edited it: `message` is the whole message now (text, editedAt, mentions). */
  | { type: 'chat.edited'; message: ChatMessage }
  /** Pinned or unpinned: `message.pinned` tells which. */
  | { type: 'chat.pinned'; message: ChatMessage; by: string }
  /** A message's reactions changed: `reactions` is its whole list now. */
  | { type: 'chat.reactions'; messageId: string; reactions: ChatReaction[]; by: string }
  /** A reaction over the video from `userId`: transient, shown for a moment and forgotten. */
  | { type: 'reaction'; userId: string; reaction: ReactionName }
  /** A danmaku comment, to show now (its sender's position is the room's position, within the tolerance). */
  | { type: 'danmaku'; comment: DanmakuComment }
  | { type: 'voice.joined'; participant: VoiceParticipant }
  | { type: 'voice.left'; userId: string; reason: VoiceLeftReason }
  | { type: 'voice.muted'; userId: string; muted: boolean }
  /** Addressed to `to` alone: gateways deliver it to nobody else (see gateways/rooms/member-lens.ts). */
  | { type: 'voice.signal'; from: string; to: string; description?: VoiceDescription; candidate?: VoiceCandidate | null }
  /** A live item went on air (its RTMP publish started) or off it. */
  | { type: 'live'; mediaId: string; online: boolean }
  /** The votes to skip the current item changed (a vote, a retraction, the threshold). */
  | { type: 'vote.skip'; voteSkip: VoteSkip }
  /** A poll opened, was voted in (the counts), or closed (`closedAt`); never with `myChoice`. */
  | { type: 'poll'; poll: Poll }
  /** An item's up-votes changed (a vote, or it started playing in the voting queue mode). */
  | { type: 'queue.votes'; queueVotes: QueueVotes }
  /** The word filter changed: for the holders of edit_room_settings alone, like the list itself. */
  | { type: 'room.wordFilter'; wordFilter: WordFilter };

export type RoomEventType = RoomEvent['type'];

/**
 * The permission a member needs to receive each event; null means every active member.
 * Gateways filter with it, and deliver `member.*` events about a user to that user whatever
 * their permissions (a kicked member learns it).
 */
export const EVENT_PERMISSION: Readonly<Record<RoomEventType, Permission | null>> = Object.freeze({
  'room.updated': null,
  'room.deleted': null,
  'member.joined': 'view_member_list',
  'member.requested': 'manage_members',
  'member.left': 'view_member_list',
  'member.updated': 'view_member_list',
  'member.banned': 'manage_members',
  'member.unbanned': 'manage_members',
  playback: null,
  playlist: 'view_media_resources',
  // Live chat is part of being in the room; view_chat_history guards earlier messages only.
  'chat.message': null,
  'chat.deleted': null,
  'chat.edited': null,
  'chat.pinned': null,
  'chat.reactions': null,
  reaction: null,
  danmaku: null,
  'voice.joined': 'use_webrtc',
  'voice.left': 'use_webrtc',
  'voice.muted': 'use_webrtc',
  // Further narrowed to its addressee by the gateways.
  'voice.signal': 'use_webrtc',
  // The current item's reaches every member (gateways/rooms/member-lens.ts).
  live: 'view_media_resources',
  // The count is part of watching together, like playback.
  'vote.skip': null,
  poll: null,
  'queue.votes': 'view_media_resources',
  // Who sees the list could write around it.
  'room.wordFilter': 'edit_room_settings',
});
