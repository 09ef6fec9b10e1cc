/**
 * The folder being played (queue-folder.ts plays it): held by the activation and stored in the
 * room's playback row (`room_playback.folder_play`, migration 0021).
 */
import type pg from 'pg';
import { StateSlice, type RoomCore } from '../core.js';
import type { FolderPlay } from './queue-folder.js';

/** The folder play of the activation, or none. */
export const FOLDER_PLAY = new StateSlice('folder play', () => ({ state: null as FolderPlay | null }));

/** The items of folder `folderId` in their order: the playlist is in play order, each folder's items in theirs. */
export function folderItemIds(core: RoomCore, folderId: string): string[] {
  const ids: string[] = [];
  for (const { item } of core.playlist) if (item.folderId === folderId) ids.push(item.id);
  return ids;
}

type Db = Pick<pg.PoolClient, 'query'>;

/** Stores the folder being played, or none (null). */
export async function saveFolderPlay(db: Db, roomId: string, state: FolderPlay | null): Promise<void> {
  await db.query('UPDATE room_playback SET folder_play = $2 WHERE room_id = $1', [roomId, state === null ? null : JSON.stringify(state)]);
}

/** A stored folder play, or null for none or a malformed value (written by hand or a later release). */
export function folderPlayFrom(raw: unknown): FolderPlay | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { folderId, order, current, remaining } = raw as Record<string, unknown>;
  if (typeof folderId !== 'string' || typeof current !== 'string' || (order !== 'in_order' && order !== 'shuffle')) return null;
  const ids = Array.isArray(remaining) ? remaining.filter((id): id is string => typeof id === 'string') : [];
  return { folderId, order, current, remaining: ids };
}
