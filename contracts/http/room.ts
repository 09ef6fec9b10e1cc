/**
 * What the room endpoints share beyond the room model (contracts/room/model.ts): listings, path
 * parameters, the idempotency header, playback guards and answers.
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { ROOM_LIMITS } from '../room/limits.js';
import { PlaybackView, RoomStatus, RoomVisibility } from '../room/model.js';

const ms = (description: string) => z.number().int().meta({ description: `${description} (server ms since the epoch)` });

/** A media length in seconds as a player saw it (the room keeps the longest reported). */
export const mediaDuration = z.number().positive().max(ROOM_LIMITS.positionMaxSeconds).meta({ description: 'The media length in seconds as the player saw it' });

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
export const userId = oneLineText().min(1).max(128).meta({ description: 'A member\'s user id (a guest\'s is guest:<session>)' });
export const mediaId = oneLineText().min(1).max(64);
export const messageId = z
  .string()
  .regex(/^[1-9][0-9]{0,18}$/, { error: 'must be a message id (a positive decimal integer)' })
  // Nineteen digits reach past PostgreSQL's bigint; BigInt() only runs on digits.
  .refine((id) => !/^[0-9]+$/.test(id) || BigInt(id) <= 9223372036854775807n, { error: 'must be a message id (at most 9223372036854775807)' })
  .meta({ description: 'A chat message id' });

/** Guards against acting on a stale view (answered with `conflict`). */
export const playbackGuards = {
  expectMediaId: oneLineText().max(64).nullable().optional().meta({ description: 'Refuse (conflict) unless this media is current' }),
  expectVersion: z.number().int().min(0).optional().meta({ description: 'Refuse (conflict) unless playback is at this version' }),
};

export const position = z.number().min(0).max(ROOM_LIMITS.positionMaxSeconds).meta({ description: 'Seconds' });

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
