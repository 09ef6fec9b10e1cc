/**
 * The room's records as the actor holds them in memory and stores them in PostgreSQL
 * (migration 0003), and the views of them that leave the actor. Views never carry the
 * password hash; timestamps are server milliseconds since the epoch.
 */
import type { Permission } from '../../permissions/names.js';

export const ROOM_ROLES = ['admin', 'member', 'guest'] as const;
export type RoomRole = (typeof ROOM_ROLES)[number];

export type RoomVisibility = 'public' | 'hidden';
/** `pending_review` until the room-review workflow decides (only with `room.createRoomNeedReview`). */
export type RoomStatus = 'pending_review' | 'active' | 'rejected';
export type MemberStatus = 'active' | 'pending' | 'banned';
export type PlayerState = 'buffering' | 'ready' | 'ended';

/** What the room does when the current item ends (docs/2026-11-26-queue-modes.md). */
export const QUEUE_MODES = ['stop', 'next', 'repeat_one', 'repeat_all', 'shuffle'] as const;
export type QueueMode = (typeof QUEUE_MODES)[number];

/** Per-role permission sets replacing the runtime default for that role in one room. */
export type PermissionOverrides = Partial<Record<RoomRole, Permission[]>>;

/** Per-room options, stored in `rooms.settings`. */
export interface RoomOptions {
  /** New members wait in `pending` until someone with `manage_members` approves them. */
  requireJoinApproval: boolean;
  permissionOverrides: PermissionOverrides;
  /** Play starts (and resumes after a member buffers) only when every present member is ready. */
  waitForAllReady: boolean;
  /** Longest wait for stragglers before playing anyway. */
  readyTimeoutMs: number;
  /** What plays when the current item ends. */
  queueMode: QueueMode;
}

export interface RoomRecord {
  id: string;
  name: string;
  ownerId: string;
  passwordHash: string | null;
  visibility: RoomVisibility;
  status: RoomStatus;
  options: RoomOptions;
  createdAt: number;
  updatedAt: number;
}

export interface MemberRecord {
  userId: string;
  name: string;
  role: RoomRole;
  status: MemberStatus;
  /** Joined as a guest: always holds the guest role. */
  guest: boolean;
  joinedAt: number;
}

/**
 * Whether an item's source can seek: `yes` (range requests answered, or HLS), `no` (every read
 * starts at the beginning), `unknown` (the check failed or timed out), `checking` (running).
 */
export type Seekable = 'yes' | 'no' | 'unknown' | 'checking';

export interface Subtitle {
  name: string;
  url: string;
  language?: string;
}

export interface MediaItem {
  id: string;
  title: string;
  url: string;
  /** `direct` (a file), `hls`, `live`, or the name of another provider. */
  provider: string;
  /** Request headers the provider (or our proxy) must send upstream. */
  headers: Record<string, string>;
  subtitles: Subtitle[];
  live: boolean;
  /** Play through the service's media proxy instead of the URL directly. */
  proxy: boolean;
  /** Whether players can jump in it (seek-check.ts); only `no` refuses seeks. */
  seekable: Seekable;
  addedBy: string;
  addedAt: number;
}

/**
 * The authoritative playback state: `position` (seconds) was true at `updatedAt`; while
 * `playing`, the position now is `position + (now - updatedAt) / 1000 * rate`.
 */
export interface PlaybackState {
  mediaId: string | null;
  playing: boolean;
  position: number;
  rate: number;
  updatedAt: number;
  /** Bumped by every change; a command may carry `expectVersion` to refuse acting on a stale view. */
  version: number;
}

/** A wait for every present member to be ready before playing (room option `waitForAllReady`). */
export interface ReadyWait {
  /** Present members not ready yet, when the wait began or last changed. */
  userIds: string[];
  /** Server time at which the room plays anyway. */
  deadline: number;
}

