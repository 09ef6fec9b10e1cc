/**
 * PostgreSQL access for the room actor's own state (migration 0003). Every function takes
 * the client of a transaction opened by `withFence`, so a write from a superseded activation
 * never lands; loading runs inside one too, which claims the fence before reading.
 */
import type pg from 'pg';
import { isPermission, type Permission } from '../../../contracts/permissions/names.js';
import { advisoryLockNamespaces } from '../../../store/advisory-locks.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { displayName } from '../validate.js';
import { QUEUE_MODES, ROOM_ROLES, type MediaItem, type MemberPermissionOverride, type PermissionOverrides, type PlaybackState, type Seekable, type Subtitle } from '../../../contracts/room/model.js';
import { type FolderPlay, type MemberRecord, type RoomOptions, type RoomRecord } from '../records.js';
import { WORD_FILTER_MODES, type WordFilter } from '../../../contracts/room/moderation.js';
import { NO_WORD_FILTER } from '../moderation/word-filter.js';

type Db = Pick<pg.PoolClient, 'query'>;

export interface PlaylistEntry {
  item: MediaItem;
  sortKey: number;
}

/** A playlist folder as stored; its top-level index is derived from the order (playlist.ts). */
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

export interface StoredPlayback extends PlaybackState {
  /** Every version up to this one may have been handed out by an earlier activation. */
  versionReserved: number;
}

export interface LoadedRoom {
  room: RoomRecord;
  members: MemberRecord[];
  playlist: PlaylistEntry[];
  folders: FolderEntry[];
  playback: StoredPlayback;
  /** The folder being played, if any (queue-folder.ts). */
  folderPlay: FolderPlay | null;
}

export const DEFAULT_ROOM_OPTIONS: RoomOptions = Object.freeze({
  requireJoinApproval: false,
  permissionOverrides: {},
  waitForAllReady: false,
  readyTimeoutMs: ROOM_LIMITS.readyTimeoutDefaultMs,
  queueMode: 'next',
  voteSkipPercent: 0,
  danmaku: false,
  slowModeSeconds: 0,
  wordFilter: NO_WORD_FILTER,
});

interface RoomRow {
  id: string;
  name: string;
  owner_id: string;
  password_hash: string | null;
  visibility: RoomRecord['visibility'];
  status: RoomRecord['status'];
  settings: unknown;
  created_at: Date;
  updated_at: Date;
}

interface MemberRow {
  user_id: string;
  name: string;
  role: MemberRecord['role'];
  status: MemberRecord['status'];
  guest: boolean;
  joined_at: Date;
  permission_override: unknown;
}

interface MediaRow {
  media_id: string;
  sort_key: string;
  title: string;
  url: string;
  provider: string;
  headers: Record<string, string>;
  subtitles: Subtitle[];
  live: boolean;
  proxy: boolean;
  seekable: Seekable;
  added_by: string;
  added_at: Date;
  folder_id: string | null;
}

interface FolderRow {
  folder_id: string;
  sort_key: string;
  title: string;
  created_by: string;
  created_at: Date;
}

interface PlaybackRow {
  media_id: string | null;
  playing: boolean;
  position: number;
  rate: number;
  updated_at_ms: string;
  version: string;
  version_reserved: string;
  folder_play: unknown;
}

