/**
 * The subtitle endpoints of contracts/http/subtitles.ts. Uploads are for members the room lets
 * add or edit media (asked of the room, `room.get` as the caller, before anything is decoded or
 * written); reading tracks is for whoever may play the item (`playlist.playable`, the play
 * endpoint's own check: the current item for every member, guests included).
 */
import type { Socket } from 'node:net';
import { subjectOf, type Caller } from '../../../accounts/index.js';
import { requireProxySwitch } from '../../../actors/index.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import { formatFromName } from '../../../contracts/room/subtitles.js';
import { AppError } from '../../../errors/index.js';
import type { MediaServices } from '../../../media/index.js';
import { isProxied } from '../../../media/index.js';
import { fileNameOf, proxyUrl } from '../../../media/index.js';
import { SubtitleFiles } from '../../../media/index.js';
import { SubtitleTextError } from '../../../media/index.js';
import { upstreamReadKey } from '../../../media/index.js';
import { SubtitleTracks, type EmbeddedSource, type ProvidedSource } from '../../../media/index.js';
import { SUBTITLE_LIMITS } from '../../../contracts/room/subtitles.js';
import * as api from '../../../contracts/http/subtitles.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import type { EndpointRouter } from '../endpoint-router.js';
import type { HttpContext } from '../state.js';

const UPLOAD_PERMISSIONS = ['create_media_resource', 'edit_media_resource'] as const;
/** Longest a provider's server may take to say which subtitle streams a file has. */
const PROVIDED_TIMEOUT_MS = 30_000;

export function mountSubtitleRoutes(router: EndpointRouter, deps: GatewayDeps, media: MediaServices): void {
  const files = new SubtitleFiles(deps.pool);
  const tracks = new SubtitleTracks(files, media.client, media.tools, media.subtitleWorkers);

  const playable = async (caller: Caller, roomId: string, mediaId: string): Promise<MediaItem> => {
    const { result } = await deps.rooms.send(roomId, { kind: 'playlist.playable', mediaId }, caller);
    return result.item;
  };

  /**
   * The item's media as ffmpeg reads it: a signed URL of this service's own proxy, for the
   * caller's session, on the address the request came in on (so always this process). Only a
   * proxied file has one: its upstream was resolved and is read under the SSRF rules.
   */
  const embeddedOf =
    (ctx: HttpContext, caller: Caller, roomId: string, item: MediaItem): EmbeddedSource =>
    async () => {
      const provider = media.providers.get(item.provider);
      if (!provider || provider.play || item.live || provider.live || !isProxied(provider, item)) return undefined;
      try {
        requireProxySwitch(deps.settings, item);
      } catch {
        return undefined;
      }
      const upstream = await media.resolutions.get(roomId, item, provider);
      if (upstream.type !== 'file') return undefined;
      const expiresAt = Date.now() + media.grantTtlMs;
      const token = media.grants.sign({ roomId, userId: subjectOf(caller), sessionId: caller.sessionId, mediaId: item.id, resource: '', expiresAt });
      return { url: `${loopbackOrigin(ctx.req.socket)}${proxyUrl(token, fileNameOf(upstream.url))}`, key: `${roomId}\0${item.id}\0${upstream.identity}`, identity: upstreamReadKey(upstream) };
    };

  /** The subtitle streams the item's provider offers (a Jellyfin or Emby library's). */
  const providedOf =
    (roomId: string, item: MediaItem): ProvidedSource =>
    async () => {
      const provider = media.providers.get(item.provider);
      if (!provider?.subtitles) return [];
      return provider.subtitles(item, { signal: AbortSignal.timeout(PROVIDED_TIMEOUT_MS), roomId });
    };

  router
    .mount(api.uploadSubtitleFile, async (ctx, { caller, params, body }) => {
      const { result: view } = await deps.rooms.send(params.roomId, { kind: 'room.get' }, caller);
      if (view.access !== 'member') throw new AppError('forbidden', 'only active members can upload subtitles; join the room first');
      if (!UPLOAD_PERMISSIONS.some((permission) => view.me.permissions.includes(permission))) {
        throw new AppError('forbidden', 'uploading subtitles needs the create_media_resource or edit_media_resource permission in this room');
      }
      const bytes = Buffer.from(body.content, 'base64');
      if (bytes.length > SUBTITLE_LIMITS.fileMaxBytes) {
        throw new AppError('payload_too_large', `content is ${bytes.length} bytes, more than the ${SUBTITLE_LIMITS.fileMaxBytes} a subtitle file may have`);
      }
      let stored;
      try {
        // Decoded, read and checked against the caps in a subtitle worker, off the event loop.
        stored = await media.subtitleWorkers.upload(bytes, body.format ?? formatFromName(body.name));
      } catch (error) {
        if (error instanceof SubtitleTextError) throw AppError.invalid([{ key: 'content', message: error.message }]);
        throw error;
      }
      const file = await files.add({ roomId: params.roomId, name: body.name.trim(), format: stored.format, text: stored.text, createdBy: subjectOf(caller) });
      ctx.status = 201;
      ctx.body = { file: { id: file.id, name: file.name, format: file.format, size: file.size } };
    })
    .mount(api.getSubtitleTracks, async (ctx, { caller, params }) => {
      const item = await playable(caller, params.roomId, params.mediaId);
      const list = await tracks.list(params.roomId, item, embeddedOf(ctx, caller, params.roomId, item), providedOf(params.roomId, item));
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { tracks: list };
    })
    .mount(api.getSubtitleTrack, async (ctx, { caller, params }) => {
      const item = await playable(caller, params.roomId, params.mediaId);
      const answer = await tracks.text(params.roomId, item, params.trackId, embeddedOf(ctx, caller, params.roomId, item), providedOf(params.roomId, item));
      // Private to the member (the access check is per request), but the same text for a while.
      ctx.set('Cache-Control', 'private, max-age=60');
      ctx.body = answer;
    });
}

/** `http://<address>:<port>` of the listener `socket` reached: this process, whatever name clients use. */
function loopbackOrigin(socket: Socket): string {
  if ('encrypted' in socket) throw new AppError('unavailable', 'embedded subtitles need the service to listen on plain HTTP (TLS ends at a reverse proxy)');
  let address = socket.localAddress ?? '127.0.0.1';
  if (address.startsWith('::ffff:')) address = address.slice('::ffff:'.length);
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${socket.localPort}`;
}
