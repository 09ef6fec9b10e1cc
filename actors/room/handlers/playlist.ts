/**
 * The shared media list. Whoever added an item may edit or remove it while they can still
 * add media (like chat authors and their own messages); anyone else needs the edit or
 * delete permission.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../errors/app-error.js';
import type { RoomCommandOf } from '../commands.js';
import type { Access, RoomCore, Turn } from '../core.js';
import { ROOM_LIMITS } from '../limits.js';
import type { MediaItem } from '../model.js';
import { checkPlaylistBudget } from '../playlist-budget.js';
import { indexOfMedia, insertAt, moveTo } from '../playlist.js';
import type { RoomResults } from '../results.js';
import { clearPlaylist, deleteMedia, insertMedia, setSortKeys, updateMedia } from '../room-store.js';
import { checkMediaFields, type MediaInput } from '../validate.js';
import { checkPlaybackGuards } from './playback.js';

/** Proxying is an operator switch (`proxy.movieProxy`, `proxy.liveProxy`); refuse items that need a disabled one. */
function checkProxyAllowed(core: RoomCore, item: Pick<MediaItem, 'proxy' | 'live'>): void {
  if (!item.proxy) return;
  const key = item.live ? 'proxy.liveProxy' : 'proxy.movieProxy';
  if (!core.deps.settings.get(key)) {
    throw new AppError('forbidden', `proxied ${item.live ? 'livestreams are' : 'media is'} disabled on this server (${key})`);
  }
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

async function addMedia(
  core: RoomCore,
  input: MediaInput & { title: string; url: string },
  requestedIndex: number | undefined,
  turn: Turn,
): Promise<{ item: MediaItem; index: number }> {
  core.require(turn.access, 'create_media_resource', 'adding media');
  const length = core.playlist.length;
  if (length >= ROOM_LIMITS.playlistMaxItems) {
    throw new AppError('limit_exceeded', `the playlist is full (at most ${ROOM_LIMITS.playlistMaxItems} items)`);
  }
  const index = requestedIndex ?? length;
  if (index > length) throw AppError.invalid([{ key: 'index', message: `must be at most ${length} (the playlist length)` }]);
  const fields = checkMediaFields(input);
  const item: MediaItem = {
    id: randomUUID(),
    title: fields.title as string,
    url: fields.url as string,
    provider: fields.provider ?? 'direct',
    headers: fields.headers ?? {},
    subtitles: fields.subtitles ?? [],
    live: fields.live ?? false,
    proxy: fields.proxy ?? false,
    addedBy: turn.access.userId,
    addedAt: turn.now,
  };
  checkProxyAllowed(core, item);
  checkPlaylistBudget(core.playlist, item);
  const change = insertAt(core.playlist, item, index);
  await core.durable('add media', async (client) => {
    await insertMedia(client, core.id, change.entry);
    await setSortKeys(client, core.id, change.rekeyed);
  });
  core.playlist = change.next;
  core.publish({ type: 'playlist', op: 'added', item, index });
  return { item, index };
}

export function pushMedia(core: RoomCore, command: RoomCommandOf<'playlist.push'>, turn: Turn): Promise<RoomResults['playlist.push']> {
  const { kind: _kind, ...input } = command;
  return addMedia(core, input, undefined, turn);
}

export function insertMediaAt(core: RoomCore, command: RoomCommandOf<'playlist.insert'>, turn: Turn): Promise<RoomResults['playlist.insert']> {
  const { kind: _kind, index, ...input } = command;
  return addMedia(core, input, index, turn);
}

export async function moveMedia(core: RoomCore, command: RoomCommandOf<'playlist.move'>, turn: Turn): Promise<RoomResults['playlist.move']> {
  core.require(turn.access, 'reorder_media_resources', 'reordering the playlist');
  const from = mediaIndex(core, command.mediaId);
  const last = core.playlist.length - 1;
  if (command.toIndex > last) throw AppError.invalid([{ key: 'toIndex', message: `must be at most ${last}` }]);
  if (from === command.toIndex) return { mediaId: command.mediaId, index: from };
  const change = moveTo(core.playlist, from, command.toIndex);
  await core.durable('move media', (client) => setSortKeys(client, core.id, change.rekeyed));
  core.playlist = change.next;
  core.publish({ type: 'playlist', op: 'moved', mediaId: command.mediaId, toIndex: command.toIndex });
  return { mediaId: command.mediaId, index: command.toIndex };
}

/** The current media left the list: playback stops with nothing selected. */
async function currentMediaGone(core: RoomCore, cause: 'playlist.remove' | 'playlist.clear', by: string): Promise<void> {
  core.mediaChanged();
  core.closeReadyWait();
  await core.changePlayback({ mediaId: null, playing: false, position: 0, updatedAt: core.now() }, cause, by);
}

export async function removeMedia(core: RoomCore, command: RoomCommandOf<'playlist.remove'>, turn: Turn): Promise<RoomResults['playlist.remove']> {
  const index = mediaIndex(core, command.mediaId);
  const item = (core.playlist[index] as { item: MediaItem }).item;
  requireOwnOr(core, turn.access, item, 'delete_media_resource', 'removing media added by someone else');
  await core.durable('remove media', (client) => deleteMedia(client, core.id, item.id));
  core.playlist = core.playlist.filter((e) => e.item.id !== item.id);
  core.publish({ type: 'playlist', op: 'removed', mediaId: item.id });
  if (core.playback.mediaId === item.id) await currentMediaGone(core, 'playlist.remove', turn.access.userId);
  return { mediaId: item.id };
}

export async function clearMedia(core: RoomCore, _command: RoomCommandOf<'playlist.clear'>, turn: Turn): Promise<RoomResults['playlist.clear']> {
  core.require(turn.access, 'delete_media_resource', 'clearing the playlist');
  const removed = core.playlist.length;
  if (removed === 0) return { removed };
  await core.durable('clear the playlist', (client) => clearPlaylist(client, core.id));
  core.playlist = [];
  core.publish({ type: 'playlist', op: 'cleared' });
  if (core.playback.mediaId !== null) await currentMediaGone(core, 'playlist.clear', turn.access.userId);
  return { removed };
}

export async function setCurrentMedia(
  core: RoomCore,
  command: RoomCommandOf<'playlist.setCurrent'>,
  turn: Turn,
): Promise<RoomResults['playlist.setCurrent']> {
  core.require(turn.access, 'set_current_media', 'choosing what plays');
  checkPlaybackGuards(core, command);
  mediaIndex(core, command.mediaId);
  // Choosing media cues it up paused at the start, the way a host picks the next video and
  // then presses play once everyone has it.
  core.mediaChanged();
  core.closeReadyWait();
  const playback = await core.changePlayback(
    { mediaId: command.mediaId, playing: false, position: 0, updatedAt: turn.now },
    'playlist.setCurrent',
    turn.access.userId,
  );
  return { playback };
}

export async function editMedia(core: RoomCore, command: RoomCommandOf<'playlist.edit'>, turn: Turn): Promise<RoomResults['playlist.edit']> {
  const index = mediaIndex(core, command.mediaId);
  const entry = core.playlist[index] as { item: MediaItem; sortKey: number };
  requireOwnOr(core, turn.access, entry.item, 'edit_media_resource', 'editing media added by someone else');
  const { kind: _kind, mediaId: _mediaId, ...input } = command;
  const fields = checkMediaFields(input);
  const item: MediaItem = { ...entry.item, ...fields };
  if (item.provider === 'live') item.live = true;
  checkProxyAllowed(core, item);
  checkPlaylistBudget(core.playlist, item, item.id);
  await core.durable('edit media', (client) => updateMedia(client, core.id, item));
  core.playlist = core.playlist.map((e, i) => (i === index ? { item, sortKey: e.sortKey } : e));
  core.publish({ type: 'playlist', op: 'edited', item });
  return { item };
}