/** Reads `rooms.settings` leniently: unknown or malformed fields fall back to defaults. */
function optionsFromJson(value: unknown): RoomOptions {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const overrides: PermissionOverrides = {};
  const rawOverrides = raw.permissionOverrides;
  if (typeof rawOverrides === 'object' && rawOverrides !== null) {
    for (const role of ROOM_ROLES) {
      const list = (rawOverrides as Record<string, unknown>)[role];
      if (Array.isArray(list)) overrides[role] = list.filter((name): name is Permission => isPermission(name));
    }
  }
  const timeout = raw.readyTimeoutMs;
  return {
    requireJoinApproval: raw.requireJoinApproval === true,
    permissionOverrides: overrides,
    waitForAllReady: raw.waitForAllReady === true,
    readyTimeoutMs:
      typeof timeout === 'number' && timeout >= ROOM_LIMITS.readyTimeoutMinMs && timeout <= ROOM_LIMITS.readyTimeoutMaxMs
        ? timeout
        : ROOM_LIMITS.readyTimeoutDefaultMs,
    queueMode: QUEUE_MODES.find((mode) => mode === raw.queueMode) ?? DEFAULT_ROOM_OPTIONS.queueMode,
    voteSkipPercent: storedPercent(raw.voteSkipPercent),
    danmaku: raw.danmaku === true,
    slowModeSeconds: storedSlowMode(raw.slowModeSeconds),
    wordFilter: storedWordFilter(raw.wordFilter),
  };
}

function storedSlowMode(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= ROOM_LIMITS.slowModeMaxSeconds ? value : 0;
}

/** Stored entries were checked when set; only their shape is checked back. */
function storedWordFilter(value: unknown): WordFilter {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const mode = WORD_FILTER_MODES.find((m) => m === raw.mode);
  const words = Array.isArray(raw.words) ? raw.words.filter((w): w is string => typeof w === 'string' && w.length > 0) : [];
  return mode ? { mode, words } : NO_WORD_FILTER;
}

/** A stored room without the option (or with a value out of range) has vote-skip off. */
function storedPercent(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= ROOM_LIMITS.voteSkipPercentMax ? value : DEFAULT_ROOM_OPTIONS.voteSkipPercent;
}

