/**
 * The room records as the public API shows them (the views of `actors/room/model.ts`), each
 * defined once and named in the OpenAPI document. Times are server milliseconds since the
 * epoch, as the room actor and the realtime gateway send them. A leaf module: zod, the room
 * limits and the permission names only, so clients can share it.
 */
import { z } from 'zod';
import { oneLineText } from '../../../text/safe-text.js';
import { ROOM_LIMITS } from '../../../actors/room/limits.js';
import { QUEUE_MODES } from '../../../actors/room/model.js';
import { GUEST_PERMISSION_CEILING } from '../../../permissions/defaults.js';
import { isAdministration, isPermission, PERMISSIONS } from '../../../permissions/names.js';

const ms = (description: string) => z.number().int().meta({ description: `${description} (server ms since the epoch)` });

export const RoomRole = z.enum(['admin', 'member', 'guest']).meta({ id: 'RoomRole' });
export const RoomVisibility = z.enum(['public', 'hidden']).meta({ id: 'RoomVisibility', description: 'public rooms are listed; hidden ones are reachable by id only' });
export const RoomStatus = z.enum(['pending_review', 'active', 'rejected']).meta({ id: 'RoomStatus' });
export const MemberStatus = z.enum(['active', 'pending', 'banned']).meta({ id: 'MemberStatus' });
export const QueueMode = z.enum(QUEUE_MODES).meta({
  id: 'QueueMode',
  description: 'When an item ends: stop, play the next (stopping after the last), repeat this item, repeat the list, or play a random other item',
});
/** A media length in seconds as a player saw it (the room keeps the longest reported). */
export const mediaDuration = z.number().positive().max(ROOM_LIMITS.positionMaxSeconds).meta({ description: 'The media length in seconds as the player saw it' });
export const Permission = z.enum(PERMISSIONS).meta({ id: 'Permission', description: 'docs/2026-11-21-permissions.md' });

const notAPermission = (input: unknown): string => `${(JSON.stringify(input) ?? String(input)).slice(0, 64)} is not a permission name`;

/**
 * A role's override list as the room accepts it (actors/room/validate.ts): any permission for
 * admins, none of the administration ones for members, the guest ceiling for guests.
 */
export const overrideLists = {
  admin: z.array(Permission).max(64),
  member: z
    .array(z.enum(PERMISSIONS.filter((name) => !isAdministration(name)), { error: (issue) => (isPermission(issue.input) ? `${issue.input} belong to the admin role; make the user an admin instead` : notAPermission(issue.input)) }))
    .max(64),
  guest: z
    .array(z.enum(GUEST_PERMISSION_CEILING, { error: (issue) => (isPermission(issue.input) ? `${issue.input} is above the guest ceiling (${GUEST_PERMISSION_CEILING.join(', ')})` : notAPermission(issue.input)) }))
    .max(64)
    .meta({ description: `At most ${GUEST_PERMISSION_CEILING.join(', ')}` }),
};

export const PermissionOverrides = z
  .strictObject({ admin: z.array(Permission).optional(), member: z.array(Permission).optional(), guest: z.array(Permission).optional() })
  .meta({ id: 'PermissionOverrides', description: 'Per role, the set replacing the runtime default in this room; an absent role uses the default.' });

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
    permissionOverrides: PermissionOverrides,
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

const PlayerReport = z.strictObject({ state: z.enum(['buffering', 'ready', 'ended']), mediaId: z.string().nullable() });

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
  })
  .meta({ id: 'MemberView' });

export const Subtitle = z.strictObject({ name: z.string(), url: z.string(), language: z.string().optional() }).meta({ id: 'Subtitle' });

const Seekable = z.enum(['yes', 'no', 'unknown', 'checking']).meta({
  description: 'Whether players can jump in it: yes (range requests or HLS), no (seeks refused but back to 0), unknown (the check failed), checking',
});

export const MediaItem = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    url: z.string(),
    provider: z.string().meta({ description: 'direct, hls, live, or a provider plugin name' }),
    headers: z.record(z.string(), z.string()),
    subtitles: z.array(Subtitle),
    live: z.boolean(),
    proxy: z.boolean(),
    seekable: Seekable,
    addedBy: z.string(),
    addedAt: ms('Added'),
  })
  .meta({ id: 'MediaItem' });

export const NowPlaying = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    provider: z.string(),
    live: z.boolean(),
    subtitles: z.array(Subtitle),
    onAir: z.boolean().optional().meta({ description: 'Only for an item of the live provider: on air when this was sent' }),
    seekable: Seekable,
  })
  .meta({
    id: 'NowPlaying',
    description: 'What is playing, as every member sees it (guests included); GET .../playlist/{mediaId}/play answers how to play it',
  });

export const PlaybackView = z
  .strictObject({
    mediaId: z.string().nullable(),
    playing: z.boolean(),
    position: z.number().meta({ description: 'Seconds into the media at updatedAt; while playing, now = position + (now - updatedAt) / 1000 * rate' }),
    rate: z.number(),
    updatedAt: ms('When position was true'),
    version: z.number().int().meta({ description: 'Bumped by every change; send as expectVersion to refuse acting on a stale view' }),
    waitingForReady: z.strictObject({ userIds: z.array(z.string()), deadline: ms('Plays anyway at') }).nullable(),
    item: NowPlaying.nullable().meta({ description: 'The item mediaId names; null when nothing is selected' }),
  })
  .meta({ id: 'PlaybackView' });

