/** PlaylistService: actor commands playlist.* with the actor's field names. */
import type { MediaItem, Subtitle } from '../../../contracts/room/model.js';
import { AppError } from '../../../errors/index.js';
import type { Header__Output } from '../gen/svc/v1/Header.js';
import type { PushMediaRequest__Output } from '../gen/svc/v1/PushMediaRequest.js';
import type { Handlers } from '../service-table.js';
import type { PlaylistServiceHandlers } from '../gen/svc/v1/PlaylistService.js';
import type { Subtitle__Output } from '../gen/svc/v1/Subtitle.js';
import type { SubtitleFormatName } from '../../../contracts/room/subtitles.js';
import { expectedMedia, type RoomCalls } from '../room-calls.js';
import { mediaItem, playback, playlistFolder, queueVotes } from '../views.js';

const mediaFields = <R extends PushMediaRequest__Output>(request: R) => ({
  title: request.title,
  url: request.url,
  provider: request.provider,
  headers: headersIn(request.headers),
  subtitles: subtitlesIn(request.subtitles),
  live: request.live,
  proxy: request.proxy,
});
/** Absent: the top level (push, insert). */
const intoFolder = (request: { folderId?: string }) => (request.folderId !== undefined ? { folderId: request.folderId } : {});
/** A move's target: absent, where the item is; "", the top level; else that folder. */
const moveTarget = (request: { folderId?: string }) => (request.folderId === undefined ? {} : { folderId: request.folderId === '' ? null : request.folderId });
const added = (result: { item: MediaItem; index: number }) => ({ item: mediaItem(result.item), index: result.index });
/** Unspecified is passed on as given: the room's validation names the field (order). */
const FOLDER_PLAY_ORDERS: Record<string, string> = {
  FOLDER_PLAY_ORDER_IN_ORDER: 'in_order',
  FOLDER_PLAY_ORDER_SHUFFLE: 'shuffle',
  FOLDER_PLAY_ORDER_UNSPECIFIED: 'unspecified',
};
const asIs = <T>(result: T): T => result;

/** PlaylistService: one row per actor command. */
export function playlistService(rooms: RoomCalls): Handlers<PlaylistServiceHandlers> {
  return {
    Push: rooms.command('playlist.push', (request) => ({ ...mediaFields(request), ...intoFolder(request) }), added),
    Insert: rooms.command('playlist.insert', (request) => ({ index: request.index, ...mediaFields(request), ...intoFolder(request) }), added),
    Move: rooms.command(
      'playlist.move',
      (request) => ({ mediaId: request.mediaId, toIndex: request.toIndex, ...moveTarget(request) }),
      (result) => ({ mediaId: result.mediaId, index: result.index, ...(result.folderId !== null ? { folderId: result.folderId } : {}) }),
    ),
    Edit: rooms.command(
      'playlist.edit',
      (request) => ({
        mediaId: request.mediaId,
        title: request.title,
        url: request.url,
        provider: request.provider,
        headers: request.headers ? headersIn(request.headers.headers) : undefined,
        subtitles: request.subtitles ? subtitlesIn(request.subtitles.subtitles) : undefined,
        live: request.live,
        proxy: request.proxy,
      }),
      (result) => ({ item: mediaItem(result.item) }),
    ),
    Remove: rooms.command('playlist.remove', (request) => ({ mediaId: request.mediaId }), asIs),
    Clear: rooms.command('playlist.clear', () => ({}), asIs),
    SetCurrent: rooms.command(
      'playlist.setCurrent',
      (request) => ({ mediaId: request.mediaId, expectMediaId: expectedMedia(request.expectMediaId), expectVersion: request.expectVersion }),
      (result) => ({ playback: playback(result.playback) }),
    ),
    AddFolder: rooms.command(
      'playlist.folder.add',
      (request) => ({ title: request.title, ...(request.index !== undefined ? { index: request.index } : {}) }),
      (result) => ({ folder: playlistFolder(result.folder) }),
    ),
    RenameFolder: rooms.command(
      'playlist.folder.rename',
      (request) => ({ folderId: request.folderId, title: request.title }),
      (result) => ({ folder: playlistFolder(result.folder) }),
    ),
    MoveFolder: rooms.command('playlist.folder.move', (request) => ({ folderId: request.folderId, toIndex: request.toIndex }), asIs),
    PlayFolder: rooms.command(
      'playlist.folder.play',
      (request) => ({ folderId: request.folderId, order: FOLDER_PLAY_ORDERS[request.order] as 'in_order' | 'shuffle' }),
      (result) => ({ playback: playback(result.playback) }),
    ),
    RemoveFolder: rooms.command('playlist.folder.remove', (request) => ({ folderId: request.folderId, withItems: request.withItems }), asIs),
    Vote: rooms.command('playlist.vote', (request) => ({ mediaId: request.mediaId, vote: request.vote }), (result) => ({ queueVotes: queueVotes(result.queueVotes) })),
  };
}

function subtitlesIn(subtitles: Subtitle__Output[]): Subtitle[] {
  // An unknown format is passed on as given: the room's validation names it (subtitles.N.format).
  return subtitles.map((subtitle) => ({
    name: subtitle.name,
    ...(subtitle.url !== undefined ? { url: subtitle.url } : {}),
    ...(subtitle.language !== undefined ? { language: subtitle.language } : {}),
    ...(subtitle.fileId !== undefined ? { fileId: subtitle.fileId } : {}),
    ...(subtitle.stream !== undefined ? { stream: subtitle.stream } : {}),
    ...(subtitle.format !== undefined ? { format: subtitle.format as SubtitleFormatName } : {}),
    ...(subtitle.default ? { default: true } : {}),
  }));
}

/** The actor's header record; a name given twice would silently lose one value, so it is refused. */
function headersIn(headers: Header__Output[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of headers) {
    if (Object.hasOwn(out, name)) throw AppError.invalid([{ key: `headers.${name}`, message: 'is given twice' }]);
    out[name] = value;
  }
  return out;
}
