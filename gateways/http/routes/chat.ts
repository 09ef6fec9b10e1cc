import type { GatewayDeps } from '../../gateway-deps.js';
import * as api from '../../../contracts/http/chat.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { commandOptions } from './room-calls.js';

/** The chat endpoints of `api/chat.ts`, each a room-actor command sent as the caller. */
export function mountChatRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  const { rooms } = deps;

  router
    .mount(api.sendChat, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'chat.send', ...body }, caller, commandOptions(ctx, api.sendChat.operationId, caller, params.roomId));
      ctx.status = 201;
      ctx.body = { ...result, seq };
    })
    .mount(api.chatHistory, async (ctx, { caller, params, query }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'chat.history', ...(query.cursor ? { before: query.cursor } : {}), ...(query.limit ? { limit: query.limit } : {}) },
        caller,
      );
      ctx.body = { messages: result.messages, ...(result.nextBefore ? { nextCursor: result.nextBefore } : {}), seq };
    })
    .mount(api.deleteChat, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'chat.delete', messageId: params.messageId },
        caller,
        commandOptions(ctx, api.deleteChat.operationId, caller, params.roomId),
      );
      ctx.body = { messageId: result.messageId, seq };
    })
    .mount(api.listPins, async (ctx, { caller, params, query }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'chat.pins', ...(query.cursor ? { before: query.cursor } : {}), ...(query.limit ? { limit: query.limit } : {}) },
        caller,
      );
      ctx.body = { messages: result.messages, ...(result.nextBefore ? { nextCursor: result.nextBefore } : {}), seq };
    })
    .mount(api.pinChat, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'chat.pin', messageId: params.messageId }, caller, commandOptions(ctx, api.pinChat.operationId, caller, params.roomId));
      ctx.body = { message: result.message, seq };
    })
    .mount(api.unpinChat, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'chat.unpin', messageId: params.messageId }, caller, commandOptions(ctx, api.unpinChat.operationId, caller, params.roomId));
      ctx.body = { message: result.message, seq };
    });
}
