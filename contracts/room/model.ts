/**
 * The room as it leaves the room actor: the views its members and visitors see, over every
 * transport (HTTP bodies, WebSocket frames, gRPC messages mirror them; proto/svc/v1/room.proto is
 * checked against them by test/contracts/proto-parity.test.ts). Each is a zod schema, named in the
 * OpenAPI document, and its type is inferred from it. Views never carry the password hash; times
 * are server milliseconds since the epoch.
 */
import { z } from 'zod';
import { PERMISSIONS } from '../permissions/names.js';
import { Subtitle } from './subtitles.js';
import { MediaReach, ReachHow } from './reach.js';
import { Reaction } from './reactions.js';
import { WordFilter } from './moderation.js';

export const ROOM_ROLES = ['admin', 'member', 'guest'] as const;
/** What the room does when the current item ends (docs/2026-11-26-queue-modes.md). */
export const QUEUE_MODES = ['stop', 'next', 'repeat_one', 'repeat_all', 'shuffle', 'vote'] as const;

/** A server time (ms since the epoch), described. */
export const ms = (description: string) => z.number().int().meta({ description: `${description} (server ms since the epoch)` });

export const RoomRole = z.enum(ROOM_ROLES).meta({ id: 'RoomRole' });
export const RoomVisibility = z.enum(['public', 'hidden']).meta({ id: 'RoomVisibility', description: 'public rooms are listed; hidden ones are reachable by id only' });
export const RoomStatus = z.enum(['pending_review', 'active', 'rejected']).meta({ id: 'RoomStatus' });
export const MemberStatus = z.enum(['active', 'pending', 'banned']).meta({ id: 'MemberStatus' });
export const QueueMode = z.enum(QUEUE_MODES).meta({
  id: 'QueueMode',
  description: 'When an item ends: stop, play the next (stopping after the last), repeat this item, repeat the list, play a random other item, or the most up-voted one (vote)',
});
export const Permission = z.enum(PERMISSIONS).meta({ id: 'Permission', description: 'docs/2026-11-21-permissions.md' });

export const PermissionOverrides = z
  .strictObject({ admin: z.array(Permission).optional(), member: z.array(Permission).optional(), guest: z.array(Permission).optional() })
  .meta({ id: 'PermissionOverrides', description: 'Per role, the set replacing the runtime default in this room; an absent role uses the default.' });

/**
 * One member's own permissions on top of their role's (docs/2026-11-26-member-permissions.md):
 * `grant` adds to the role's set, `deny` takes away from it; the guest ceiling and the admin
 * role's hold on administration still apply.
 */
export const MemberPermissionOverride = z
  .strictObject({
    grant: z.array(Permission).meta({ description: 'Held on top of the role' }),
    deny: z.array(Permission).meta({ description: 'Not held, whatever the role says' }),
  })
  .meta({ id: 'MemberPermissionOverride' });

export const RoomInfo = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    ownerId: z.string(),
    visibility: RoomVisibility,
    status: RoomStatus,
    hasPassword: z.boolean(),
    requireJoinApproval: z.boolean(),
    waitForAllReady: z.boolean(),
    readyTimeoutMs: z.number().int(),
    queueMode: QueueMode,
    voteSkipPercent: z.number().int().meta({ description: 'Vote-skip threshold: the share (percent) of present members holding vote who must vote to skip; 0: off' }),
    danmaku: z.boolean().meta({ description: 'Comments pinned to media times scroll over the video (off by default)' }),
    permissionOverrides: PermissionOverrides,
    slowModeSeconds: z.number().int().meta({ description: 'Slow mode: each member may send one chat message (and one danmaku comment) per this many seconds; 0: off' }),
    createdAt: ms('Created'),
    updatedAt: ms('Last changed'),
  })
  .meta({ id: 'RoomInfo', description: 'A room as its members see it.' });

export const RoomPreview = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    visibility: RoomVisibility,
    status: RoomStatus,
    hasPassword: z.boolean(),
    requireJoinApproval: z.boolean(),
    memberCount: z.number().int(),
  })
  .meta({ id: 'RoomPreview', description: 'What someone who is not a member sees: enough to decide to join.' });

export const PlayerState = z.enum(['buffering', 'ready', 'ended']);
const PlayerReport = z.strictObject({ state: PlayerState, mediaId: z.string().nullable() });

export const MemberView = z
  .strictObject({
    userId: z.string(),
    name: z.string(),
    role: RoomRole,
    status: MemberStatus,
    guest: z.boolean(),
    isOwner: z.boolean(),
    joinedAt: ms('Joined (or asked to, or was banned)'),
    online: z.boolean().meta({ description: 'Has a live connection in the room' }),
    player: PlayerReport.nullable().meta({ description: 'The last player state reported while online' }),
    permissionOverride: MemberPermissionOverride.nullable().meta({ description: "This member's own grants and denials on top of the role; null: the role's alone" }),
  })
  .meta({ id: 'MemberView' });

