/**
 * The commands a room accepts, as schemas: a command arrives as untrusted JSON from a gateway,
 * and its shape (types, lengths, unknown fields) is checked here before any handler runs.
 * Content rules that need more than a type (URL schemes, header syntax, chat text) live in
 * `validate.ts`; permissions in the handlers.
 */
import { z } from 'zod';
import { multiLineText, oneLineText, privateText } from '../text.js';
import { ROOM_LIMITS } from './limits.js';
import { subtitleInputs } from './subtitles.js';
import { QUEUE_MODES, ROOM_ROLES, SfuPart } from './model.js';
import { Reaction } from './reactions.js';
import { slowModeSeconds, wordFilterInput } from './moderation.js';
import { duration, mediaId, messageId, playbackGuards, position, startInMs, userId } from './fields.js';

const permissionList = z.array(oneLineText().max(64)).max(64);
const permissionOverrides = z.strictObject({
  admin: permissionList.nullable().optional(),
  member: permissionList.nullable().optional(),
  guest: permissionList.nullable().optional(),
});
const readyTimeoutMs = z.number().int().min(ROOM_LIMITS.readyTimeoutMinMs).max(ROOM_LIMITS.readyTimeoutMaxMs);
const queueMode = z.enum(QUEUE_MODES);
const pollId = messageId.meta({ description: 'A poll id' });
const voteSkipPercent = z.number().int().min(0).max(ROOM_LIMITS.voteSkipPercentMax);

/**
 * Fields of a media item as a client gives them; `validate.ts` checks the content. String
 * bounds here only cap the work done on hostile input: they count UTF-16 units, so they are
 * looser than the character limits that `validate.ts` applies.
 */
const mediaFields = {
  title: oneLineText().max(ROOM_LIMITS.titleMaxChars * 2),
  /** Required, except for a `live` item (the service fills it: validate.ts liveItemUrl). */
  url: oneLineText().max(ROOM_LIMITS.urlMaxChars).optional(),
  provider: oneLineText().max(32).optional(),
  headers: z.record(z.string().max(ROOM_LIMITS.headerNameMaxChars), z.string().max(ROOM_LIMITS.headerValueMaxChars)).optional(),
  subtitles: subtitleInputs().optional(),
  live: z.boolean().optional(),
  proxy: z.boolean().optional(),
};

const folderId = oneLineText().min(1).max(64);
const folderTitle = oneLineText().max(ROOM_LIMITS.titleMaxChars * 2);

const command = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.strictObject({ kind: z.literal(kind), ...shape });

