/**
 * The playlist endpoints of contracts/http/playlist.ts: one room command each, but for the bulk
 * add, which checks every item with the actor's own content rules before the first command (so
 * invalid input writes nothing) and then sends them one by one, in order.
 */
import { AppError, isAppError, type FieldIssue } from '../../../errors/index.js';
import { checkNewMedia } from '../../../actors/index.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { MediaServices } from '../../../media/index.js';
import * as api from '../../../contracts/http/playlist.js';
import type { EndpointRouter } from '../endpoint-router.js';
import type { RoomCommandEntry } from '../../rooms/command-entry.js';
import { IDEMPOTENCY_HEADER, roomCommand, type RoomRoute } from '../room-command-route.js';
import { memberView, requirePart } from './room-calls.js';

export function playlistRoutes(media: MediaServices | undefined): readonly RoomRoute[] {
  return [
    roomCommand(api.getPlaylist, 'room.get', {
      command: () => ({}),
      answer: (result, seq) => {
        const view = memberView(result);
        return { items: requirePart(view.playlist, 'view_media_resources'), currentMediaId: view.playback.mediaId, seq };
      },
    }),
    (router, commands) => {
      router.mount(api.addPlaylistItem, async (ctx, { caller, params, body }) => {
        const { index, ...fields } = body;
        const common = { transport: 'http', caller, roomId: params.roomId, operation: api.addPlaylistItem.operationId, clientId: ctx.get(IDEMPOTENCY_HEADER) || undefined, trace: ctx.state.trace } as const;
        const { result, seq } =
          index === undefined
            ? await commands.send({ ...common, command: { kind: 'playlist.push', ...fields } })
            : await commands.send({ ...common, command: { kind: 'playlist.insert', index, ...fields } });
        ctx.status = 201;
        ctx.body = { ...result, seq };
      });
    },
    (router, commands) => mountBulkAdd(router, commands, media),
    roomCommand(api.editPlaylistItem, 'playlist.edit', { command: ({ params, body }) => ({ mediaId: params.mediaId, ...body }), answer: (result, seq) => ({ item: result.item, seq }) }),
    roomCommand(api.removePlaylistItem, 'playlist.remove', { command: ({ params }) => ({ mediaId: params.mediaId }), answer: (result, seq) => ({ mediaId: result.mediaId, seq }) }),
    roomCommand(api.movePlaylistItem, 'playlist.move', {
      command: ({ params, body }) => ({ mediaId: params.mediaId, toIndex: body.toIndex, ...(body.folderId !== undefined ? { folderId: body.folderId } : {}) }),
      answer: (result, seq) => ({ ...result, seq }),
    }),
    roomCommand(api.addPlaylistFolder, 'playlist.folder.add', { command: ({ body }) => body, answer: (result, seq) => ({ folder: result.folder, seq }), status: 201 }),
    roomCommand(api.renamePlaylistFolder, 'playlist.folder.rename', {
      command: ({ params, body }) => ({ folderId: params.folderId, title: body.title }),
      answer: (result, seq) => ({ folder: result.folder, seq }),
    }),
    roomCommand(api.movePlaylistFolder, 'playlist.folder.move', {
      command: ({ params, body }) => ({ folderId: params.folderId, toIndex: body.toIndex }),
      answer: (result, seq) => ({ ...result, seq }),
    }),
    roomCommand(api.playPlaylistFolder, 'playlist.folder.play', {
      command: ({ params, body }) => ({ folderId: params.folderId, order: body.order }),
      answer: (result, seq) => ({ playback: result.playback, seq }),
    }),
    roomCommand(api.removePlaylistFolder, 'playlist.folder.remove', {
      command: ({ params, query }) => ({ folderId: params.folderId, withItems: query.withItems === 'true' }),
      answer: (result, seq) => ({ ...result, seq }),
    }),
    roomCommand(api.clearPlaylist, 'playlist.clear', { command: () => ({}), answer: (result, seq) => ({ removed: result.removed, seq }) }),
    roomCommand(api.setCurrentMedia, 'playlist.setCurrent', { command: ({ body }) => body, answer: (result, seq) => ({ playback: result.playback, seq }) }),
    roomCommand(api.voteMedia, 'playlist.vote', {
      command: ({ params, body }) => ({ mediaId: params.mediaId, vote: body.vote }),
      answer: (result, seq) => ({ queueVotes: result.queueVotes, seq }),
    }),
  ];
}

function mountBulkAdd(router: EndpointRouter, commands: RoomCommandEntry, media: MediaServices | undefined): void {
  router.mount(api.addPlaylistItems, async (ctx, { caller, params, body }) => {
    const issues: FieldIssue[] = [];
    body.items.forEach((item, i) => {
      try {
        const fields = checkNewMedia(item);
        // A live item's URL is the service's own (set by the room).
        const byProvider = media?.providers.checkMedia({ provider: fields.provider ?? 'direct', url: fields.url ?? '', headers: fields.headers ?? {}, roomId: params.roomId }) ?? [];
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
        const answer = await commands.send({
          transport: 'http',
          caller,
          roomId: params.roomId,
          command: { kind: 'playlist.push', ...item, ...(body.folderId ? { folderId: body.folderId } : {}) },
          operation: api.addPlaylistItems.operationId,
          clientId: ctx.get(IDEMPOTENCY_HEADER) || undefined,
          part: i,
          trace: ctx.state.trace,
          // One request is one command for the caller's rate, however many items it adds.
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
  });
}