export const Headcount = z
  .strictObject({
    members: z.number().int().meta({ description: 'Active members' }),
    online: z.number().int().meta({ description: 'Members with a live connection' }),
    crowd: z.boolean().meta({
      description: 'The room is a crowd: its views list only the owner and admins, the rest are read a page at a time (GET /members), and plain members coming, going and playing are counted here, not told one by one',
    }),
  })
  .meta({ id: 'Headcount' });

export { Subtitle };

export const Seekable = z.enum(['yes', 'no', 'unknown', 'checking']).meta({
  description: 'Whether players can jump in it: yes (range requests or HLS), no (seeks refused but back to 0), unknown (the check failed), checking',
});

export const MediaItem = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    url: z.string(),
    provider: z.string().meta({ description: 'direct, hls, live, or a provider plugin name' }),
    headers: z.record(z.string(), z.string()).meta({
      description: 'Request headers the upstream needs; the values only for those who may edit the item (edit_media_resource, or its adder), empty for everyone else',
    }),
    subtitles: z.array(Subtitle),
    live: z.boolean(),
    proxy: z.boolean(),
    seekable: Seekable,
    reach: MediaReach.nullable().meta({ description: "How the media reaches browsers (probed when added); null until known or when it cannot be probed (not a file, no transcoder)" }),
    addedBy: z.string(),
    addedAt: ms('Added'),
    folderId: z.string().nullable().meta({ description: 'The playlist folder holding the item; null at the top level' }),
  })
  .meta({ id: 'MediaItem' });

/** A playlist folder: its items are the MediaItems whose folderId is its id, in playlist order. */
export const PlaylistFolder = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    index: z.number().int().meta({ description: "The folder's position among the playlist's top-level entries (folders and items outside folders)" }),
    createdBy: z.string(),
    createdAt: ms('Created'),
  })
  .meta({ id: 'PlaylistFolder' });

export const NowPlaying = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    provider: z.string(),
    live: z.boolean(),
    subtitles: z.array(Subtitle),
    onAir: z.boolean().optional().meta({ description: 'Only for an item of the live or pull provider: on air when this was sent' }),
    seekable: Seekable,
    reachHow: ReachHow.nullable().meta({ description: "How it reaches browsers (its probe's reach.how); null until known. A player loads it again when this changes: the play answer differs" }),
  })
  .meta({
    id: 'NowPlaying',
    description: 'What is playing, as every member sees it (guests included); GET .../playlist/{mediaId}/play answers how to play it',
  });

/**
 * The authoritative playback state: `position` (seconds) was true at `updatedAt`; while
 * `playing`, the position now is `position + (now - updatedAt) / 1000 * rate`.
 */
export const PlaybackState = z.strictObject({
  mediaId: z.string().nullable(),
  playing: z.boolean(),
  position: z.number().meta({ description: 'Seconds into the media at updatedAt; while playing, now = position + (now - updatedAt) / 1000 * rate' }),
  rate: z.number(),
  updatedAt: ms('When position was true'),
  version: z.number().int().meta({ description: 'Bumped by every change; send as expectVersion to refuse acting on a stale view' }),
});
export type PlaybackState = z.infer<typeof PlaybackState>;

/** A wait for every present member to be ready before playing (room option `waitForAllReady`). */
export const ReadyWait = z.strictObject({
  userIds: z.array(z.string()).meta({ description: 'Present members not ready yet, when the wait began or last changed' }),
  deadline: ms('Plays anyway at'),
});
export type ReadyWait = z.infer<typeof ReadyWait>;

export const PlaybackView = PlaybackState.extend({
  waitingForReady: ReadyWait.nullable().meta({ description: 'Set while play is held back for members who are still loading' }),
  item: NowPlaying.nullable().meta({ description: 'The item mediaId names; null when nothing is selected' }),
}).meta({ id: 'PlaybackView' });

/** One reaction on a chat message: who gave it, in the order they did. */
export const ChatReaction = z
  .strictObject({
    reaction: Reaction,
    userIds: z.array(z.string()).meta({ description: 'Members who reacted so, earliest first; the count is its length' }),
  })
  .meta({ id: 'ChatReaction' });

/** The message a reply answers, as it is now: its sender and first characters, or that it was deleted since. */
export const ChatReplyTo = z
  .strictObject({
    id: z.string().meta({ description: 'The answered message' }),
    deleted: z.boolean().meta({ description: 'The answered message was deleted since; userId, name and excerpt are then empty' }),
    userId: z.string(),
    name: z.string(),
    excerpt: z.string().meta({ description: "The answered message's first 100 characters (an ellipsis when cut)" }),
  })
  .meta({ id: 'ChatReplyTo' });

