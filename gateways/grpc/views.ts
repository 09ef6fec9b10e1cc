/**
 * The room actor's views (actors/room/model.ts, events.ts) as the API's messages. Field names
 * are the same by construction (the protos use the actor's names); what is mapped here is
 * enums (`public` <-> `ROOM_VISIBILITY_PUBLIC`) and null (absent). Each function returns the
 * generated `__Output` type, so a field added to a message but not filled fails to compile, and
 * each enum table is a `Record` over the actor's union, so a value added there fails too.
 */
import type { RoomEvent as ActorRoomEvent, MemberLeftReason as ActorLeftReason, PlaybackCause as ActorCause } from '../../contracts/room/events.js';
import type * as model from '../../contracts/room/model.js';
import type { ChatMessage__Output } from './gen/svc/v1/ChatMessage.js';
import type { MediaItem__Output } from './gen/svc/v1/MediaItem.js';
import type { MediaSeekable__Output } from './gen/svc/v1/MediaSeekable.js';
import type { Member__Output } from './gen/svc/v1/Member.js';
import type { MemberLeftReason__Output } from './gen/svc/v1/MemberLeftReason.js';
import type { MemberRoomView__Output } from './gen/svc/v1/MemberRoomView.js';
import type { MemberStatus__Output } from './gen/svc/v1/MemberStatus.js';
import type { MyStanding__Output } from './gen/svc/v1/MyStanding.js';
import type { NowPlaying__Output } from './gen/svc/v1/NowPlaying.js';
import type { PermissionOverrides__Output } from './gen/svc/v1/PermissionOverrides.js';
import type { Playback__Output } from './gen/svc/v1/Playback.js';
import type { PlaybackCause__Output } from './gen/svc/v1/PlaybackCause.js';
import type { PlayerState__Output } from './gen/svc/v1/PlayerState.js';
import type { QueueMode__Output } from './gen/svc/v1/QueueMode.js';
import type { RoomEvent__Output } from './gen/svc/v1/RoomEvent.js';
import type { RoomInfo__Output } from './gen/svc/v1/RoomInfo.js';
import type { RoomPreview__Output } from './gen/svc/v1/RoomPreview.js';
import type { RoomRole__Output } from './gen/svc/v1/RoomRole.js';
import type { RoomStatus__Output } from './gen/svc/v1/RoomStatus.js';
import type { RoomView__Output } from './gen/svc/v1/RoomView.js';
import type { RoomVisibility__Output } from './gen/svc/v1/RoomVisibility.js';
import type { Subtitle__Output } from './gen/svc/v1/Subtitle.js';
import type { VoteSkip__Output } from './gen/svc/v1/VoteSkip.js';
import type { Poll__Output } from './gen/svc/v1/Poll.js';
import type { PlaylistFolder__Output } from './gen/svc/v1/PlaylistFolder.js';
import type { QueueVotes__Output } from './gen/svc/v1/QueueVotes.js';
import type { WordFilter__Output } from './gen/svc/v1/WordFilter.js';
import type { WordFilterMode__Output } from './gen/svc/v1/WordFilterMode.js';
import type { WordFilter as WordFilterView, WordFilterMode } from '../../contracts/room/moderation.js';

export const WORD_FILTER_MODE = { mask: 'WORD_FILTER_MODE_MASK', block: 'WORD_FILTER_MODE_BLOCK' } as const satisfies Record<WordFilterMode, WordFilterMode__Output>;

export function wordFilter(filter: WordFilterView): WordFilter__Output {
  return { mode: WORD_FILTER_MODE[filter.mode], words: [...filter.words] };
}

