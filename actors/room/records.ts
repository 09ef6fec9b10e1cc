/**
 * The room's records as the actor holds them in memory and stores them in PostgreSQL (migration
 * 0003). The views that leave the actor are in contracts/room/model.ts; these stay inside (the
 * room record carries the password hash).
 */
import type { WordFilter } from '../../contracts/room/moderation.js';
import type { MemberPermissionOverride, MemberStatus, PermissionOverrides, QueueMode, RoomRole, RoomStatus, RoomVisibility } from '../../contracts/room/model.js';

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
  /** Vote-skip threshold in percent of present voters (playback/vote-skip.ts); 0: off. */
  voteSkipPercent: number;
  /** Comments pinned to media times, scrolled over the video (chat/danmaku-handlers.ts); off by default. */
  danmaku: boolean;
  /** Seconds between two chat messages (and two danmaku comments) of a member; 0: off (moderation/slow-mode.ts). */
  slowModeSeconds: number;
  /** Words and phrases masked or refused in chat and danmaku; no words: off (moderation/word-filter.ts). */
  wordFilter: WordFilter;
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
  /** This member's own grants and denials on top of the role (members/permissions.ts); absent: none. */
  permissionOverride?: MemberPermissionOverride;
}

/** A folder playing (playlist.folder.play), as the actor holds and stores it (playback/queue-folder.ts plays it). */
export type FolderPlayOrder = 'in_order' | 'shuffle';

export interface FolderPlay {
  folderId: string;
  order: FolderPlayOrder;
  /** The item the folder play put on; another current item means someone chose otherwise. */
  current: string;
  /** For a shuffle: the items still to play, in the order drawn at the start. */
  remaining: string[];
}