const SCHEMAS = {
  'room.create': command('room.create', {
    name: oneLineText().max(ROOM_LIMITS.nameMaxChars * 2),
    password: privateText().max(ROOM_LIMITS.passwordMaxChars).optional(),
    visibility: z.enum(['public', 'hidden']),
    requireJoinApproval: z.boolean().optional(),
    settings: z
      .strictObject({
        permissionOverrides: permissionOverrides.optional(),
        waitForAllReady: z.boolean().optional(),
        readyTimeoutMs: readyTimeoutMs.optional(),
        queueMode: queueMode.optional(),
        voteSkipPercent: voteSkipPercent.optional(),
        danmaku: z.boolean().optional(),
        slowModeSeconds: slowModeSeconds.optional(),
        wordFilter: wordFilterInput.optional(),
      })
      .optional(),
  }),
  'room.get': command('room.get', {}),
  'room.update': command('room.update', {
    name: oneLineText().max(ROOM_LIMITS.nameMaxChars * 2).optional(),
    /** A string sets the password; null (or an empty string) removes it. */
    password: privateText().max(ROOM_LIMITS.passwordMaxChars).nullable().optional(),
    visibility: z.enum(['public', 'hidden']).optional(),
    requireJoinApproval: z.boolean().optional(),
    /** Per role: a list replaces the default; null goes back to the runtime default. */
    permissionOverrides: permissionOverrides.optional(),
    waitForAllReady: z.boolean().optional(),
    readyTimeoutMs: readyTimeoutMs.optional(),
    queueMode: queueMode.optional(),
    voteSkipPercent: voteSkipPercent.optional(),
    danmaku: z.boolean().optional(),
    slowModeSeconds: slowModeSeconds.optional(),
    wordFilter: wordFilterInput.optional(),
  }),
  'room.delete': command('room.delete', {}),
  'room.review': command('room.review', { approve: z.boolean() }),

  'member.join': command('member.join', { password: privateText().max(ROOM_LIMITS.passwordMaxChars).optional() }),
  'member.leave': command('member.leave', {}),
  'member.approve': command('member.approve', { userId }),
  'member.reject': command('member.reject', { userId }),
  'member.kick': command('member.kick', { userId }),
  'member.ban': command('member.ban', { userId }),
  'member.unban': command('member.unban', { userId }),
  /** A page of bans, by user id: those after `after` (the previous page's `nextAfter`). */
  'member.bans': command('member.bans', {
    after: userId.optional(),
    limit: z.number().int().min(1).max(ROOM_LIMITS.banPageMaxLimit).optional(),
  }),
  /** A page of active members, by user id (view_member_list): how a crowd's list is read. */
  'member.list': command('member.list', {
    after: userId.optional(),
    limit: z.number().int().min(1).max(ROOM_LIMITS.memberPageMaxLimit).optional(),
    online: z.boolean().optional(),
    query: oneLineText().max(ROOM_LIMITS.memberQueryMaxChars).optional(),
  }),
  'member.setRole': command('member.setRole', { userId, role: z.enum(ROOM_ROLES) }),
  /** Replaces one member's own grants and denials (manage_members); both empty: the role's alone. */
  'member.setPermissions': command('member.setPermissions', { userId, grant: permissionList, deny: permissionList }),
  'owner.transfer': command('owner.transfer', { userId }),
  /**
   * The service only, closing an account that has left the room: its votes and reactions kept
   * anonymous, its polls by "Former member", its ban's name dropped, the room libraries it
   * connected removed (docs/2026-11-26-profiles-and-accounts.md).
   */
  'member.forget': command('member.forget', { userId }),

  'presence.enter': command('presence.enter', { connectionId: oneLineText().min(1).max(ROOM_LIMITS.connectionIdMaxChars) }),
  /** The heartbeat of a connection already announced: like `presence.enter`, without the room in the answer. */
  'presence.refresh': command('presence.refresh', { connectionId: oneLineText().min(1).max(ROOM_LIMITS.connectionIdMaxChars) }),
  'presence.leave': command('presence.leave', { connectionId: oneLineText().min(1).max(ROOM_LIMITS.connectionIdMaxChars) }),
  'member.player': command('member.player', {
    state: z.enum(['buffering', 'ready', 'ended']),
    mediaId: mediaId.nullable(),
    duration: duration.optional(),
  }),

  /** `folderId` (playlist folders): add into that folder; absent or null: the top level. */
  'playlist.push': command('playlist.push', { ...mediaFields, folderId: folderId.nullable().optional() }),
  /** `index` counts within the container: the folder's items, or the top-level entries (folders and items outside folders). */
  'playlist.insert': command('playlist.insert', { index: z.number().int().min(0), ...mediaFields, folderId: folderId.nullable().optional() }),
  /** `folderId` is the target container: a folder, null for the top level, absent for where the item is now. */
  'playlist.move': command('playlist.move', { mediaId, toIndex: z.number().int().min(0), folderId: folderId.nullable().optional() }),
  'playlist.remove': command('playlist.remove', { mediaId }),
  'playlist.clear': command('playlist.clear', {}),
  'playlist.setCurrent': command('playlist.setCurrent', { mediaId, ...playbackGuards }),
  /** An up-vote for an item in the voting queue mode (`vote: false` takes it back); needs vote. */
  'playlist.vote': command('playlist.vote', { mediaId, vote: z.boolean() }),
  /** May the caller play this item (the current one, or any with view_media_resources)? Answers the item. */
  'playlist.playable': command('playlist.playable', { mediaId }),
  /** Playlist folders (docs/2026-11-26-playlist-folders.md); `index` counts top-level entries. */
  'playlist.folder.add': command('playlist.folder.add', { title: folderTitle, index: z.number().int().min(0).optional() }),
  'playlist.folder.rename': command('playlist.folder.rename', { folderId, title: folderTitle }),
  'playlist.folder.move': command('playlist.folder.move', { folderId, toIndex: z.number().int().min(0) }),
  /** `withItems`: the folder's items go with it; false: they stay, at the top level where they were. */
  'playlist.folder.remove': command('playlist.folder.remove', { folderId, withItems: z.boolean() }),
  /** Plays the folder's first (or a random) item and goes on within it to its end (set_current_media). */
  'playlist.folder.play': command('playlist.folder.play', { folderId, order: z.enum(['in_order', 'shuffle']) }),
  'playlist.edit': command('playlist.edit', {
    mediaId,
    title: mediaFields.title.optional(),
    url: mediaFields.url,
    provider: mediaFields.provider,
    headers: mediaFields.headers,
    subtitles: mediaFields.subtitles,
    live: mediaFields.live,
    proxy: mediaFields.proxy,
  }),

  /**
   * `position`, when given, is where the sender's player is: play from there. `startInMs`, when
   * given, schedules the start that many ms ahead (from paused, or with a position).
   */
  'playback.play': command('playback.play', { position: position.optional(), startInMs: startInMs.optional(), ...playbackGuards }),
  /** `position`, when given, is where the sender's player stopped: everyone pauses there. */
  'playback.pause': command('playback.pause', { position: position.optional(), ...playbackGuards }),
  /** `startInMs`, when given and the room is playing, starts from `position` that many ms from now. */
  'playback.seek': command('playback.seek', { position, startInMs: startInMs.optional(), ...playbackGuards }),
  'playback.rate': command('playback.rate', {
    rate: z.number().min(ROOM_LIMITS.rateMin).max(ROOM_LIMITS.rateMax),
    ...playbackGuards,
  }),
  'playback.next': command('playback.next', playbackGuards),
  'playback.previous': command('playback.previous', playbackGuards),
  /**
   * A player reached the end of `mediaId` (`duration`: its length as that player saw it). The
   * room goes on by its queue mode once, however many report it, and only when its own clock
   * has reached the item's end (handlers/queue.ts).
   */
  'playback.ended': command('playback.ended', { mediaId, duration: duration.optional() }),
  /**
   * A vote to skip `mediaId` (the item the voter sees current); `vote: false` takes it back.
   * Needs `vote`; at the room's threshold the room skips (playback/vote-skip-handlers.ts).
   */
  'playback.voteSkip': command('playback.voteSkip', { mediaId, vote: z.boolean() }),

  /** Needs create_poll; one poll is open at a time. `durationMs`: closes by itself then. */
  'poll.open': command('poll.open', {
    question: oneLineText().max(ROOM_LIMITS.pollQuestionMaxChars * 2),
    options: z.array(oneLineText().max(ROOM_LIMITS.pollOptionMaxChars * 2)).min(ROOM_LIMITS.pollOptionsMin).max(ROOM_LIMITS.pollOptionsMax),
    durationMs: z.number().int().min(ROOM_LIMITS.pollDurationMinMs).max(ROOM_LIMITS.pollDurationMaxMs).optional(),
  }),
  /** Needs vote; a second vote changes the first, until the poll closes. */
  'poll.vote': command('poll.vote', { pollId, choice: z.number().int().min(0).max(ROOM_LIMITS.pollOptionsMax - 1) }),
  /** Its author, or a room admin. */
  'poll.close': command('poll.close', { pollId }),

  'chat.send': command('chat.send', {
    text: multiLineText().max(ROOM_LIMITS.chatMaxChars * 4),
    /** Client-chosen id making resends of one message idempotent (per sender). */
    clientMessageId: oneLineText().min(1).max(ROOM_LIMITS.clientMessageIdMaxChars).optional(),
    /** The message this one answers: in this room, not deleted. */
    replyTo: messageId.optional(),
  }),
  'chat.history': command('chat.history', {
    before: messageId.optional(),
    limit: z.number().int().min(1).max(ROOM_LIMITS.chatHistoryMaxLimit).optional(),
  }),
  /** One's own message, within chatEditWindowMs after sending; delete_chat holders delete any message any time. */
  'chat.delete': command('chat.delete', { messageId }),
  /** One's own message, by its author only, within chatEditWindowMs after sending; mentions are resolved again. */
  'chat.edit': command('chat.edit', { messageId, text: multiLineText().max(ROOM_LIMITS.chatMaxChars * 4) }),
  'chat.pin': command('chat.pin', { messageId }),
  'chat.unpin': command('chat.unpin', { messageId }),
  /** Pinned messages, newest first, a page at a time (as chat.history): at most 1000 may be pinned. */
  'chat.pins': command('chat.pins', {
    before: messageId.optional(),
    limit: z.number().int().min(1).max(ROOM_LIMITS.chatHistoryMaxLimit).optional(),
  }),

  /** Adds the caller's reaction to a message (send_chat); giving it twice is giving it once. */
  'chat.react': command('chat.react', { messageId, reaction: Reaction }),
  /** Takes the caller's reaction back; taking back one not given changes nothing. */
  'chat.unreact': command('chat.unreact', { messageId, reaction: Reaction }),
  /** A reaction over the video (send_chat): published to the members present, never stored. */
  'reaction.send': command('reaction.send', { reaction: Reaction }),

  /**
   * A danmaku comment at `position` of `mediaId`, where the sender's player is; it must be the
   * current item, within danmakuPositionToleranceSeconds of the room's clock (send_chat).
   */
  'danmaku.send': command('danmaku.send', { mediaId, position, text: oneLineText().max(ROOM_LIMITS.danmakuMaxChars * 4) }),
  /** The comments of one item, by position (view_chat_history). */
  'danmaku.list': command('danmaku.list', { mediaId }),

  'webrtc.join': command('webrtc.join', {}),
  /**
   * `connectionId` is set by the realtime gateway to the socket that sent the command (a
   * client's own value is overwritten): the participant leaves when that connection does.
   */
  'voice.join': command('voice.join', {
    connectionId: oneLineText().min(1).max(ROOM_LIMITS.connectionIdMaxChars).optional(),
    muted: z.boolean().optional(),
  }),
  'voice.leave': command('voice.leave', {}),
  'voice.mute': command('voice.mute', { muted: z.boolean() }),
  /** An offer, answer or rollback (`description`) or an ICE candidate (`candidate`, null: end of candidates) for one participant. */
  'voice.signal': command('voice.signal', {
    to: userId,
    description: z
      .strictObject({
        type: z.enum(['offer', 'answer', 'pranswer', 'rollback']),
        sdp: privateText().max(ROOM_LIMITS.voiceSdpMaxChars).optional(),
      })
      .optional(),
    candidate: z
      .strictObject({
        candidate: oneLineText().max(ROOM_LIMITS.voiceCandidateMaxChars),
        sdpMid: oneLineText().max(64).nullable().optional(),
        sdpMLineIndex: z.number().int().min(0).max(255).nullable().optional(),
        usernameFragment: oneLineText().max(256).nullable().optional(),
      })
      .nullable()
      .optional(),
  }),

  /**
   * Show a screen to the room (share_screen; the service needs an SFU). At most
   * `sfu.maxSharesPerRoom` at once, else conflict naming who shares. `keepPlaying`: the synced
   * item plays on under the share; absent or false: the room pauses it.
   */
  'stage.start': command('stage.start', { keepPlaying: z.boolean().optional() }),
  /** Stop a share: one's own (userId absent or one's own), anyone's with manage_members. */
  'stage.stop': command('stage.stop', { userId: userId.optional() }),
  /**
   * What the caller may send and receive in one of the room's SFU rooms (gateway-owned: the call
   * endpoint signs an SFU token from the answer; a client's own is refused). `stage`: every
   * member, publishing a screen while they hold a share; `call`: use_webrtc, else forbidden.
   */
  'call.admit': command('call.admit', { part: SfuPart }),
  /** Mute someone's microphone in the SFU call (manage_members); they may unmute themselves. */
  'call.mute': command('call.mute', { userId }),

  /** May the caller publish to this live item (see and rotate its stream key)? Answers the item. */
  'live.authorize': command('live.authorize', { mediaId }),
  /** The RTMP ingest (a service caller) says a live item went on air or off it. */
  'live.status': command('live.status', { mediaId, online: z.boolean() }),
} as const;

type Schemas = typeof SCHEMAS;
export type RoomCommandKind = keyof Schemas;
export type RoomCommandOf<K extends RoomCommandKind> = z.infer<Schemas[K]>;
/** Every command a room accepts, discriminated on `kind`. */
export type RoomCommand = { [K in RoomCommandKind]: RoomCommandOf<K> }[RoomCommandKind];

export const ROOM_COMMAND_KINDS = Object.freeze(Object.keys(SCHEMAS) as RoomCommandKind[]);

/** The schema of each command kind, for whoever validates commands (the room actor, the gateways). */
export const ROOM_COMMAND_SCHEMAS: { readonly [K in RoomCommandKind]: Schemas[K] } = SCHEMAS;

export function isRoomCommandKind(kind: unknown): kind is RoomCommandKind {
  return typeof kind === 'string' && Object.hasOwn(SCHEMAS, kind);
}
