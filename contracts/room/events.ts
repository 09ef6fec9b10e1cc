/**
 * Events a room publishes on `<prefix>.room.<id>.evt`. Each carries enough for a client to
 * update its view without re-reading; a client that sees a gap in `seq` re-reads `room.get`.
 * Each event is a zod schema and its type is inferred from it, so the gRPC messages
 * (proto/svc/v1/events.proto) are generated from the same place; the schemas are not parsed
 * with at run time (the room builds its events).
 */
import { z } from 'zod';
import type { Permission } from '../permissions/names.js';
import {
  ChatMessage,
  ChatReaction,
  DanmakuComment,
  Headcount,
  MediaItem,
  MemberView,
  PlaylistFolder,
  PlaybackView,
  Poll,
  QueueVotes,
  RoomInfo,
  Seekable,
  VoiceParticipant,
  StageShare,
  VoteSkip,
  type VoiceCandidate,
  type VoiceDescription,
} from './model.js';
import { Reaction } from './reactions.js';
import { ReachHow } from './reach.js';
import { WordFilter } from './moderation.js';

const index = z.number().int().nonnegative();

export const MemberLeftReason = z.enum(['left', 'kicked', 'banned', 'rejected']);
export type MemberLeftReason = z.infer<typeof MemberLeftReason>;

/** `left`: voice.leave; `disconnected`: the connection that joined left the room; `removed`: no longer a member, or lost use_webrtc. */
export const VoiceLeftReason = z.enum(['left', 'disconnected', 'removed']);
export type VoiceLeftReason = z.infer<typeof VoiceLeftReason>;

/**
 * Why playback changed: the command kind, or what the room did by itself: `playback.voteSkip`,
 * members voted the current item away (playback.voteSkip reached the threshold); `ready`,
 * everyone present became ready and the held play started; `ready.timeout`, the ready wait ran
 * out and the room played without the members in `leftBehind`; `buffering`, a member started
 * buffering and the room paused for them (it resumes when all are ready).
 */
export const PlaybackCause = z
  .enum([
    'playback.play',
    'playback.pause',
    'playback.seek',
    'playback.rate',
    'playback.next',
    'playback.previous',
    'playback.ended',
    'playback.voteSkip',
    'playlist.setCurrent',
    'playlist.remove',
    'playlist.clear',
    'ready',
    'ready.timeout',
    'buffering',
  ])
  .meta({
    description:
      'Why playback changed: the command, or what the room did by itself: ready (everyone present became ready: the held play started), ' +
      'ready.timeout (the ready wait ran out: the room played without the members in left_behind), buffering (a member started buffering: ' +
      'the room paused for them), playback.voteSkip (members voted the current item away).',
  });
export type PlaybackCause = z.infer<typeof PlaybackCause>;

// Playlist folders: indices count top-level entries; added/moved item indices count within item.folderId.
export const PlaylistAdded = z.strictObject({ type: z.literal('playlist'), op: z.literal('added'), item: MediaItem, index });
export const PlaylistMoved = z.strictObject({
  type: z.literal('playlist'),
  op: z.literal('moved'),
  mediaId: z.string(),
  toIndex: index.meta({ description: "Within the target container (folder_id's items, or the top-level entries)" }),
  folderId: z.string().nullable().meta({ description: 'The folder it is now in; absent: the top level' }),
});
export const PlaylistRemoved = z.strictObject({ type: z.literal('playlist'), op: z.literal('removed'), mediaId: z.string() });
export const PlaylistCleared = z.strictObject({ type: z.literal('playlist'), op: z.literal('cleared') });
export const PlaylistEdited = z.strictObject({ type: z.literal('playlist'), op: z.literal('edited'), item: MediaItem });
export const PlaylistFolderAdded = z.strictObject({ type: z.literal('playlist'), op: z.literal('folderAdded'), folder: PlaylistFolder });
export const PlaylistFolderRenamed = z.strictObject({ type: z.literal('playlist'), op: z.literal('folderRenamed'), folderId: z.string(), title: z.string() });
export const PlaylistFolderMoved = z.strictObject({
  type: z.literal('playlist'),
  op: z.literal('folderMoved'),
  folderId: z.string(),
  toIndex: index.meta({ description: 'Among the top-level entries' }),
});
export const PlaylistFolderRemoved = z.strictObject({
  type: z.literal('playlist'),
  op: z.literal('folderRemoved'),
  folderId: z.string(),
  withItems: z.boolean().meta({ description: 'True: its items went with it; false: they stay where they were, at the top level' }),
});

