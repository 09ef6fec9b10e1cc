/**
 * What the room endpoints share beyond the room model (contracts/room/model.ts): listings, path
 * parameters, the idempotency header, playback guards and answers.
 */
import { z } from 'zod';
import { PlaybackView, RoomStatus, RoomVisibility } from '../room/model.js';

export { duration as mediaDuration, mediaId, messageId, playbackGuards, position, userId } from '../room/fields.js';

const ms = (description: string) => z.number().int().meta({ description: `${description} (server ms since the epoch)` });

/** An entry of a room listing (the public directory, "my rooms", the admin listing). */
export const RoomSummary = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    visibility: RoomVisibility,
    status: RoomStatus,
    hasPassword: z.boolean(),
    requireJoinApproval: z.boolean(),
    memberCount: z.number().int().meta({ description: 'Active members' }),
    createdAt: ms('Created'),
  })
  .meta({ id: 'RoomSummary' });

export const RoomPage = z
  .strictObject({
    rooms: z.array(RoomSummary),
    nextCursor: z.string().optional().meta({ description: 'Pass as cursor for the next page; absent on the last' }),
  })
  .meta({ id: 'RoomPage' });

/** The room's event seq when the actor answered: realtime events up to it are reflected. */
export const seq = z.number().int().meta({ description: 'The room event seq when the command was answered' });

export const PlaybackAnswer = z.strictObject({ playback: PlaybackView, seq }).meta({ id: 'PlaybackAnswer' });

/** Path parameters shared by every room endpoint. */
export const roomId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: 'must be a room id (letters, digits, "_" and "-")' })
  .meta({ description: 'The room id (from POST /api/rooms or a link)' });

/**
 * Request headers of a room POST: an idempotency key. A retried request with the same key
 * (same caller, operation and room) runs once and gets the first answer; see
 * docs/2026-11-23-rooms-api.md.
 */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/, { error: 'must be 1..128 visible ASCII characters' })
    .optional()
    .meta({ description: 'Makes a retry of this request run once (same caller, operation and room)' }),
});
