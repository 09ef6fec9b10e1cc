/** PlaylistService: actor commands playlist.* with the actor's field names. */
import type { Subtitle } from '../../../contracts/room/model.js';
import { AppError } from '../../../errors/app-error.js';
import type { GrpcCalls } from '../call.js';
import type { Header__Output } from '../gen/svc/v1/Header.js';
import type { PlaylistServiceHandlers } from '../gen/svc/v1/PlaylistService.js';
import type { Subtitle__Output } from '../gen/svc/v1/Subtitle.js';
import { expectedMedia, type RoomCalls } from '../room-calls.js';
import { mediaItem, playback } from '../views.js';

export function playlistService(calls: GrpcCalls, rooms: RoomCalls): PlaylistServiceHandlers {
  return {
    Push: calls.unary(async (request, ctx) => {
      const { item, index } = await rooms.send(ctx, request.roomId, {
        kind: 'playlist.push',
        title: request.title,
        url: request.url,
        provider: request.provider,
        headers: headersIn(request.headers),
        subtitles: subtitlesIn(request.subtitles),
        live: request.live,
        proxy: request.proxy,
      });
      return { item: mediaItem(item), index };
    }),
    Insert: calls.unary(async (request, ctx) => {
      const { item, index } = await rooms.send(ctx, request.roomId, {
        kind: 'playlist.insert',
        index: request.index,
        title: request.title,
        url: request.url,
        provider: request.provider,
        headers: headersIn(request.headers),
        subtitles: subtitlesIn(request.subtitles),
        live: request.live,
        proxy: request.proxy,
      });
      return { item: mediaItem(item), index };
    }),
    Move: calls.unary(async (request, ctx) => rooms.send(ctx, request.roomId, { kind: 'playlist.move', mediaId: request.mediaId, toIndex: request.toIndex })),
    Edit: calls.unary(async (request, ctx) => {
      const { item } = await rooms.send(ctx, request.roomId, {
        kind: 'playlist.edit',
        mediaId: request.mediaId,
        title: request.title,
        url: request.url,
        provider: request.provider,
        headers: request.headers ? headersIn(request.headers.headers) : undefined,
        subtitles: request.subtitles ? subtitlesIn(request.subtitles.subtitles) : undefined,
        live: request.live,
        proxy: request.proxy,
      });
      return { item: mediaItem(item) };
    }),
    Remove: calls.unary(async (request, ctx) => rooms.send(ctx, request.roomId, { kind: 'playlist.remove', mediaId: request.mediaId })),
    Clear: calls.unary(async (request, ctx) => rooms.send(ctx, request.roomId, { kind: 'playlist.clear' })),
    SetCurrent: calls.unary(async (request, ctx) => {
      const result = await rooms.send(ctx, request.roomId, {
        kind: 'playlist.setCurrent',
        mediaId: request.mediaId,
        expectMediaId: expectedMedia(request.expectMediaId),
        expectVersion: request.expectVersion,
      });
      return { playback: playback(result.playback) };
    }),
  };
}

function subtitlesIn(subtitles: Subtitle__Output[]): Subtitle[] {
  return subtitles.map((subtitle) => ({ name: subtitle.name, url: subtitle.url, ...(subtitle.language !== undefined ? { language: subtitle.language } : {}) }));
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
