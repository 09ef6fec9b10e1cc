/**
 * The room's records as the actor holds them in memory and stores them in PostgreSQL (migration
 * 0003). The views that leave the actor are in contracts/room/model.ts; these stay inside (the
 * room record carries the password hash).
 */
import type { WordFilter } from '../../contracts/room/moderation.js';
import type { MediaItem, MemberPermissionOverride, MemberStatus, PermissionOverrides, QueueMode, RoomRole, RoomStatus, RoomVisibility } from '../../contracts/room/model.js';

/** The word filter option as a room stores it when it has none: a filter without words is off. */
export const NO_WORD_FILTER: WordFilter = Object.freeze({ mode: 'mask', words: Object.freeze([]) as unknown as string[] });

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
  /** Vote-skip threshold in percent of present voters (vote-skip/vote-skip.ts); 0: off. */
  voteSkipPercent: number;
  /** Comments pinned to media times, scrolled over the video (danmaku/danmaku-handlers.ts); off by default. */
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
  /** This member's own grants and denials on top of the role (permissions.ts); absent: none. */
  permissionOverride?: MemberPermissionOverride;
}

/** One item of the playlist with its place in the shared key space (media/playlist.ts). */
export interface PlaylistEntry {
  item: MediaItem;
  sortKey: number;
}

/** A playlist folder as stored; its top-level index is derived from the order (media/playlist.ts). */
export interface FolderRecord {
  id: string;
  title: string;
  createdBy: string;
  createdAt: number;
}

export interface FolderEntry {
  folder: FolderRecord;
  sortKey: number;
}

/** Where `mediaId` is in `list`, or -1 (also for no media). */
export function indexOfMedia(list: readonly PlaylistEntry[], mediaId: string | null): number {
  return mediaId === null ? -1 : list.findIndex((e) => e.item.id === mediaId);
}
