/**
 * Playback saves of every room on one host, group-committed (see FencedBatchWriter). Rooms
 * persist their position on a timer, and rooms that became busy together save together:
 * one transaction each made those moments a queue for the connection pool that held up the
 * rooms' commands behind it.
 */
import type pg from 'pg';
import { FencedBatchWriter } from '../../runtime/fenced-batch-writer.js';
import type { Fence } from '../../runtime/fencing.js';
import { HostShared } from '../core.js';
import { PLAYBACK_COLUMNS, playbackValues, savePlaybacksSql, type StoredPlayback } from '../playback-rows.js';

export interface PlaybackSave {
  fence: Fence;
  roomId: string;
  playback: StoredPlayback;
}

export function playbackWriter(pool: pg.Pool): FencedBatchWriter<PlaybackSave, void> {
  return new FencedBatchWriter<PlaybackSave, void>(pool, {
    table: 'room_playback',
    columns: PLAYBACK_COLUMNS,
    values: ({ roomId, playback }) => playbackValues(roomId, playback),
    statement: `saved AS (
      ${savePlaybacksSql('SELECT i.* FROM input i JOIN claim USING (actor_type, actor_id, fence)')}
    )
    SELECT c.actor_id IS NOT NULL AS claimed
    FROM input i LEFT JOIN claim c USING (actor_type, actor_id, fence)
    ORDER BY i.ord`,
    outcome: () => undefined,
  });
}

/** One playback writer per host, shared by its rooms (declared by the playback part). */
export const PLAYBACK_WRITER = new HostShared('playback writer', (deps) => playbackWriter(deps.pool));