export const PlaylistEvent = z.discriminatedUnion('op', [
  PlaylistAdded,
  PlaylistMoved,
  PlaylistRemoved,
  PlaylistCleared,
  PlaylistEdited,
  PlaylistFolderAdded,
  PlaylistFolderRenamed,
  PlaylistFolderMoved,
  PlaylistFolderRemoved,
]);
export type PlaylistEvent = z.infer<typeof PlaylistEvent>;

export const RoomUpdated = z.strictObject({ type: z.literal('room.updated'), room: RoomInfo });
export const RoomDeleted = z.strictObject({ type: z.literal('room.deleted'), roomId: z.string() });
export const MemberJoined = z.strictObject({ type: z.literal('member.joined'), member: MemberView });
export const MemberRequested = z.strictObject({ type: z.literal('member.requested'), member: MemberView }).meta({ description: 'A join request waiting for approval.' });
export const MemberLeft = z.strictObject({
  type: z.literal('member.left'),
  userId: z.string(),
  reason: MemberLeftReason,
  by: z.string().nullable().meta({ description: 'Who removed them; absent when they left by themselves' }),
  quiet: z.literal(true).optional().meta({ description: "A crowd's plain member leaving by themselves: only their own connections receive it" }),
});
export const MemberUpdated = z.strictObject({ type: z.literal('member.updated'), member: MemberView }).meta({ description: 'Role, online state or player state changed.' });
export const MemberBanned = z.strictObject({ type: z.literal('member.banned'), member: MemberView, by: z.string() });
export const HeadcountChanged = z
  .strictObject({
    type: z.literal('headcount'),
    headcount: Headcount,
    relist: z.literal(true).optional().meta({ description: 'The room stopped being a crowd: gateways answer it with a fresh snapshot, whose list is whole again; clients never receive it' }),
  })
  .meta({ description: 'How many members the room has and how many are online, at most once a second; and whether it is a crowd (docs/2026-11-30-crowds.md).' });
export const MemberUnbanned = z.strictObject({ type: z.literal('member.unbanned'), userId: z.string(), by: z.string() });
export const PlaybackChanged = z.strictObject({
  type: z.literal('playback'),
  playback: PlaybackView,
  cause: PlaybackCause,
  by: z.string().nullable().meta({ description: 'Absent when the room changed it by itself' }),
  leftBehind: z.array(z.string()).optional().meta({ description: 'With cause ready.timeout: the members the room stopped waiting for' }),
});
export const ChatMessagePosted = z.strictObject({ type: z.literal('chat.message'), message: ChatMessage });
export const ChatMessageDeleted = z.strictObject({ type: z.literal('chat.deleted'), messageId: z.string(), by: z.string() });
export const ChatMessageEdited = z
  .strictObject({ type: z.literal('chat.edited'), message: ChatMessage })
  .meta({ description: 'Its author edited a message: the whole message as it is now (text, editedAt, mentions).' });
export const ChatMessagePinned = z.strictObject({ type: z.literal('chat.pinned'), message: ChatMessage, by: z.string() }).meta({ description: 'Pinned or unpinned: message.pinned tells which.' });
export const ChatReactionsChanged = z
  .strictObject({ type: z.literal('chat.reactions'), messageId: z.string(), reactions: z.array(ChatReaction), by: z.string() })
  .meta({ description: "A message's reactions changed: reactions is its whole list now." });
export const VideoReaction = z
  .strictObject({ type: z.literal('reaction'), userId: z.string(), reaction: Reaction })
  .meta({ description: 'A reaction over the video from user_id: transient, shown for a moment and forgotten.' });
export const DanmakuPosted = z
  .strictObject({ type: z.literal('danmaku'), comment: DanmakuComment })
  .meta({ description: "A danmaku comment, to show now (its sender's position is the room's position, within the tolerance)." });
export const VoiceJoined = z.strictObject({ type: z.literal('voice.joined'), participant: VoiceParticipant });
export const VoiceLeft = z.strictObject({ type: z.literal('voice.left'), userId: z.string(), reason: VoiceLeftReason });
export const VoiceMuted = z.strictObject({ type: z.literal('voice.muted'), userId: z.string(), muted: z.boolean() });
/** Addressed to `to` alone: gateways deliver it to nobody else (see gateways/rooms/member-lens.ts). */
export const VoiceSignal = z.strictObject({
  type: z.literal('voice.signal'),
  from: z.string(),
  to: z.string(),
  description: z.custom<VoiceDescription>().optional(),
  candidate: z.custom<VoiceCandidate>().nullable().optional(),
});
/**
 * Why a share ended: `stopped` by the sharer; `moderator`: by someone with manage_members;
 * `left`: the sharer left the room or the call; `removed`: no longer a member, or lost
 * share_screen; `sfu`: the SFU lost the sharer's media (their node failed and they did not come back).
 */
