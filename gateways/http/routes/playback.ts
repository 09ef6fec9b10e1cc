import type { Caller } from '../../../accounts/model.js';
import type { RoomCommandKind, RoomCommandOf } from '../../../actors/room/commands.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import type { Endpoint } from '../api/endpoint.js';
import * as api from '../api/playback.js';
import type { EndpointRouter } from '../endpoint-router.js';
import type { HttpContext } from '../state.js';
import { commandOptions, memberView } from './room-calls.js';

type PlaybackKind = 'playback.play' | 'playback.pause' | 'playback.seek' | 'playback.rate' | 'playback.next' | 'playback.previous';

/**
 * The playback endpoints of `api/playback.ts`, each a room-actor command sent as the caller
 * with the client's `sentAt` passed through for transit compensation.
 */
export function mountPlaybackRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  const { rooms } = deps;

  const control = async <K extends PlaybackKind>(
    ctx: HttpContext,
    endpoint: Endpoint,
    caller: Caller,
    roomId: string,
    kind: K,
    body: (Omit<RoomCommandOf<K>, 'kind'> & { sentAt?: number | undefined }) | undefined,
  ): Promise<void> => {
    const { sentAt, ...fields } = body ?? {};
    const command = { kind, ...fields } as RoomCommandOf<K> & { kind: K };
    const { result, seq } = await rooms.send<RoomCommandKind & K>(roomId, command, caller, {
      ...commandOptions(ctx, endpoint.operationId, caller, roomId),
      ...(sentAt !== undefined ? { sentAt } : {}),
    });
    ctx.body = { playback: result.playback, seq };
  };

  router
    .mount(api.getPlayback, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'room.get' }, caller);
      ctx.body = { playback: memberView(result).playback, seq };
    })
    .mount(api.play, (ctx, { caller, params, body }) => control(ctx, api.play, caller, params.roomId, 'playback.play', body))
    .mount(api.pause, (ctx, { caller, params, body }) => control(ctx, api.pause, caller, params.roomId, 'playback.pause', body))
    .mount(api.seek, (ctx, { caller, params, body }) => control(ctx, api.seek, caller, params.roomId, 'playback.seek', body))
    .mount(api.setRate, (ctx, { caller, params, body }) => control(ctx, api.setRate, caller, params.roomId, 'playback.rate', body))
    .mount(api.next, (ctx, { caller, params, body }) => control(ctx, api.next, caller, params.roomId, 'playback.next', body))
    .mount(api.previous, (ctx, { caller, params, body }) => control(ctx, api.previous, caller, params.roomId, 'playback.previous', body))
    .mount(api.reportEnded, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'playback.ended', mediaId: body.mediaId, ...(body.duration !== undefined ? { duration: body.duration } : {}) },
        caller,
        commandOptions(ctx, api.reportEnded.operationId, caller, params.roomId),
      );
      ctx.body = { playback: result.playback, seq };
    })
    .mount(api.reportPlayer, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'member.player', ...body }, caller);
      ctx.body = { ...result, seq };
    });
}
