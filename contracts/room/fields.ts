/**
 * The fields room commands share with the transports that carry them (HTTP bodies and paths,
 * WebSocket frames): each rule is written once, here, so what a gateway accepts is what the room
 * accepts. Every string follows contracts/text.ts: PostgreSQL cannot store NUL, and no gateway
 * issues ids with control characters.
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { ROOM_LIMITS } from './limits.js';

export const userId = oneLineText().min(1).max(128).meta({ description: 'A member\'s user id (a guest\'s is guest:<session>)' });
export const mediaId = oneLineText().min(1).max(64);

/** Chat message ids are PostgreSQL bigints, carried as decimal strings. */
const MESSAGE_ID = /^[1-9][0-9]{0,18}$/;
const BIGINT_MAX = 9223372036854775807n;
export const messageId = z
  .string()
  .regex(MESSAGE_ID, { error: 'must be a message id (a positive decimal integer)' })
  // Nineteen digits reach past bigint, which PostgreSQL would refuse with an internal error.
  // zod runs this after a failed regex too, hence the guard before BigInt().
  .refine((id) => !MESSAGE_ID.test(id) || BigInt(id) <= BIGINT_MAX, { error: `must be a message id (at most ${BIGINT_MAX})` })
  .meta({ description: 'A chat message id' });

export const position = z.number().min(0).max(ROOM_LIMITS.positionMaxSeconds).meta({ description: 'Seconds' });

/**
 * A scheduled start: the change takes effect this many ms after the room receives it
 * (`updatedAt` lies ahead in server time), so every client can start at the same instant. The
 * lead replaces transit compensation. Honoured when the room ends up playing; ignored otherwise.
 */
export const startInMs = z
  .number()
  .int()
  .min(0)
  .max(ROOM_LIMITS.startInMaxMs)
  .meta({
    description: `A scheduled start: the room starts playing this many ms (0..${ROOM_LIMITS.startInMaxMs}) after it receives the command, so every client can start at the same instant (updatedAt lies ahead). Replaces transit compensation (sentAt). Only when the room ends up playing; a held play (waitForAllReady) starts without it.`,
  });

/** The media's length in seconds as the sender's player saw it (the room keeps the longest reported). */
export const duration = z.number().positive().max(ROOM_LIMITS.positionMaxSeconds).meta({ description: 'The media length in seconds as the player saw it' });

/** Guards against acting on a stale view of playback (answered with `conflict`). */
export const playbackGuards = {
  expectMediaId: oneLineText().max(64).nullable().optional().meta({ description: 'Refuse (conflict) unless this media is current' }),
  expectVersion: z.number().int().min(0).optional().meta({ description: 'Refuse (conflict) unless playback is at this version' }),
};