export const ChatMessage = z
  .strictObject({
    id: z.string().meta({ description: 'Decimal string; larger ids are newer' }),
    userId: z.string(),
    name: z.string(),
    text: z.string(),
    pinned: z.boolean(),
    createdAt: ms('Posted'),
    reactions: z.array(ChatReaction).meta({ description: 'In the order of the reaction set; only reactions someone gave' }),
    replyTo: ChatReplyTo.optional().meta({ description: 'Set when the message answers another' }),
    editedAt: ms('Last edited by its author').optional(),
    mentions: z.array(z.string()).meta({ description: 'User ids of the members the text mentions (@name), notified when it was sent' }),
  })
  .meta({ id: 'ChatMessage' });

/** A danmaku comment: pinned to `position` (seconds) of media item `mediaId`. */
export const DanmakuComment = z
  .strictObject({
    id: z.string().meta({ description: 'Decimal string; larger ids are newer' }),
    mediaId: z.string(),
    position: z.number().meta({ description: 'Seconds into the item where it was sent' }),
    userId: z.string(),
    name: z.string(),
    text: z.string(),
    createdAt: ms('Sent'),
  })
  .meta({ id: 'DanmakuComment' });

export const MyStanding = z
  .strictObject({
    userId: z.string(),
    status: z.enum(['active', 'pending', 'banned', 'none']),
    role: RoomRole.nullable(),
    isOwner: z.boolean(),
    permissions: z.array(Permission).meta({ description: 'Effective now (empty unless an active member)' }),
    permissionOverride: MemberPermissionOverride.nullable().meta({ description: "The caller's own grants and denials on top of the role" }),
  })
  .meta({ id: 'MyStanding' });

export const VoiceParticipant = z
  .strictObject({
    userId: z.string(),
    name: z.string(),
    muted: z.boolean(),
    joinedAt: ms('Joined the call'),
  })
  .meta({ id: 'VoiceParticipant' });

/**
 * A screen, window or tab shown to the room through the SFU (docs/2026-11-29-sfu.md): the room
 * shows it as the stage in place of the video while it lasts.
 */
export const StageShare = z
  .strictObject({
    userId: z.string(),
    name: z.string(),
    startedAt: ms('Started sharing'),
    keepPlaying: z.boolean().meta({ description: 'The synced item plays on under the share; false: the room paused it when the share began' }),
  })
  .meta({ id: 'StageShare' });

/** What one may send to the room's SFU call (a LiveKit track source). */
export const CALL_SOURCES = ['microphone', 'camera', 'screen_share', 'screen_share_audio'] as const;
export const CallSource = z.enum(CALL_SOURCES).meta({ id: 'CallSource' });

/**
 * The room's two SFU rooms (sfu/room-name.ts): `stage`, the screens shown, for every member;
 * `call`, voices and cameras, for members with use_webrtc.
 */
export const SFU_PART_NAMES = ['call', 'stage'] as const;
export const SfuPart = z.enum(SFU_PART_NAMES).meta({ id: 'SfuPart' });

/**
 * The votes to skip the current item (docs/2026-11-26-votes-and-polls.md): `needed` of the
 * present members holding `vote` skip it; `voters` are those who voted and are still present.
 */
export const VoteSkip = z
  .strictObject({
    mediaId: z.string(),
    votes: z.number().int(),
    needed: z.number().int(),
    voters: z.array(z.string()),
  })
  .meta({ id: 'VoteSkip' });

/** Up-votes on one playlist item in the voting queue mode: the most voted plays next. */
export const QueueVotes = z
  .strictObject({ mediaId: z.string(), votes: z.number().int(), voters: z.array(z.string()) })
  .meta({ id: 'QueueVotes' });

/** A poll (docs/2026-11-26-votes-and-polls.md): single choice, counts per option, in `options` order. */
export const Poll = z
  .strictObject({
    id: z.string(),
    question: z.string(),
    options: z.array(z.string()),
    counts: z.array(z.number().int()),
    createdBy: z.string(),
    createdAt: ms('Opened'),
    closesAt: ms('When its timer closes it').nullable(),
    closedAt: ms('Closed').nullable(),
    myChoice: z.number().int().optional().meta({ description: "The caller's choice (index into options); in views and answers, never in events" }),
  })
  .meta({ id: 'Poll' });