function roomFromRow(row: RoomRow): RoomRecord {
  return {
    id: row.id,
    name: row.name,
    ownerId: row.owner_id,
    passwordHash: row.password_hash,
    visibility: row.visibility,
    status: row.status,
    options: optionsFromJson(row.settings),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

function mediaFromRow(row: MediaRow): PlaylistEntry {
  return {
    sortKey: Number(row.sort_key),
    item: {
      id: row.media_id,
      title: row.title,
      url: row.url,
      provider: row.provider,
      headers: row.headers,
      subtitles: row.subtitles,
      live: row.live,
      proxy: row.proxy,
      seekable: row.seekable,
      addedBy: row.added_by,
      addedAt: row.added_at.getTime(),
      folderId: row.folder_id,
    },
  };
}

/** A stored override with unknown names dropped (a row from a later release or by hand), or none. */
function withOverride(raw: unknown): { permissionOverride?: MemberPermissionOverride } {
  if (typeof raw !== 'object' || raw === null) return {};
  const { grant, deny } = raw as { grant?: unknown; deny?: unknown };
  const names = (list: unknown) => (Array.isArray(list) ? list.filter(isPermission) : []);
  const override = { grant: names(grant), deny: names(deny) };
  return override.grant.length > 0 || override.deny.length > 0 ? { permissionOverride: override } : {};
}

/** Everything the actor holds for room `id`, or null when no room was created under it. */
export async function loadRoom(db: Db, id: string): Promise<LoadedRoom | null> {
  const rooms = await db.query<RoomRow>('SELECT * FROM rooms WHERE id = $1', [id]);
  const roomRow = rooms.rows[0];
  if (!roomRow) return null;
  // One client runs one query at a time; these are sequential by necessity, not by choice.
  const members = await db.query<MemberRow>(
    'SELECT user_id, name, role, status, guest, joined_at, permission_override FROM room_members WHERE room_id = $1 ORDER BY joined_at, user_id',
    [id],
  );
  const playlist = await db.query<MediaRow>('SELECT * FROM room_playlist WHERE room_id = $1 ORDER BY sort_key, media_id', [id]);
  const folders = await db.query<FolderRow>('SELECT * FROM room_playlist_folders WHERE room_id = $1 ORDER BY sort_key, folder_id', [id]);
  const playback = await db.query<PlaybackRow>('SELECT * FROM room_playback WHERE room_id = $1', [id]);
  const row = playback.rows[0];
  const room = roomFromRow(roomRow);
  return {
    room,
    members: members.rows.map((m) => ({
      userId: m.user_id,
      // Rows written before names were cleaned on the way in get the same treatment on the way out.
      name: displayName(m.name, m.user_id),
      role: m.role,
      status: m.status,
      guest: m.guest,
      joinedAt: m.joined_at.getTime(),
      ...withOverride(m.permission_override),
    })),
    playlist: playlist.rows.map(mediaFromRow),
    folderPlay: folderPlayFrom(row?.folder_play),
    folders: folders.rows.map((f) => ({
      sortKey: Number(f.sort_key),
      folder: { id: f.folder_id, title: f.title, createdBy: f.created_by, createdAt: f.created_at.getTime() },
    })),
    playback: row
      ? {
          mediaId: row.media_id,
          playing: row.playing,
          position: row.position,
          rate: row.rate,
          updatedAt: Number(row.updated_at_ms),
          version: Number(row.version),
          versionReserved: Number(row.version_reserved),
        }
      : { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: room.createdAt, version: 0, versionReserved: 0 },
  };
}

/** Takes the per-owner lock and counts the rooms that hold a place in the owner's quota. */
export async function lockAndCountOwnedRooms(db: Db, ownerId: string): Promise<number> {
  await db.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [advisoryLockNamespaces.roomOwner, ownerId]);
  // A rejected room stays visible to its owner but no longer counts against the quota.
  const { rows } = await db.query<{ count: string }>(
    "SELECT count(*) FROM rooms WHERE owner_id = $1 AND status <> 'rejected'",
    [ownerId],
  );
  return Number(rows[0]?.count ?? 0);
}

export async function insertRoom(db: Db, room: RoomRecord, owner: MemberRecord, playback: StoredPlayback): Promise<void> {
  await db.query(
    `INSERT INTO rooms (id, name, owner_id, password_hash, visibility, status, settings, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, to_timestamp($8 / 1000.0), to_timestamp($9 / 1000.0))`,
    [
      room.id,
      room.name,
      room.ownerId,
      room.passwordHash,
      room.visibility,
      room.status,
      JSON.stringify(room.options),
      room.createdAt,
      room.updatedAt,
    ],
  );
  await upsertMember(db, room.id, owner);
  await savePlayback(db, room.id, playback);
}

export async function updateRoom(db: Db, room: RoomRecord): Promise<void> {
  await db.query(
    `UPDATE rooms SET name = $2, owner_id = $3, password_hash = $4, visibility = $5, status = $6, settings = $7,
       updated_at = to_timestamp($8 / 1000.0)
     WHERE id = $1`,
    [
      room.id,
      room.name,
      room.ownerId,
      room.passwordHash,
      room.visibility,
      room.status,
      JSON.stringify(room.options),
      room.updatedAt,
    ],
  );
}

/** Removes the room; members, playlist, playback and chat go with it (ON DELETE CASCADE). */
export async function deleteRoom(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM rooms WHERE id = $1', [id]);
}

export async function upsertMember(db: Db, roomId: string, member: MemberRecord): Promise<void> {
  await db.query(
    `INSERT INTO room_members (room_id, user_id, name, role, status, guest, joined_at, permission_override)
     VALUES ($1, $2, $3, $4, $5, $6, to_timestamp($7 / 1000.0), $8)
     ON CONFLICT (room_id, user_id) DO UPDATE
       SET name = EXCLUDED.name, role = EXCLUDED.role, status = EXCLUDED.status, guest = EXCLUDED.guest,
           joined_at = EXCLUDED.joined_at, permission_override = EXCLUDED.permission_override`,
    [
      roomId,
      member.userId,
      member.name,
      member.role,
      member.status,
      member.guest,
      member.joinedAt,
      member.permissionOverride ? JSON.stringify(member.permissionOverride) : null,
    ],
  );
}

export async function deleteMember(db: Db, roomId: string, userId: string): Promise<void> {
  await db.query('DELETE FROM room_members WHERE room_id = $1 AND user_id = $2', [roomId, userId]);
}

export async function insertMedia(db: Db, roomId: string, entry: PlaylistEntry): Promise<void> {
  const { item } = entry;
  await db.query(
    `INSERT INTO room_playlist
       (room_id, media_id, sort_key, title, url, provider, headers, subtitles, live, proxy, added_by, added_at, seekable, folder_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, to_timestamp($12 / 1000.0), $13, $14)`,
    [
      roomId,
      item.id,
      entry.sortKey,
      item.title,
      item.url,
      item.provider,
      JSON.stringify(item.headers),
      JSON.stringify(item.subtitles),
      item.live,
      item.proxy,
      item.addedBy,
      item.addedAt,
      item.seekable,
      item.folderId,
    ],
  );
}

export async function updateMedia(db: Db, roomId: string, item: MediaItem): Promise<void> {
  await db.query(
    `UPDATE room_playlist SET title = $3, url = $4, provider = $5, headers = $6, subtitles = $7, live = $8, proxy = $9, seekable = $10
     WHERE room_id = $1 AND media_id = $2`,
    [
      roomId,
      item.id,
      item.title,
      item.url,
      item.provider,
      JSON.stringify(item.headers),
      JSON.stringify(item.subtitles),
      item.live,
      item.proxy,
      item.seekable,
    ],
  );
}

/** Records what a seek check found (seek-check.ts). */
export async function setMediaSeekable(db: Db, roomId: string, mediaId: string, seekable: Seekable): Promise<void> {
  await db.query('UPDATE room_playlist SET seekable = $3 WHERE room_id = $1 AND media_id = $2', [roomId, mediaId, seekable]);
}

/** Writes new ordering keys for the given items (one moved item, or all after a renumbering). */
export async function setSortKeys(db: Db, roomId: string, entries: readonly PlaylistEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `UPDATE room_playlist AS p SET sort_key = k.sort_key
     FROM unnest($2::text[], $3::bigint[]) AS k (media_id, sort_key)
     WHERE p.room_id = $1 AND p.media_id = k.media_id`,
    [roomId, entries.map((e) => e.item.id), entries.map((e) => e.sortKey)],
  );
}

