/**
 * The rows of the room's playlist (migrations 0003, 0021): items and folders in one sort-key
 * space (playlist.ts). Every function takes the client of a fenced transaction; the core holds
 * the playlist (RoomCore.playlist, .folders), this part loads and changes it.
 */
import type pg from 'pg';
import type { MediaItem, Seekable, Subtitle } from '../../../contracts/room/model.js';
import type { MediaReach } from '../../../contracts/room/reach.js';
import type { FolderEntry, PlaylistEntry } from '../records.js';

type Db = Pick<pg.PoolClient, 'query'>;

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
  reach: MediaReach | null;
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
      reach: row.reach,
      addedBy: row.added_by,
      addedAt: row.added_at.getTime(),
      folderId: row.folder_id,
    },
  };
}

/** The room's items and folders, each in its stored order. */
export async function loadPlaylist(db: Db, roomId: string): Promise<{ playlist: PlaylistEntry[]; folders: FolderEntry[] }> {
  const playlist = await db.query<MediaRow>('SELECT * FROM room_playlist WHERE room_id = $1 ORDER BY sort_key, media_id', [roomId]);
  const folders = await db.query<FolderRow>('SELECT * FROM room_playlist_folders WHERE room_id = $1 ORDER BY sort_key, folder_id', [roomId]);
  return {
    playlist: playlist.rows.map(mediaFromRow),
    folders: folders.rows.map((f) => ({
      sortKey: Number(f.sort_key),
      folder: { id: f.folder_id, title: f.title, createdBy: f.created_by, createdAt: f.created_at.getTime() },
    })),
  };
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
    `UPDATE room_playlist SET title = $3, url = $4, provider = $5, headers = $6, subtitles = $7, live = $8, proxy = $9, seekable = $10, reach = $11
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
      item.reach === null ? null : JSON.stringify(item.reach),
    ],
  );
}

/** Records what a seek check found (seek-check.ts). */
export async function setMediaSeekable(db: Db, roomId: string, mediaId: string, seekable: Seekable): Promise<void> {
  await db.query('UPDATE room_playlist SET seekable = $3 WHERE room_id = $1 AND media_id = $2', [roomId, mediaId, seekable]);
}

/** Records what a reach check found (reach-check.ts). */
export async function setMediaReach(db: Db, roomId: string, mediaId: string, reach: MediaReach): Promise<void> {
  await db.query('UPDATE room_playlist SET reach = $3 WHERE room_id = $1 AND media_id = $2', [roomId, mediaId, JSON.stringify(reach)]);
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

/** Removes a folder; `withItems` deletes its items first, else they stay where they are (ON DELETE SET NULL). */
export async function deleteFolder(db: Db, roomId: string, folderId: string, withItems: boolean): Promise<void> {
  if (withItems) await db.query('DELETE FROM room_playlist WHERE room_id = $1 AND folder_id = $2', [roomId, folderId]);
  await db.query('DELETE FROM room_playlist_folders WHERE room_id = $1 AND folder_id = $2', [roomId, folderId]);
}
