/**
 * The shared media list. Whoever added an item may edit or remove it while they can still
 * add media (like chat authors and their own messages); anyone else needs the edit or
 * delete permission. What a change does beyond the list (the first item cued, playback stopped
 * when the current item goes, live status forgotten) is the other parts' `playlistChanging`,
 * written in the same transaction and applied after it.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { Access, RoomCore, Turn } from '../core.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { requireProxySwitch } from './proxy-switch.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import { checkPlaylistBudget } from './playlist-budget.js';
import { containerIndex, folderItemIds, placeRows, rowIndexFor, topLevelCount, type PlaylistRow } from './playlist.js';
import { findFolder, installRows, rowsOf } from './playlist-state.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { clearPlaylist, deleteMedia, insertMedia, setPlaylistPlaces, updateMedia } from './playlist-store.js';
import { indexOfMedia } from '../records.js';
import { checkMediaFields, checkNewMedia, liveItemUrl, type MediaInput } from '../validate.js';
import { initialSeekable, startSeekCheck } from './seek-check.js';
import { startReachCheck } from './reach-check.js';

/** Proxying is an operator switch (`proxy.movieProxy`, `proxy.liveProxy`); refuse items that need a disabled one. */
function checkProxyAllowed(core: RoomCore, item: Pick<MediaItem, 'proxy' | 'live'>): void {
  if (item.proxy) requireProxySwitch(core.deps.settings, item);
}

/** The provider's own rules (known name, URL it can play), asked of the injected checker. */
function checkWithProvider(core: RoomCore, item: Pick<MediaItem, 'provider' | 'url' | 'headers'>): void {
  const issues = core.deps.media?.checkMedia({ provider: item.provider, url: item.url, headers: item.headers, roomId: core.id }) ?? [];
  if (issues.length > 0) throw AppError.invalid(issues);
}

function mediaIndex(core: RoomCore, mediaId: string): number {
  const index = indexOfMedia(core.playlist, mediaId);
  if (index < 0) throw new AppError('not_found', `media ${mediaId} is not in this room's playlist`);
  return index;
}

/** Own items need only `create_media_resource`; others need `permission`. */
function requireOwnOr(core: RoomCore, access: Access, item: MediaItem, permission: 'edit_media_resource' | 'delete_media_resource', action: string): void {
  const own = item.addedBy === access.userId && access.permissions.has('create_media_resource');
  if (!own) core.require(access, permission, action);
}

/** A folder named by a command must be one of this playlist's. */
export function requireFolder(core: RoomCore, folderId: string): void {
  if (!findFolder(core, folderId)) throw new AppError('not_found', `folder ${folderId} is not in this room's playlist`);
}

/** How many entries a container holds: a folder's items, or the top-level entries. */
function containerLength(rows: readonly PlaylistRow[], folderId: string | null): number {
  return folderId === null ? topLevelCount(rows) : folderItemIds(rows, folderId).length;
}

async function addMedia(
  core: RoomCore,
  input: MediaInput & { title: string },
  requestedIndex: number | undefined,
  folderId: string | null,
  turn: Turn,
): Promise<{ item: MediaItem; index: number }> {
  core.require(turn.access, 'create_media_resource', 'adding media');
  if (core.playlist.length >= ROOM_LIMITS.playlistMaxItems) {
    throw new AppError('limit_exceeded', `the playlist is full (at most ${ROOM_LIMITS.playlistMaxItems} items)`);
  }
  if (folderId !== null) requireFolder(core, folderId);
  const rows = rowsOf(core);
  const length = containerLength(rows, folderId);
  const index = requestedIndex ?? length;
  if (index > length) {
    const what = folderId === null ? 'the playlist length' : "the folder's length";
    throw AppError.invalid([{ key: 'index', message: `must be at most ${length} (${what})` }]);
  }
  const fields = checkNewMedia(input);
  const id = randomUUID();
  const live = fields.provider === 'live';
  const item: MediaItem = {
    id,
    title: fields.title as string,
    url: live ? liveItemUrl(id) : (fields.url as string),
    provider: fields.provider ?? 'direct',
    headers: fields.headers ?? {},
    subtitles: fields.subtitles ?? [],
    live: fields.live ?? false,
    proxy: fields.proxy ?? false,
    seekable: 'unknown',
    reach: null,
    addedBy: turn.access.userId,
    addedAt: turn.now,
    folderId,
  };
  checkWithProvider(core, item);
  item.seekable = initialSeekable(core, item);
  checkProxyAllowed(core, item);
  checkPlaylistBudget(core.playlist, item);
  const change = placeRows(rows, [{ kind: 'item', id, folderId, sortKey: 0 }], rowIndexFor(rows, folderId, index));
  const entry = { item, sortKey: change.written.find((row) => row.id === id)!.sortKey };
  const consequences = core.playlistChanging({ op: 'added', item }, turn.access.userId);
  const result = await core.commit(turn, 'add media', async (client) => {
    await insertMedia(client, core.id, entry);
    await setPlaylistPlaces(client, core.id, change.written.filter((row) => row.id !== id));
    await consequences.write(client);
    return { item, index };
  });
  installRows(core, change.next, { item });
  core.publish({ type: 'playlist', op: 'added', item, index });
  startSeekCheck(core, item);
  startReachCheck(core, item);
  await consequences.apply();
  return result;
}