export async function deleteMedia(db: Db, roomId: string, mediaId: string): Promise<void> {
  await db.query('DELETE FROM room_playlist WHERE room_id = $1 AND media_id = $2', [roomId, mediaId]);
}

export async function clearPlaylist(db: Db, roomId: string): Promise<void> {
  await db.query('DELETE FROM room_playlist WHERE room_id = $1', [roomId]);
  await db.query('DELETE FROM room_playlist_folders WHERE room_id = $1', [roomId]);
}

/** Writes the places of changed rows: an item's sort key and folder, a folder's sort key. */
export async function setPlaylistPlaces(
  db: Db,
  roomId: string,
  rows: ReadonlyArray<{ kind: 'item' | 'folder'; id: string; folderId: string | null; sortKey: number }>,
): Promise<void> {
  const items = rows.filter((row) => row.kind === 'item');
  const folders = rows.filter((row) => row.kind === 'folder');
  if (items.length > 0) {
    await db.query(
      `UPDATE room_playlist AS p SET sort_key = k.sort_key, folder_id = k.folder_id
       FROM unnest($2::text[], $3::bigint[], $4::text[]) AS k (media_id, sort_key, folder_id)
       WHERE p.room_id = $1 AND p.media_id = k.media_id`,
      [roomId, items.map((row) => row.id), items.map((row) => row.sortKey), items.map((row) => row.folderId)],
    );
  }
  if (folders.length > 0) {
    await db.query(
      `UPDATE room_playlist_folders AS f SET sort_key = k.sort_key
       FROM unnest($2::text[], $3::bigint[]) AS k (folder_id, sort_key)
       WHERE f.room_id = $1 AND f.folder_id = k.folder_id`,
      [roomId, folders.map((row) => row.id), folders.map((row) => row.sortKey)],
    );
  }
}

