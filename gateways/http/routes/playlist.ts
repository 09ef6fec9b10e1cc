import { AppError, isAppError, type FieldIssue } from '../../../errors/app-error.js';
import { checkNewMedia } from '../../../actors/room/index.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import * as api from '../../../contracts/http/playlist.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { commandOptions, memberView, requirePart } from './room-calls.js';

/**
 * The playlist endpoints of `api/playlist.ts`, each a room-actor command sent as the caller.
 * Adding many checks every item with the actor's own content rules before the first command,
 * so invalid input writes nothing; the commands then go one by one, in order.
 */
export function mountPlaylistRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  const { rooms } = deps;

  router
    .mount(api.getPlaylist, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'room.get' }, caller);
      const view = memberView(result);
      ctx.body = { items: requirePart(view.playlist, 'view_media_resources'), currentMediaId: view.playback.mediaId, seq };
    })
    .mount(api.addPlaylistItem, async (ctx, { caller, params, body }) => {
      const { index, ...fields } = body;
      const options = commandOptions(ctx, api.addPlaylistItem.operationId, caller, params.roomId);
      const { result, seq } =
        index === undefined
          ? await rooms.send(params.roomId, { kind: 'playlist.push', ...fields }, caller, options)
          : await rooms.send(params.roomId, { kind: 'playlist.insert', index, ...fields }, caller, options);
      ctx.status = 201;
      ctx.body = { ...result, seq };
    })
    .mount(api.addPlaylistItems, async (ctx, { caller, params, body }) => {
      const issues: FieldIssue[] = [];
      body.items.forEach((item, i) => {
        try {
          const fields = checkNewMedia(item);
          // A live item's URL is the service's own (set by the room).
          const byProvider = deps.media?.providers.checkMedia({ provider: fields.provider ?? 'direct', url: fields.url ?? '', headers: fields.headers ?? {} }) ?? [];
          if (byProvider.length > 0) throw AppError.invalid(byProvider);
        } catch (err) {
          if (!isAppError(err)) throw err;
          for (const issue of err.issues) issues.push({ key: `items.${i}.${issue.key}`, message: issue.message });
        }
      });
      if (issues.length > 0) throw AppError.invalid(issues);

      const added: Array<{ item: MediaItem; index: number }> = [];
      let seq = 0;
      let rejected: { index: number; code: string; message: string } | undefined;
      for (const [i, item] of body.items.entries()) {
        try {
          const answer = await rooms.send(params.roomId, { kind: 'playlist.push', ...item }, caller, {
            ...commandOptions(ctx, api.addPlaylistItems.operationId, caller, params.roomId, i),
            counted: i > 0,
          });
          added.push(answer.result);
          seq = answer.seq;
        } catch (err) {
          // Nothing added yet: the request failed as a whole. Later: report what stopped it.
          if (added.length === 0 || !isAppError(err) || err.code === 'internal') throw err;
          rejected = { index: i, code: err.code, message: err.message };
          break;
        }
      }
      ctx.status = 201;
      ctx.body = { added, ...(rejected ? { rejected } : {}), seq };
    })
    .mount(api.editPlaylistItem, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'playlist.edit', mediaId: params.mediaId, ...body },
        caller,
        commandOptions(ctx, api.editPlaylistItem.operationId, caller, params.roomId),
      );
      ctx.body = { item: result.item, seq };
    })
    .mount(api.removePlaylistItem, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'playlist.remove', mediaId: params.mediaId },
        caller,
        commandOptions(ctx, api.removePlaylistItem.operationId, caller, params.roomId),
      );
      ctx.body = { mediaId: result.mediaId, seq };
    })
    .mount(api.movePlaylistItem, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'playlist.move', mediaId: params.mediaId, toIndex: body.toIndex },
        caller,
        commandOptions(ctx, api.movePlaylistItem.operationId, caller, params.roomId),
      );
      ctx.body = { ...result, seq };
    })
    .mount(api.clearPlaylist, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'playlist.clear' }, caller, commandOptions(ctx, api.clearPlaylist.operationId, caller, params.roomId));
      ctx.body = { removed: result.removed, seq };
    })
    .mount(api.setCurrentMedia, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'playlist.setCurrent', ...body },
        caller,
        commandOptions(ctx, api.setCurrentMedia.operationId, caller, params.roomId),
      );
      ctx.body = { playback: result.playback, seq };
    });
}