/**
 * What is playing, as every member sees it, guests included (docs/2026-11-26-guests-watch.md):
 * enough to show and play it. Its upstream address and headers are not here: a player gets its
 * sources from the play endpoint (which asks the room's `playlist.playable`), and the rest of the
 * list needs `view_media_resources`.
 */
export type NowPlaying = Pick<MediaItem, 'id' | 'title' | 'provider' | 'live' | 'subtitles' | 'seekable'> & {
  /**
   * Only for an item of the `live` provider: on air when this was sent. Later changes come as
   * `live` events, which reach every member for the current item.
   */
  onAir?: boolean;
};

export interface PlaybackView extends PlaybackState {
  /** Set while play is held back for members who are still loading. */
  waitingForReady: ReadyWait | null;
  /** The item `mediaId` names; null when nothing is selected. */
  item: NowPlaying | null;
}

export interface RoomInfo {
  id: string;
  name: string;
  ownerId: string;
  visibility: RoomVisibility;
  status: RoomStatus;
  hasPassword: boolean;
  requireJoinApproval: boolean;
  waitForAllReady: boolean;
  readyTimeoutMs: number;
  queueMode: QueueMode;
  permissionOverrides: PermissionOverrides;
  createdAt: number;
  updatedAt: number;
}

/** What someone who is not a member may see: enough to decide to join. */
export interface RoomPreview {
  id: string;
  name: string;
  visibility: RoomVisibility;
  status: RoomStatus;
  hasPassword: boolean;
  requireJoinApproval: boolean;
  memberCount: number;
}

export interface MemberView {
  userId: string;
  name: string;
  role: RoomRole;
  status: MemberStatus;
  guest: boolean;
  isOwner: boolean;
  joinedAt: number;
  /** Has at least one live connection in the room. */
  online: boolean;
  /** The last player state the member reported while online. */
  player: { state: PlayerState; mediaId: string | null } | null;
}

export interface ChatMessage {
  /** Decimal string (a PostgreSQL bigint); larger ids are newer. */
  id: string;
  userId: string;
  name: string;
  text: string;
  pinned: boolean;
  createdAt: number;
}

/** The caller's own standing, part of every `room.get`. */
export interface MyStanding {
  userId: string;
  /** `none` for a visitor who never joined (or left). */
  status: MemberStatus | 'none';
  role: RoomRole | null;
  isOwner: boolean;
  /** Effective permissions now (empty unless an active member). */
  permissions: Permission[];
}

/** `room.get` for active members (and service callers). */
export interface MemberRoomView {
  access: 'member';
  room: RoomInfo;
  me: MyStanding;
  /** With `view_member_list` (the lists are undefined, or absent, without their permission). */
  members?: MemberView[] | undefined;
  /** With `manage_members`: join requests waiting for approval, and bans. */
  pendingMembers?: MemberView[] | undefined;
  /** The first page of bans by user id (`ROOM_LIMITS.bansInView`); `member.bans` reads the rest. */
  bannedMembers?: MemberView[] | undefined;
  /** With `manage_members`: every ban of the room. */
  bannedCount?: number;
  /** With `view_media_resources`. */
  playlist?: MediaItem[];
  /**
   * Ids of the live items on air now (an RTMP publish is running): all of them with
   * view_media_resources, else at most the current item.
   */
  liveOnline?: string[];
  playback: PlaybackView;
  /** With `use_webrtc`: who is in the room's voice call now, in join order. */
  voice?: VoiceParticipant[];
  /** The seq of the last event published; events after it continue this snapshot. */
  seq: number;
}

/** One member in the room's voice call; held in memory only (it ends with the connection). */
export interface VoiceParticipant {
  userId: string;
  name: string;
  muted: boolean;
  joinedAt: number;
}

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

/** `room.get` for everyone else. */
export interface VisitorRoomView {
  access: 'visitor';
  room: RoomPreview;
  me: MyStanding;
  seq: number;
}

export type RoomView = MemberRoomView | VisitorRoomView;