export async function insertFolder(db: Db, roomId: string, entry: FolderEntry): Promise<void> {
  const { folder } = entry;
  await db.query(
    `INSERT INTO room_playlist_folders (folder_id, room_id, sort_key, title, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, to_timestamp($6 / 1000.0))`,
    [folder.id, roomId, entry.sortKey, folder.title, folder.createdBy, folder.createdAt],
  );
}

export async function renameFolder(db: Db, roomId: string, folderId: string, title: string): Promise<void> {
  await db.query('UPDATE room_playlist_folders SET title = $3 WHERE room_id = $1 AND folder_id = $2', [roomId, folderId, title]);
}

/** Stores the folder being played, or none (null). */
export async function saveFolderPlay(db: Db, roomId: string, state: FolderPlay | null): Promise<void> {
  await db.query('UPDATE room_playback SET folder_play = $2 WHERE room_id = $1', [roomId, state === null ? null : JSON.stringify(state)]);
}

/** A stored folder play, or null for none or a malformed value (written by hand or a later release). */
function folderPlayFrom(raw: unknown): FolderPlay | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { folderId, order, current, remaining } = raw as Record<string, unknown>;
  if (typeof folderId !== 'string' || typeof current !== 'string' || (order !== 'in_order' && order !== 'shuffle')) return null;
  const ids = Array.isArray(remaining) ? remaining.filter((id): id is string => typeof id === 'string') : [];
  return { folderId, order, current, remaining: ids };
}

/** Removes a folder; `withItems` deletes its items first, else they stay where they are (ON DELETE SET NULL). */
export async function deleteFolder(db: Db, roomId: string, folderId: string, withItems: boolean): Promise<void> {
  if (withItems) await db.query('DELETE FROM room_playlist WHERE room_id = $1 AND folder_id = $2', [roomId, folderId]);
  await db.query('DELETE FROM room_playlist_folders WHERE room_id = $1 AND folder_id = $2', [roomId, folderId]);
}

/** The columns of room_playback a save writes, with their types, in playbackValues order. */
export const PLAYBACK_COLUMNS: Array<[name: string, type: string]> = [
  ['room_id', 'text'],
  ['media_id', 'text'],
  ['playing', 'boolean'],
  ['position', 'float8'],
  ['rate', 'float8'],
  ['updated_at_ms', 'bigint'],
  ['version', 'bigint'],
  ['version_reserved', 'bigint'],
];
const PLAYBACK_NAMES = PLAYBACK_COLUMNS.map(([name]) => name).join(', ');
const PLAYBACK_UPSERT = `ON CONFLICT (room_id) DO UPDATE SET ${PLAYBACK_COLUMNS.slice(1)
  .map(([name]) => `${name} = EXCLUDED.${name}`)
  .join(', ')}`;

export function playbackValues(roomId: string, playback: StoredPlayback): unknown[] {
  return [
    roomId,
    playback.mediaId,
    playback.playing,
    playback.position,
    playback.rate,
    Math.round(playback.updatedAt),
    playback.version,
    playback.versionReserved,
  ];
}

export async function savePlayback(db: Db, roomId: string, playback: StoredPlayback): Promise<void> {
  await db.query(
    `INSERT INTO room_playback (${PLAYBACK_NAMES}) VALUES (${PLAYBACK_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) ${PLAYBACK_UPSERT}`,
    playbackValues(roomId, playback),
  );
}

/** savePlayback for every row of `source`, a query with the PLAYBACK_COLUMNS. */
export function savePlaybacksSql(source: string): string {
  return `INSERT INTO room_playback (${PLAYBACK_NAMES}) SELECT ${PLAYBACK_NAMES} FROM (${source}) AS saves ${PLAYBACK_UPSERT}`;
}
