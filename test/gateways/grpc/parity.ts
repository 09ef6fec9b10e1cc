/**
 * The actor's views restated as the API's messages, written from the .proto documentation
 * (not with the gateway's mapping code), so the parity tests compare the gRPC answers with
 * what `RoomClient` answers for the same room.
 */
import { connect, type NatsConnection } from 'nats';
import type { MediaReach } from '../../../contracts/room/reach.js';
import type { UserCaller } from '../../../accounts/model.js';
import type { ChatMessage, MediaItem, MemberView, PlaybackView, RoomInfo } from '../../../actors/room/index.js';
import { ActorClient } from '../../../actors/runtime/client.js';
import { RoomClient } from '../../../gateways/rooms/room-client.js';
import type { GatewayBed, Member } from '../bed.js';

const upper = (prefix: string, value: string): string => `${prefix}_${value.replace(/[A-Z]/g, (c) => `_${c}`).replace(/\./g, '_').toUpperCase()}`;

export function roomInfoMessage(room: RoomInfo): Record<string, unknown> {
  const list = (role: 'admin' | 'member' | 'guest') => (room.permissionOverrides[role] ? { permissions: room.permissionOverrides[role] } : null);
  return {
    id: room.id,
    name: room.name,
    ownerId: room.ownerId,
    visibility: upper('ROOM_VISIBILITY', room.visibility),
    status: upper('ROOM_STATUS', room.status),
    hasPassword: room.hasPassword,
    requireJoinApproval: room.requireJoinApproval,
    waitForAllReady: room.waitForAllReady,
    readyTimeoutMs: room.readyTimeoutMs,
    queueMode: upper('QUEUE_MODE', room.queueMode),
    voteSkipPercent: room.voteSkipPercent,
    danmaku: room.danmaku,
    permissionOverrides: { admin: list('admin'), member: list('member'), guest: list('guest') },
    slowModeSeconds: room.slowModeSeconds,
    createdAt: room.createdAt,
    updatedAt: room.updatedAt,
  };
}

export function memberMessage(member: MemberView): Record<string, unknown> {
  return {
    userId: member.userId,
    name: member.name,
    role: upper('ROOM_ROLE', member.role),
    status: upper('MEMBER_STATUS', member.status),
    guest: member.guest,
    isOwner: member.isOwner,
    joinedAt: member.joinedAt,
    online: member.online,
    player: member.player ? { state: upper('PLAYER_STATE', member.player.state), ...(member.player.mediaId ? { mediaId: member.player.mediaId } : {}) } : null,
    permissionOverride: member.permissionOverride ? { grant: [...member.permissionOverride.grant], deny: [...member.permissionOverride.deny] } : null,
  };
}

export function mediaMessage(item: MediaItem): Record<string, unknown> {
  // folder_id is proto3 optional: absent at the top level.
  const { folderId, ...rest } = item;
  return {
    ...rest,
    ...(folderId !== null ? { folderId } : {}),
    headers: Object.entries(item.headers).map(([name, value]) => ({ name, value })),
    subtitles: item.subtitles.map((subtitle) => ({ ...subtitle })),
    seekable: upper('MEDIA_SEEKABLE', item.seekable),
    reach: item.reach ? reachMessage(item.reach) : null,
  };
}

/** What is playing as the .proto has it: its reach's how by name, absent until known. */
function nowPlayingMessage(item: NonNullable<PlaybackView['item']>): Record<string, unknown> {
  const { reachHow, ...rest } = item;
  return {
    ...rest,
    subtitles: item.subtitles.map((subtitle) => ({ ...subtitle })),
    seekable: upper('MEDIA_SEEKABLE', item.seekable),
    ...(reachHow !== null ? { reachHow: upper('MEDIA_REACH_HOW', reachHow) } : {}),
  };
}

/** A reach as the .proto has it: enums by name, nulls absent. */
function reachMessage(reach: MediaReach): Record<string, unknown> {
  const present = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
  return present({
    ...reach,
    how: upper('MEDIA_REACH_HOW', reach.how),
    videoTreatment: reach.videoTreatment && upper('STREAM_TREATMENT', reach.videoTreatment),
    audioTreatment: reach.audioTreatment && upper('STREAM_TREATMENT', reach.audioTreatment),
    blockers: reach.blockers.map((blocker) => ({ ...blocker, kind: upper('BLOCKER_KIND', blocker.kind) })),
    imageSubtitles: reach.imageSubtitles.map((subtitle) => present({ ...subtitle })),
    facts: present({ ...reach.facts, hdr: reach.facts.hdr && upper('HDR_TRANSFER', reach.facts.hdr) }),
  });
}

export function playbackMessage(playback: PlaybackView): Record<string, unknown> {
  const { mediaId, waitingForReady, item, ...rest } = playback;
  return {
    ...rest,
    ...(mediaId !== null ? { mediaId } : {}),
    waitingForReady: waitingForReady ? { ...waitingForReady } : null,
    item: item ? nowPlayingMessage(item) : null,
  };
}

export function chatMessageMessage(message: ChatMessage): Record<string, unknown> {
  // A message field not set reads as null over gRPC.
  return { ...message, replyTo: message.replyTo ? { ...message.replyTo } : null };
}

/** RoomClient over its own NATS connection, speaking for the bed's members. */
export async function actorSide(bed: GatewayBed): Promise<{ rooms: RoomClient; callerOf(member: Member): UserCaller; close(): Promise<void> }> {
  const nc: NatsConnection = await connect({ servers: bed.config.nats.url });
  return {
    rooms: new RoomClient(new ActorClient(nc, bed.config.nats.subject_prefix)),
    callerOf: (member) => ({ kind: 'user', userId: member.userId, sessionId: member.sessionId, username: member.username, displayName: member.username, role: 'user' }),
    close: () => nc.close(),
  };
}

/**
 * A decoded message without the virtual discriminators proto-loader adds for proto3 `optional`
 * fields (`_mediaId: 'mediaId'`), to compare with a plain object.
 */
export function plain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(plain) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !key.startsWith('_')).map(([key, inner]) => [key, plain(inner)])) as T;
}
