/**
 * The room's playback row (migration 0003, `room_playback`): the clock the core holds
 * (`RoomCore.playback`) and the block of versions reserved for it. Written with the room
 * (room-rows.ts `insertRoom`), lazily and with the current media by the playback part
 * (playback/room-playback.ts), and group-committed across a host's rooms (playback/playback-writer.ts).
 */
import type pg from 'pg';
import type { PlaybackState } from '../../contracts/room/model.js';

type Db = Pick<pg.PoolClient, 'query'>;

export interface StoredPlayback extends PlaybackState {
  /** Every version up to this one may have been handed out by an earlier activation. */
  versionReserved: number;
}

export interface PlaybackRow {
  media_id: string | null;
  playing: boolean;
  position: number;
  rate: number;
  updated_at_ms: string;
  version: string;
  version_reserved: string;
  folder_play: unknown;
}

/** The playback row of room `roomId` (with its folder play, parsed by playback/folder-play.ts `folderPlayFrom`), or null when it has none. */
export async function loadPlaybackRow(db: Db, roomId: string): Promise<{ playback: StoredPlayback; folderPlay: unknown } | null> {
  const { rows } = await db.query<PlaybackRow>('SELECT * FROM room_playback WHERE room_id = $1', [roomId]);
  const row = rows[0];
  if (!row) return null;
  return {
    playback: {
      mediaId: row.media_id,
      playing: row.playing,
      position: row.position,
      rate: row.rate,
      updatedAt: Number(row.updated_at_ms),
      version: Number(row.version),
      versionReserved: Number(row.version_reserved),
    },
    folderPlay: row.folder_play,
  };
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