export const VISIBILITY = { public: 'ROOM_VISIBILITY_PUBLIC', hidden: 'ROOM_VISIBILITY_HIDDEN' } as const satisfies Record<model.RoomVisibility, RoomVisibility__Output>;
export const ROOM_STATUS = {
  pending_review: 'ROOM_STATUS_PENDING_REVIEW',
  active: 'ROOM_STATUS_ACTIVE',
  rejected: 'ROOM_STATUS_REJECTED',
} as const satisfies Record<model.RoomStatus, RoomStatus__Output>;
export const ROLE = { admin: 'ROOM_ROLE_ADMIN', member: 'ROOM_ROLE_MEMBER', guest: 'ROOM_ROLE_GUEST' } as const satisfies Record<model.RoomRole, RoomRole__Output>;
export const SEEKABLE = {
  yes: 'MEDIA_SEEKABLE_YES',
  no: 'MEDIA_SEEKABLE_NO',
  unknown: 'MEDIA_SEEKABLE_UNKNOWN',
  checking: 'MEDIA_SEEKABLE_CHECKING',
} as const satisfies Record<model.Seekable, MediaSeekable__Output>;
export const MEMBER_STATUS = {
  active: 'MEMBER_STATUS_ACTIVE',
  pending: 'MEMBER_STATUS_PENDING',
  banned: 'MEMBER_STATUS_BANNED',
  none: 'MEMBER_STATUS_NONE',
} as const satisfies Record<model.MemberStatus | 'none', MemberStatus__Output>;
export const PLAYER_STATE = {
  buffering: 'PLAYER_STATE_BUFFERING',
  ready: 'PLAYER_STATE_READY',
  ended: 'PLAYER_STATE_ENDED',
} as const satisfies Record<model.PlayerState, PlayerState__Output>;
export const QUEUE_MODE = {
  stop: 'QUEUE_MODE_STOP',
  next: 'QUEUE_MODE_NEXT',
  repeat_one: 'QUEUE_MODE_REPEAT_ONE',
  repeat_all: 'QUEUE_MODE_REPEAT_ALL',
  shuffle: 'QUEUE_MODE_SHUFFLE',
  vote: 'QUEUE_MODE_VOTE',
} as const satisfies Record<model.QueueMode, QueueMode__Output>;
const LEFT_REASON = {
  left: 'MEMBER_LEFT_REASON_LEFT',
  kicked: 'MEMBER_LEFT_REASON_KICKED',
  banned: 'MEMBER_LEFT_REASON_BANNED',
  rejected: 'MEMBER_LEFT_REASON_REJECTED',
} as const satisfies Record<ActorLeftReason, MemberLeftReason__Output>;
const CAUSE = {
  'playback.play': 'PLAYBACK_CAUSE_PLAYBACK_PLAY',
  'playback.pause': 'PLAYBACK_CAUSE_PLAYBACK_PAUSE',
  'playback.seek': 'PLAYBACK_CAUSE_PLAYBACK_SEEK',
  'playback.rate': 'PLAYBACK_CAUSE_PLAYBACK_RATE',
  'playback.next': 'PLAYBACK_CAUSE_PLAYBACK_NEXT',
  'playback.previous': 'PLAYBACK_CAUSE_PLAYBACK_PREVIOUS',
  'playback.ended': 'PLAYBACK_CAUSE_PLAYBACK_ENDED',
  'playlist.setCurrent': 'PLAYBACK_CAUSE_PLAYLIST_SET_CURRENT',
  'playlist.remove': 'PLAYBACK_CAUSE_PLAYLIST_REMOVE',
  'playlist.clear': 'PLAYBACK_CAUSE_PLAYLIST_CLEAR',
  ready: 'PLAYBACK_CAUSE_READY',
  'ready.timeout': 'PLAYBACK_CAUSE_READY_TIMEOUT',
  buffering: 'PLAYBACK_CAUSE_BUFFERING',
  'playback.voteSkip': 'PLAYBACK_CAUSE_PLAYBACK_VOTE_SKIP',
} as const satisfies Record<ActorCause, PlaybackCause__Output>;

/** The actor's value for an enum the client sent; undefined for UNSPECIFIED (or a number we do not know). */
export function fromEnum<A extends string>(table: Readonly<Record<A, string>>, value: string | number | null | undefined): A | undefined {
  if (typeof value !== 'string') return undefined;
  return (Object.keys(table) as A[]).find((key) => table[key] === value);
}

function permissionOverrides(overrides: model.PermissionOverrides): PermissionOverrides__Output {
  const list = (role: model.RoomRole) => (overrides[role] ? { permissions: [...overrides[role]] } : null);
  return { admin: list('admin'), member: list('member'), guest: list('guest') };
}