export const ChatMessage = z
  .strictObject({
    id: z.string().meta({ description: 'Decimal string; larger ids are newer' }),
    userId: z.string(),
    name: z.string(),
    text: z.string(),
    pinned: z.boolean(),
    createdAt: ms('Posted'),
  })
  .meta({ id: 'ChatMessage' });

export const MyStanding = z
  .strictObject({
    userId: z.string(),
    status: z.enum(['active', 'pending', 'banned', 'none']),
    role: RoomRole.nullable(),
    isOwner: z.boolean(),
    permissions: z.array(Permission).meta({ description: 'Effective now (empty unless an active member)' }),
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

export const MemberRoomView = z
  .strictObject({
    access: z.literal('member'),
    room: RoomInfo,
    me: MyStanding,
    members: z.array(MemberView).optional().meta({ description: 'With view_member_list' }),
    pendingMembers: z.array(MemberView).optional().meta({ description: 'Join requests, with manage_members' }),
    bannedMembers: z.array(MemberView).optional().meta({ description: 'With manage_members: the first page of bans by user id (GET /bans pages through all)' }),
    bannedCount: z.number().int().optional().meta({ description: 'With manage_members: every ban of the room' }),
    playlist: z.array(MediaItem).optional().meta({ description: 'With view_media_resources' }),
    liveOnline: z
      .array(z.string())
      .optional()
      .meta({ description: 'Ids of the live items on air now: all of them with view_media_resources, else at most the current item' }),
    voice: z.array(VoiceParticipant).optional().meta({ description: "With use_webrtc: who is in the room's voice call, in join order" }),
    playback: PlaybackView,
    seq: z.number().int().meta({ description: 'The last room event this view reflects; realtime events after it continue it' }),
  })
  .meta({ id: 'MemberRoomView' });

export const VisitorRoomView = z
  .strictObject({ access: z.literal('visitor'), room: RoomPreview, me: MyStanding, seq: z.number().int() })
  .meta({ id: 'VisitorRoomView' });

export const RoomView = z.discriminatedUnion('access', [MemberRoomView, VisitorRoomView]).meta({ id: 'RoomView' });

/** An entry of a room listing (the public directory, "my rooms", the admin listing). */
export const RoomSummary = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    visibility: RoomVisibility,
    status: RoomStatus,
    hasPassword: z.boolean(),
    requireJoinApproval: z.boolean(),
    memberCount: z.number().int().meta({ description: 'Active members' }),
    createdAt: ms('Created'),
  })
  .meta({ id: 'RoomSummary' });

export const RoomPage = z
  .strictObject({
    rooms: z.array(RoomSummary),
    nextCursor: z.string().optional().meta({ description: 'Pass as cursor for the next page; absent on the last' }),
  })
  .meta({ id: 'RoomPage' });

/** The room's event seq when the actor answered: realtime events up to it are reflected. */
export const seq = z.number().int().meta({ description: 'The room event seq when the command was answered' });

export const PlaybackAnswer = z.strictObject({ playback: PlaybackView, seq }).meta({ id: 'PlaybackAnswer' });

/** Path parameters shared by every room endpoint. */
export const roomId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: 'must be a room id (letters, digits, "_" and "-")' })
  .meta({ description: 'The room id (from POST /api/rooms or a link)' });
export const userId = oneLineText().min(1).max(128).meta({ description: 'A member\'s user id (a guest\'s is guest:<session>)' });
export const mediaId = oneLineText().min(1).max(64);
export const messageId = z
  .string()
  .regex(/^[1-9][0-9]{0,18}$/, { error: 'must be a message id (a positive decimal integer)' })
  // Nineteen digits reach past PostgreSQL's bigint; BigInt() only runs on digits.
  .refine((id) => !/^[0-9]+$/.test(id) || BigInt(id) <= 9223372036854775807n, { error: 'must be a message id (at most 9223372036854775807)' })
  .meta({ description: 'A chat message id' });

/** Guards against acting on a stale view (answered with `conflict`). */
export const playbackGuards = {
  expectMediaId: oneLineText().max(64).nullable().optional().meta({ description: 'Refuse (conflict) unless this media is current' }),
  expectVersion: z.number().int().min(0).optional().meta({ description: 'Refuse (conflict) unless playback is at this version' }),
};

export const position = z.number().min(0).max(ROOM_LIMITS.positionMaxSeconds).meta({ description: 'Seconds' });

/**
 * Request headers of a room POST: an idempotency key. A retried request with the same key
 * (same caller, operation and room) runs once and gets the first answer; see
 * docs/2026-11-23-rooms-api.md.
 */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/, { error: 'must be 1..128 visible ASCII characters' })
    .optional()
    .meta({ description: 'Makes a retry of this request run once (same caller, operation and room)' }),
});
