/**
 * What the room endpoints share beyond the room model (contracts/room/model.ts): listings, path
 * parameters, the idempotency header, playback guards and answers.
 */
import { z } from 'zod';
import { GUEST_PERMISSION_CEILING } from '../permissions/defaults.js';
import { isAdministration, isPermission, PERMISSIONS } from '../permissions/names.js';
import { ms, Permission, PlaybackView, RoomStatus, RoomVisibility } from '../room/model.js';

export { duration as mediaDuration, mediaId, messageId, playbackGuards, position, userId } from '../room/fields.js';

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
export type RoomSummary = z.infer<typeof RoomSummary>;

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

const notAPermission = (input: unknown): string => `${(JSON.stringify(input) ?? String(input)).slice(0, 64)} is not a permission name`;

/**
 * A role's override list as the room accepts it (actors/room/validate.ts): any permission for
 * admins, none of the administration ones for members, the guest ceiling for guests.
 */
export const overrideLists = {
  admin: z.array(Permission).max(64),
  member: z
    .array(z.enum(PERMISSIONS.filter((name) => !isAdministration(name)), { error: (issue) => (isPermission(issue.input) ? `${issue.input} belong to the admin role; make the user an admin instead` : notAPermission(issue.input)) }))
    .max(64),
  guest: z
    .array(z.enum(GUEST_PERMISSION_CEILING, { error: (issue) => (isPermission(issue.input) ? `${issue.input} is above the guest ceiling (${GUEST_PERMISSION_CEILING.join(', ')})` : notAPermission(issue.input)) }))
    .max(64)
    .meta({ description: `At most ${GUEST_PERMISSION_CEILING.join(', ')}` }),
};