export function pushMedia(core: RoomCore, command: RoomCommandOf<'playlist.push'>, turn: Turn): Promise<RoomResults['playlist.push']> {
  const { kind: _kind, folderId, ...input } = command;
  return addMedia(core, input, undefined, folderId ?? null, turn);
}

export function insertMediaAt(core: RoomCore, command: RoomCommandOf<'playlist.insert'>, turn: Turn): Promise<RoomResults['playlist.insert']> {
  const { kind: _kind, index, folderId, ...input } = command;
  return addMedia(core, input, index, folderId ?? null, turn);
}

export async function moveMedia(core: RoomCore, command: RoomCommandOf<'playlist.move'>, turn: Turn): Promise<RoomResults['playlist.move']> {
  core.require(turn.access, 'reorder_media_resources', 'reordering the playlist');
  mediaIndex(core, command.mediaId);
  const rows = rowsOf(core);
  const row = rows.find((r) => r.kind === 'item' && r.id === command.mediaId)!;
  // Absent: within the container it is in now; null: the top level.
  const target = command.folderId === undefined ? row.folderId : command.folderId;
  if (target !== null) requireFolder(core, target);
  const rest = rows.filter((r) => r !== row);
  const last = containerLength(rest, target);
  if (command.toIndex > last) throw AppError.invalid([{ key: 'toIndex', message: `must be at most ${last}` }]);
  const done = { mediaId: command.mediaId, index: command.toIndex, folderId: target };
  if (target === row.folderId && containerIndex(rows, row) === command.toIndex) return done;
  const change = placeRows(rest, [{ ...row, folderId: target }], rowIndexFor(rest, target, command.toIndex));
  const result = await core.commit(turn, 'move media', async (client) => {
    await setPlaylistPlaces(client, core.id, change.written);
    return done;
  });
  installRows(core, change.next);
  core.publish({ type: 'playlist', op: 'moved', mediaId: command.mediaId, toIndex: command.toIndex, folderId: target });
  return result;
}

export async function removeMedia(core: RoomCore, command: RoomCommandOf<'playlist.remove'>, turn: Turn): Promise<RoomResults['playlist.remove']> {
  const index = mediaIndex(core, command.mediaId);
  const item = (core.playlist[index] as { item: MediaItem }).item;
  requireOwnOr(core, turn.access, item, 'delete_media_resource', 'removing media added by someone else');
  const consequences = core.playlistChanging({ op: 'removed', mediaIds: [item.id], folderId: null }, turn.access.userId);
  const result = await core.commit(turn, 'remove media', async (client) => {
    await deleteMedia(client, core.id, item.id);
    await consequences.write(client);
    return { mediaId: item.id };
  });
  core.playlist = core.playlist.filter((e) => e.item.id !== item.id);
  core.publish({ type: 'playlist', op: 'removed', mediaId: item.id });
  await consequences.apply();
  return result;
}

export async function clearMedia(core: RoomCore, _command: RoomCommandOf<'playlist.clear'>, turn: Turn): Promise<RoomResults['playlist.clear']> {
  core.require(turn.access, 'delete_media_resource', 'clearing the playlist');
  const removed = core.playlist.length;
  if (removed === 0 && core.folders.length === 0) return { removed };
  const consequences = core.playlistChanging({ op: 'cleared' }, turn.access.userId);
  const result = await core.commit(turn, 'clear the playlist', async (client) => {
    await clearPlaylist(client, core.id);
    await consequences.write(client);
    return { removed };
  });
  core.playlist = [];
  core.folders = [];
  core.publish({ type: 'playlist', op: 'cleared' });
  await consequences.apply();
  return result;
}

export async function editMedia(core: RoomCore, command: RoomCommandOf<'playlist.edit'>, turn: Turn): Promise<RoomResults['playlist.edit']> {
  const index = mediaIndex(core, command.mediaId);
  const entry = core.playlist[index] as { item: MediaItem; sortKey: number };
  requireOwnOr(core, turn.access, entry.item, 'edit_media_resource', 'editing media added by someone else');
  const { kind: _kind, mediaId: _mediaId, ...input } = command;
  const fields = checkMediaFields(input);
  const item: MediaItem = { ...entry.item, ...fields };
  if (item.provider === 'live') {
    item.live = true;
    item.url = liveItemUrl(item.id);
  } else if (entry.item.provider === 'live' && fields.url === undefined) {
    throw AppError.invalid([{ key: 'url', message: 'is required when a live item becomes another kind' }]);
  }
  // Only what the edit touches: a title edit stays possible for an item whose provider was since removed.
  const source = fields.provider !== undefined || fields.url !== undefined || fields.headers !== undefined;
  if (source) {
    checkWithProvider(core, item);
    item.seekable = initialSeekable(core, item);
    item.reach = null;
  }
  checkProxyAllowed(core, item);
  checkPlaylistBudget(core.playlist, item, item.id);
  const result = await core.commit(turn, 'edit media', async (client) => {
    await updateMedia(client, core.id, item);
    return { item };
  });
  core.playlist = core.playlist.map((e, i) => (i === index ? { item, sortKey: e.sortKey } : e));
  core.publish({ type: 'playlist', op: 'edited', item });
  if (source) {
    startSeekCheck(core, item);
    startReachCheck(core, item);
  }
  return result;
}
