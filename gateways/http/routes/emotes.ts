/**
 * Custom room emotes (docs/2026-11-26-room-emotes.md). The list is for active members, changes
 * for holders of edit_room_settings (asked of the room, `room.get` as the caller, before anything
 * is decoded or written). The pictures are served outside `/api`, since an <img> sends no bearer
 * token, under an unguessable hash per version: public to whoever has the URL, like an avatar.
 */
import Router from '@koa/router';
import type pg from 'pg';
import { subjectOf, type Caller } from '../../../accounts/index.js';
import type { MemberRoomView } from '../../../contracts/room/model.js';
import { AppError } from '../../../errors/index.js';
import { isVersionHash } from '../../../images/index.js';
import { makeEmote } from '../../../emotes/index.js';
import { RoomEmotes } from '../../../emotes/index.js';
import * as api from '../../../contracts/http/emotes.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { sendVersionedWebp } from '../image-response.js';
import type { HttpState } from '../state.js';

export function mountEmoteRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  const emotes = new RoomEmotes(deps.pool);

  const memberView = async (caller: Caller, roomId: string): Promise<MemberRoomView> => {
    const { result: view } = await deps.rooms.send(roomId, { kind: 'room.get' }, caller);
    if (view.access !== 'member') throw new AppError('forbidden', "only the room's active members see its emotes; join the room first");
    return view;
  };
  const requireSettings = async (caller: Caller, roomId: string): Promise<void> => {
    const view = await memberView(caller, roomId);
    if (!view.me.permissions.includes('edit_room_settings')) throw new AppError('forbidden', "changing the room's emotes needs the edit_room_settings permission in this room");
  };

  router
    .mount(api.listEmotes, async (ctx, { caller, params }) => {
      await memberView(caller, params.roomId);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { emotes: await emotes.list(params.roomId) };
    })
    .mount(api.putEmote, async (ctx, { caller, params, body }) => {
      await requireSettings(caller, params.roomId);
      const image = await makeEmote(Buffer.from(body.content, 'base64'));
      ctx.body = { emote: await emotes.put(params.roomId, params.name, image, subjectOf(caller)) };
    })
    .mount(api.deleteEmote, async (ctx, { caller, params }) => {
      await requireSettings(caller, params.roomId);
      if (!(await emotes.remove(params.roomId, params.name))) throw new AppError('not_found', `this room has no emote :${params.name}:`);
      ctx.body = { removed: true };
    });
}

export function emoteImageRoutes(pool: pg.Pool): Router<HttpState> {
  const emotes = new RoomEmotes(pool);
  const router = new Router<HttpState>({ prefix: '/media/emotes' });
  router.get('/:roomId/:file', async (ctx) => {
    const { roomId, file } = ctx.params as { roomId: string; file: string };
    const hash = file.endsWith('.webp') ? file.slice(0, -'.webp'.length) : '';
    const bytes = isVersionHash(hash) ? await emotes.image(roomId, hash) : undefined;
    if (bytes === undefined) throw new AppError('not_found', 'no such emote picture (removed or replaced)');
    sendVersionedWebp(ctx, bytes);
  });
  return router;
}