export const StageStopReason = z.enum(['stopped', 'moderator', 'left', 'removed', 'sfu']);
export type StageStopReason = z.infer<typeof StageStopReason>;
export const StageStarted = z
  .strictObject({ type: z.literal('stage.started'), share: StageShare })
  .meta({ description: 'Someone started showing a screen: the room shows it as the stage.' });
export const StageStopped = z
  .strictObject({ type: z.literal('stage.stopped'), userId: z.string(), reason: StageStopReason, by: z.string().optional() })
  .meta({ description: "A share ended; `by`: who stopped it, when not the sharer." });
export const CallMuted = z
  .strictObject({ type: z.literal('call.muted'), userId: z.string(), by: z.string() })
  .meta({ description: "A moderator muted someone's microphone in the SFU call." });
export const LiveStatusChanged = z
  .strictObject({ type: z.literal('live'), mediaId: z.string(), online: z.boolean() })
  .meta({ description: 'A live item went on air (its RTMP publish started) or off it.' });
export const MediaChecked = z
  .strictObject({ type: z.literal('media.checked'), mediaId: z.string(), seekable: Seekable, reachHow: ReachHow.nullable() })
  .meta({
    description:
      "An item's checks answered (whether it seeks, how it reaches browsers): for those who see the playlist, and for everyone when it is the current item, whose NowPlaying it updates.",
  });
export const VoteSkipChanged = z
  .strictObject({ type: z.literal('vote.skip'), voteSkip: VoteSkip })
  .meta({ description: 'The votes to skip the current item changed (a vote, a retraction, the threshold).' });
export const PollChanged = z
  .strictObject({ type: z.literal('poll'), poll: Poll })
  .meta({ description: 'A poll opened, was voted in (the counts), or closed (closed_at); never with my_choice.' });
export const QueueVotesChanged = z
  .strictObject({ type: z.literal('queue.votes'), queueVotes: QueueVotes })
  .meta({ description: "An item's up-votes changed (a vote, or it started playing in the voting queue mode)." });
export const WordFilterChanged = z
  .strictObject({ type: z.literal('room.wordFilter'), wordFilter: WordFilter })
  .meta({ description: 'The word filter changed: for the holders of edit_room_settings alone, like the list itself.' });
export const RoomActivated = z.strictObject({ type: z.literal('room.activated') }).meta({
  description:
    'The room came back on a new activation after the one before ended uncleanly (a crash, a lost lease): what that one held in memory (the stage, the voice call, presence) is gone. Gateways answer it with a fresh snapshot; clients never receive it.',
});

export const RoomEvent = z.discriminatedUnion('type', [
  RoomUpdated,
  RoomDeleted,
  MemberJoined,
  MemberRequested,
  MemberLeft,
  MemberUpdated,
  MemberBanned,
  MemberUnbanned,
  HeadcountChanged,
  PlaybackChanged,
  PlaylistEvent,
  ChatMessagePosted,
  ChatMessageDeleted,
  ChatMessageEdited,
  ChatMessagePinned,
  ChatReactionsChanged,
  VideoReaction,
  DanmakuPosted,
  VoiceJoined,
  VoiceLeft,
  VoiceMuted,
  VoiceSignal,
  StageStarted,
  StageStopped,
  CallMuted,
  LiveStatusChanged,
  MediaChecked,
  VoteSkipChanged,
  PollChanged,
  QueueVotesChanged,
  WordFilterChanged,
  RoomActivated,
]);
export type RoomEvent = z.infer<typeof RoomEvent>;

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
  // Everyone may know how many watch with them (a visitor's preview counts members too).
  headcount: null,
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
  // The stage takes the video's place: everyone in the room sees who shows what.
  'stage.started': null,
  'stage.stopped': null,
  'call.muted': 'use_webrtc',
  // The current item's reaches every member (gateways/rooms/member-lens.ts).
  live: 'view_media_resources',
  // Likewise: the current item's reaches every member.
  'media.checked': 'view_media_resources',
  // The count is part of watching together, like playback.
  'vote.skip': null,
  poll: null,
  'queue.votes': 'view_media_resources',
  // Who sees the list could write around it.
  'room.wordFilter': 'edit_room_settings',
  // Turned into a snapshot by each watch (gateways/rooms/room-watch.ts).
  'room.activated': null,
});