export function roomInfo(room: model.RoomInfo): RoomInfo__Output {
  return {
    id: room.id,
    name: room.name,
    ownerId: room.ownerId,
    visibility: VISIBILITY[room.visibility],
    status: ROOM_STATUS[room.status],
    hasPassword: room.hasPassword,
    requireJoinApproval: room.requireJoinApproval,
    waitForAllReady: room.waitForAllReady,
    readyTimeoutMs: room.readyTimeoutMs,
    queueMode: QUEUE_MODE[room.queueMode],
    voteSkipPercent: room.voteSkipPercent,
    danmaku: room.danmaku,
    permissionOverrides: permissionOverrides(room.permissionOverrides),
    slowModeSeconds: room.slowModeSeconds,
    createdAt: room.createdAt,
    updatedAt: room.updatedAt,
  };
}

function roomPreview(room: model.RoomPreview): RoomPreview__Output {
  return {
    id: room.id,
    name: room.name,
    visibility: VISIBILITY[room.visibility],
    status: ROOM_STATUS[room.status],
    hasPassword: room.hasPassword,
    requireJoinApproval: room.requireJoinApproval,
    memberCount: room.memberCount,
  };
}

export function member(view: model.MemberView): Member__Output {
  return {
    userId: view.userId,
    name: view.name,
    role: ROLE[view.role],
    status: MEMBER_STATUS[view.status],
    guest: view.guest,
    isOwner: view.isOwner,
    joinedAt: view.joinedAt,
    online: view.online,
    player: view.player ? { state: PLAYER_STATE[view.player.state], ...(view.player.mediaId !== null ? { mediaId: view.player.mediaId } : {}) } : null,
    ...permissionOverride(view.permissionOverride),
  };
}

/** A member's own grants and denials; null (the message absent) when there are none. */
function permissionOverride(override: model.MemberPermissionOverride | null): { permissionOverride: { grant: string[]; deny: string[] } | null } {
  return { permissionOverride: override ? { grant: [...override.grant], deny: [...override.deny] } : null };
}

const subtitle = (s: model.Subtitle): Subtitle__Output => ({
  name: s.name,
  ...(s.url !== undefined ? { url: s.url } : {}),
  ...(s.language !== undefined ? { language: s.language } : {}),
  ...(s.fileId !== undefined ? { fileId: s.fileId } : {}),
  ...(s.stream !== undefined ? { stream: s.stream } : {}),
  ...(s.format !== undefined ? { format: s.format } : {}),
  ...(s.default ? { default: true } : {}),
});

export function mediaItem(item: model.MediaItem): MediaItem__Output {
  return {
    id: item.id,
    title: item.title,
    url: item.url,
    provider: item.provider,
    headers: Object.entries(item.headers).map(([name, value]) => ({ name, value })),
    subtitles: item.subtitles.map(subtitle),
    live: item.live,
    proxy: item.proxy,
    seekable: SEEKABLE[item.seekable],
    addedBy: item.addedBy,
    addedAt: item.addedAt,
    ...(item.folderId !== null ? { folderId: item.folderId } : {}),
  };
}

export function playlistFolder(folder: model.PlaylistFolder): PlaylistFolder__Output {
  return { id: folder.id, title: folder.title, index: folder.index, createdBy: folder.createdBy, createdAt: folder.createdAt };
}

export function playback(state: model.PlaybackView): Playback__Output {
  return {
    ...(state.mediaId !== null ? { mediaId: state.mediaId } : {}),
    playing: state.playing,
    position: state.position,
    rate: state.rate,
    updatedAt: state.updatedAt,
    version: state.version,
    waitingForReady: state.waitingForReady ? { userIds: [...state.waitingForReady.userIds], deadline: state.waitingForReady.deadline } : null,
    item: state.item ? nowPlaying(state.item) : null,
  };
}

function nowPlaying(item: model.NowPlaying): NowPlaying__Output {
  return {
    id: item.id,
    title: item.title,
    provider: item.provider,
    live: item.live,
    subtitles: item.subtitles.map(subtitle),
    seekable: SEEKABLE[item.seekable],
    ...(item.onAir !== undefined ? { onAir: item.onAir } : {}),
  };
}

