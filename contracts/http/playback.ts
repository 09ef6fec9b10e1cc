/**
 * Synchronized playback (`/api/rooms/{roomId}/playback`): the state, the controls, and player
 * reports. Each is a room-actor command; `sentAt` (the client's send time in server-clock ms,
 * from GET /api/public/time) lets the room compensate transit for play and seek. A leaf module.
 */
import { z } from 'zod';
import { ROOM_LIMITS } from '../room/limits.js';
import { defineEndpoint } from './endpoint.js';
import * as fields from '../room/fields.js';
import { MemberView, PlaybackView, VoteSkip } from '../room/model.js';
import { idempotencyHeaders, mediaDuration, mediaId, PlaybackAnswer, playbackGuards, position, roomId, seq } from './room.js';

const TAGS = ['playback'];
const ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;
const roomParams = z.strictObject({ roomId });
const sentAt = z.number().int().min(0).max(8.64e15).optional().meta({ description: 'When the client sent this, in server-clock ms (see GET /api/public/time)' });

const startInMs = fields.startInMs.optional();

export const getPlayback = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/playback',
  operationId: 'getPlayback',
  summary: 'The playback state now (active members)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  responses: { 200: { description: 'Playback', schema: PlaybackAnswer } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'],
});

/** Without a required field the body may be left out (POST .../next with no body). */
function bodyOf<S extends z.ZodObject>(schema: S): S | z.ZodOptional<S> {
  const required = Object.values(schema.shape).some((field) => !(field as z.ZodType).safeParse(undefined).success);
  return required ? schema : schema.optional();
}

function control<const Id extends string, S extends z.ZodRawShape>(action: string, operationId: Id, summary: string, shape: S) {
  return defineEndpoint({
    method: 'post',
    path: `/api/rooms/{roomId}/playback/${action}`,
    operationId,
    summary,
    tags: TAGS,
    access: 'user_or_guest',
    params: roomParams,
    headers: idempotencyHeaders,
    body: bodyOf(z.strictObject({ ...shape, sentAt, ...playbackGuards })),
    responses: { 200: { description: 'Playback now (unchanged when there was nothing to do)', schema: PlaybackAnswer } },
    errors: [...ERRORS],
  });
}

export const play = control('play', 'play', 'Play for everyone (control_playback); position, when given, is where the sender\'s player is', {
  position: position.optional(),
  startInMs,
});
export const pause = control('pause', 'pause', 'Pause for everyone (control_playback); position, when given, is where the sender\'s player stopped', {
  position: position.optional(),
});
export const seek = control('seek', 'seek', 'Seek for everyone (control_playback); startInMs, when the room is playing, resumes from position at a scheduled instant', {
  position,
  startInMs,
});
export const setRate = control('rate', 'setRate', 'Change the playback rate (control_playback)', {
  rate: z.number().min(ROOM_LIMITS.rateMin).max(ROOM_LIMITS.rateMax),
});
export const next = control('next', 'playNext', 'Play the next item (set_current_media)', {});
export const previous = control('previous', 'playPrevious', 'Play the previous item (set_current_media)', {});

export const reportEnded = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playback/ended',
  operationId: 'reportEnded',
  summary: 'The caller\'s player reached the end of mediaId; the room goes on by its queue mode once, however many report it',
  description:
    'Any member may report. The room goes on only when mediaId is current and playing and its own clock has reached the item\'s length (the longest duration players reported; with control_playback, the duration given here); otherwise conflict. Reports about media no longer current change nothing. docs/2026-11-26-queue-modes.md',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ mediaId, duration: mediaDuration.optional() }),
  responses: { 200: { description: 'Playback now', schema: PlaybackAnswer } },
  errors: [...ERRORS],
});

export const voteSkip = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playback/vote-skip',
  operationId: 'voteSkip',
  summary: 'Vote to skip the current item (vote); vote false takes the vote back',
  description:
    'One vote per present member per item. When the votes reach the room\'s voteSkipPercent of the present members holding vote, the room skips (skipped: true) by its queue mode. conflict when vote-skip is off, mediaId is not current, or the caller has no realtime connection in the room. docs/2026-11-26-votes-and-polls.md',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ mediaId, vote: z.boolean() }),
  responses: {
    200: {
      description: 'The votes after this one, and playback now',
      schema: z.strictObject({ voteSkip: VoteSkip, skipped: z.boolean(), playback: PlaybackView, seq }).meta({ id: 'VoteSkipAnswer' }),
    },
  },
  errors: [...ERRORS],
});

export const reportPlayer = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playback/player',
  operationId: 'reportPlayer',
  summary: 'Report the caller\'s player state (online members: the caller needs a realtime connection in the room)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  body: z.strictObject({
    state: z.enum(['buffering', 'ready', 'ended']),
    mediaId: mediaId.nullable(),
    duration: mediaDuration.optional().meta({ description: 'The length of mediaId as the player saw it, once known (the room ends items by it)' }),
  }),
  responses: { 200: { description: 'The caller as a member, and playback now', schema: z.strictObject({ member: MemberView, playback: PlaybackView, seq }) } },
  errors: [...ERRORS],
});