export const MemberRoomView = z
  .strictObject({
    access: z.literal('member'),
    room: RoomInfo,
    me: MyStanding,
    members: z.array(MemberView).optional().meta({ description: 'With view_member_list: every active member, or in a crowd the owner and admins' }),
    headcount: Headcount,
    pendingMembers: z.array(MemberView).optional().meta({ description: 'Join requests, with manage_members' }),
    bannedMembers: z.array(MemberView).optional().meta({ description: 'With manage_members: the first page of bans by user id (GET /bans pages through all)' }),
    bannedCount: z.number().int().optional().meta({ description: 'With manage_members: every ban of the room' }),
    playlist: z.array(MediaItem).optional().meta({ description: 'With view_media_resources' }),
    playlistFolders: z.array(PlaylistFolder).optional().meta({ description: "With view_media_resources: the playlist's folders, by index" }),
    liveOnline: z
      .array(z.string())
      .optional()
      .meta({ description: 'Ids of the live items on air now: all of them with view_media_resources, else at most the current item' }),
    voice: z.array(VoiceParticipant).optional().meta({ description: "With use_webrtc: who is in the room's voice call, in join order" }),
    stage: z.array(StageShare).optional().meta({ description: 'The screens shared now, oldest first (absent: none)' }),
    voteSkip: VoteSkip.optional().meta({ description: 'When the room has vote-skip on and an item is current' }),
    queueVotes: z.array(QueueVotes).optional().meta({ description: 'In the voting queue mode: the items with up-votes' }),
    polls: z.array(Poll).optional().meta({ description: 'The open poll first, then closed ones, newest first' }),
    wordFilter: WordFilter.optional().meta({ description: "With edit_room_settings: the room's word filter" }),
    playback: PlaybackView,
    seq: z.number().int().meta({ description: 'The last room event this view reflects; realtime events after it continue it' }),
  })
  .meta({ id: 'MemberRoomView' });

export const VisitorRoomView = z
  .strictObject({ access: z.literal('visitor'), room: RoomPreview, me: MyStanding, seq: z.number().int() })
  .meta({ id: 'VisitorRoomView' });

export const RoomView = z.discriminatedUnion('access', [MemberRoomView, VisitorRoomView]).meta({ id: 'RoomView' });

export type RoomRole = z.infer<typeof RoomRole>;
export type Headcount = z.infer<typeof Headcount>;
export type RoomVisibility = z.infer<typeof RoomVisibility>;
export type RoomStatus = z.infer<typeof RoomStatus>;
export type MemberStatus = z.infer<typeof MemberStatus>;
export type QueueMode = z.infer<typeof QueueMode>;
export type Permission = z.infer<typeof Permission>;
export type PermissionOverrides = z.infer<typeof PermissionOverrides>;
export type MemberPermissionOverride = z.infer<typeof MemberPermissionOverride>;
export type RoomInfo = z.infer<typeof RoomInfo>;
export type RoomPreview = z.infer<typeof RoomPreview>;
export type PlayerState = z.infer<typeof PlayerState>;
export type MemberView = z.infer<typeof MemberView>;
export type Seekable = z.infer<typeof Seekable>;
export type MediaItem = z.infer<typeof MediaItem>;
export type PlaylistFolder = z.infer<typeof PlaylistFolder>;
export type NowPlaying = z.infer<typeof NowPlaying>;
export type PlaybackView = z.infer<typeof PlaybackView>;
export type ChatMessage = z.infer<typeof ChatMessage>;
export type ChatReaction = z.infer<typeof ChatReaction>;
export type ChatReplyTo = z.infer<typeof ChatReplyTo>;
export type DanmakuComment = z.infer<typeof DanmakuComment>;
export type MyStanding = z.infer<typeof MyStanding>;
export type VoiceParticipant = z.infer<typeof VoiceParticipant>;
export type StageShare = z.infer<typeof StageShare>;
export type CallSource = z.infer<typeof CallSource>;
export type SfuPart = z.infer<typeof SfuPart>;
export type VoteSkip = z.infer<typeof VoteSkip>;
export type Poll = z.infer<typeof Poll>;
export type QueueVotes = z.infer<typeof QueueVotes>;
export type MemberRoomView = z.infer<typeof MemberRoomView>;
export type VisitorRoomView = z.infer<typeof VisitorRoomView>;
export type RoomView = z.infer<typeof RoomView>;

/** A WebRTC session description (RTCSessionDescriptionInit) relayed between two participants. */
export interface VoiceDescription {
  type: 'offer' | 'answer' | 'pranswer' | 'rollback';
  sdp?: string;
}

/** An ICE candidate (RTCIceCandidateInit) relayed between two participants. */
export interface VoiceCandidate {
  candidate: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
  usernameFragment?: string | null;
}

/**
 * An ICE server handed to clients (`webrtc.externalIceServers`), in the shape of the WebRTC
 * `RTCIceServer` dictionary with `urls` always an array.
 */
export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}