export function chatMessage(message: model.ChatMessage): ChatMessage__Output {
  return {
    id: message.id,
    userId: message.userId,
    name: message.name,
    text: message.text,
    pinned: message.pinned,
    createdAt: message.createdAt,
    reactions: message.reactions.map(chatReaction),
    replyTo: message.replyTo ? { ...message.replyTo } : null,
    ...(message.editedAt !== undefined ? { editedAt: message.editedAt } : {}),
    mentions: [...message.mentions],
  };
}

export function danmakuComment(comment: model.DanmakuComment): model.DanmakuComment {
  return { ...comment };
}

export function chatReaction(reaction: model.ChatReaction): { reaction: string; userIds: string[] } {
  return { reaction: reaction.reaction, userIds: [...reaction.userIds] };
}

function myStanding(me: model.MyStanding): MyStanding__Output {
  return {
    userId: me.userId,
    status: MEMBER_STATUS[me.status],
    ...(me.role !== null ? { role: ROLE[me.role] } : {}),
    isOwner: me.isOwner,
    permissions: [...me.permissions],
    ...permissionOverride(me.permissionOverride),
  };
}

const memberList = (members: model.MemberView[] | undefined) => (members ? { members: members.map(member) } : null);

export function memberRoomView(view: model.MemberRoomView): MemberRoomView__Output {
  return {
    room: roomInfo(view.room),
    me: myStanding(view.me),
    members: memberList(view.members),
    pendingMembers: memberList(view.pendingMembers),
    bannedMembers: memberList(view.bannedMembers),
    playlist: view.playlist ? { items: view.playlist.map(mediaItem) } : null,
    playlistFolders: (view.playlistFolders ?? []).map(playlistFolder),
    playback: playback(view.playback),
    seq: view.seq,
    liveOnline: [...(view.liveOnline ?? [])],
    ...(view.bannedCount !== undefined ? { bannedCount: view.bannedCount } : {}),
    voice: (view.voice ?? []).map((participant) => ({ ...participant })),
    ...(view.voteSkip ? { voteSkip: voteSkip(view.voteSkip) } : {}),
    polls: (view.polls ?? []).map(poll),
    queueVotes: (view.queueVotes ?? []).map(queueVotes),
    ...(view.wordFilter ? { wordFilter: wordFilter(view.wordFilter) } : {}),
  };
}

export function poll(view: model.Poll): Poll__Output {
  return {
    id: view.id,
    question: view.question,
    options: [...view.options],
    counts: [...view.counts],
    createdBy: view.createdBy,
    createdAt: view.createdAt,
    ...(view.closesAt !== null ? { closesAt: view.closesAt } : {}),
    ...(view.closedAt !== null ? { closedAt: view.closedAt } : {}),
    ...(view.myChoice !== undefined ? { myChoice: view.myChoice } : {}),
  };
}

export function queueVotes(votes: model.QueueVotes): QueueVotes__Output {
  return { mediaId: votes.mediaId, votes: votes.votes, voters: [...votes.voters] };
}

export function voteSkip(tally: model.VoteSkip): VoteSkip__Output {
  return { mediaId: tally.mediaId, votes: tally.votes, needed: tally.needed, voters: [...tally.voters] };
}

export function roomView(view: model.RoomView): RoomView__Output {
  if (view.access === 'member') return { member: memberRoomView(view), access: 'member' };
  return { visitor: { room: roomPreview(view.room), me: myStanding(view.me), seq: view.seq }, access: 'visitor' };
}

/**
 * One room event with its seq and publication time; null for voice events, which gRPC does
 * not carry (voice is signalled over the WebSocket gateway; a watcher sees a seq gap).
 */
