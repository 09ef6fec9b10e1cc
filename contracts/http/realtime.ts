/**
 * Realtime tickets: what opens a room's WebSocket (`docs/2026-11-23-realtime-protocol.md`).
 * A leaf module (zod and the error codes only).
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

const roomParams = z.strictObject({
  roomId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: 'must be a room id (1 to 128 characters of A-Z, a-z, 0-9, "_" or "-")' })
    .meta({ description: 'The room id' }),
});

export const RealtimeTicket = z
  .object({
    ticket: z.string().meta({ description: 'Single use; send it as the Sec-WebSocket-Protocol entry `ticket.<ticket>`.' }),
    expiresIn: z.number().int().meta({ description: 'Seconds the ticket stays valid if unused.' }),
    path: z.string().meta({ description: 'Where to open the socket (same host): /api/rooms/{roomId}/realtime' }),
    protocols: z.array(z.string()).meta({ description: 'The Sec-WebSocket-Protocol list to offer: the versions spoken, then the ticket entry.' }),
  })
  .meta({ id: 'RealtimeTicket' });

export const createRealtimeTicket = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/realtime/ticket',
  operationId: 'createRealtimeTicket',
  summary: "A single-use ticket for the room's WebSocket",
  description:
    'For an active member of the room (user or guest). The ticket is bound to this session and room, is valid for about 30 seconds and is spent by the first connection that presents it; request a new one for every connection attempt.',
  tags: ['realtime'],
  access: 'user_or_guest',
  params: roomParams,
  responses: { 200: { description: 'The ticket', schema: RealtimeTicket } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'busy', 'rate_limited', 'unavailable'],
});