export function roomEvent(event: ActorRoomEvent, seq: number, at: number): RoomEvent__Output | null {
  const base = { seq, at };
  switch (event.type) {
    case 'room.updated':
      return { ...base, roomUpdated: { room: roomInfo(event.room) }, event: 'roomUpdated' };
    case 'room.deleted':
      return { ...base, roomDeleted: { roomId: event.roomId }, event: 'roomDeleted' };
    case 'room.wordFilter':
      return { ...base, wordFilter: { wordFilter: wordFilter(event.wordFilter) }, event: 'wordFilter' };
    case 'member.joined':
      return { ...base, memberJoined: { member: member(event.member) }, event: 'memberJoined' };
    case 'member.requested':
      return { ...base, memberRequested: { member: member(event.member) }, event: 'memberRequested' };
    case 'member.left':
      return {
        ...base,
        memberLeft: { userId: event.userId, reason: LEFT_REASON[event.reason], ...(event.by !== null ? { by: event.by } : {}) },
        event: 'memberLeft',
      };
    case 'member.updated':
      return { ...base, memberUpdated: { member: member(event.member) }, event: 'memberUpdated' };
    case 'member.banned':
      return { ...base, memberBanned: { member: member(event.member), by: event.by }, event: 'memberBanned' };
    case 'member.unbanned':
      return { ...base, memberUnbanned: { userId: event.userId, by: event.by }, event: 'memberUnbanned' };
    case 'playback':
      return {
        ...base,
        playback: {
          playback: playback(event.playback),
          cause: CAUSE[event.cause],
          ...(event.by !== null ? { by: event.by } : {}),
          leftBehind: [...(event.leftBehind ?? [])],
        },
        event: 'playback',
      };
    case 'playlist':
      return { ...base, playlist: playlistOp(event), event: 'playlist' };
    case 'chat.message':
      return { ...base, chatMessage: { message: chatMessage(event.message) }, event: 'chatMessage' };
    case 'chat.deleted':
      return { ...base, chatDeleted: { messageId: event.messageId, by: event.by }, event: 'chatDeleted' };
    case 'chat.edited':
      return { ...base, chatEdited: { message: chatMessage(event.message) }, event: 'chatEdited' };
    case 'chat.pinned':
      return { ...base, chatPinned: { message: chatMessage(event.message), by: event.by }, event: 'chatPinned' };
    case 'chat.reactions':
      return { ...base, chatReactions: { messageId: event.messageId, reactions: event.reactions.map(chatReaction), by: event.by }, event: 'chatReactions' };
    case 'danmaku':
      return { ...base, danmaku: { comment: danmakuComment(event.comment) }, event: 'danmaku' };
    case 'reaction':
      return { ...base, reaction: { userId: event.userId, reaction: event.reaction }, event: 'reaction' };
    case 'voice.joined':
    case 'voice.left':
    case 'voice.muted':
    case 'voice.signal':
      return null;
    case 'live':
      return { ...base, live: { mediaId: event.mediaId, online: event.online }, event: 'live' };
    case 'vote.skip':
      return { ...base, voteSkip: { voteSkip: voteSkip(event.voteSkip) }, event: 'voteSkip' };
    case 'poll':
      return { ...base, poll: { poll: poll(event.poll) }, event: 'poll' };
    case 'queue.votes':
      return { ...base, queueVotes: { queueVotes: queueVotes(event.queueVotes) }, event: 'queueVotes' };
  }
}

function playlistOp(event: Extract<ActorRoomEvent, { type: 'playlist' }>): NonNullable<RoomEvent__Output['playlist']> {
  switch (event.op) {
    case 'added':
      return { added: { item: mediaItem(event.item), index: event.index }, op: 'added' };
    case 'moved':
      return { moved: { mediaId: event.mediaId, toIndex: event.toIndex, ...(event.folderId !== null ? { folderId: event.folderId } : {}) }, op: 'moved' };
    case 'removed':
      return { removed: { mediaId: event.mediaId }, op: 'removed' };
    case 'cleared':
      return { cleared: {}, op: 'cleared' };
    case 'edited':
      return { edited: { item: mediaItem(event.item) }, op: 'edited' };
    case 'folderAdded':
      return { folderAdded: { folder: playlistFolder(event.folder) }, op: 'folderAdded' };
    case 'folderRenamed':
      return { folderRenamed: { folderId: event.folderId, title: event.title }, op: 'folderRenamed' };
    case 'folderMoved':
      return { folderMoved: { folderId: event.folderId, toIndex: event.toIndex }, op: 'folderMoved' };
    case 'folderRemoved':
      return { folderRemoved: { folderId: event.folderId, withItems: event.withItems }, op: 'folderRemoved' };
  }
}
