/**
 * Room polls (`/api/rooms/{roomId}/polls`): open, vote, close. Each is a room-actor command;
 * the room's polls are in its view (`polls`). docs/2026-11-26-votes-and-polls.md. A leaf module.
 */
import { z } from 'zod';
import { labelText } from '../text.js';
import { ROOM_LIMITS } from '../room/limits.js';
import { defineEndpoint } from './endpoint.js';
import { Poll } from '../room/model.js';
import { idempotencyHeaders, roomId, seq } from './room.js';
import { messageId } from '../room/fields.js';

const TAGS = ['polls'];
const ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;
const pollId = messageId.meta({ description: 'A poll id' });
const roomParams = z.strictObject({ roomId });
const pollParams = z.strictObject({ roomId, pollId });
const PollAnswer = z.strictObject({ poll: Poll, seq }).meta({ id: 'PollAnswer' });

export const openPoll = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/polls',
  operationId: 'openPoll',
  summary: 'Open a poll (create_poll); one is open at a time, else conflict',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    question: labelText({ maxChars: ROOM_LIMITS.pollQuestionMaxChars, totalChars: ROOM_LIMITS.pollQuestionMaxChars * 2 }).meta({
      description: `1..${ROOM_LIMITS.pollQuestionMaxChars} characters after trimming, something visible among them`,
    }),
    options: z
      .array(labelText({ maxChars: ROOM_LIMITS.pollOptionMaxChars, totalChars: ROOM_LIMITS.pollOptionMaxChars * 2 }))
      .min(ROOM_LIMITS.pollOptionsMin)
      .max(ROOM_LIMITS.pollOptionsMax)
      .meta({ description: `${ROOM_LIMITS.pollOptionsMin}..${ROOM_LIMITS.pollOptionsMax} options of 1..${ROOM_LIMITS.pollOptionMaxChars} characters` }),
    durationMs: z
      .number()
      .int()
      .min(ROOM_LIMITS.pollDurationMinMs)
      .max(ROOM_LIMITS.pollDurationMaxMs)
      .optional()
      .meta({ description: 'The poll closes by itself this long after it opens; absent: when closed' }),
  }),
  bodyExamples: { nextFilm: { question: 'What do we watch next?', options: ['Alien', 'Heat', 'Up'] } },
  responses: { 201: { description: 'Opened', schema: PollAnswer } },
  errors: [...ERRORS],
});

export const votePoll = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/polls/{pollId}/vote',
  operationId: 'votePoll',
  summary: 'Choose an option of an open poll (vote); voting again changes the choice',
  tags: TAGS,
  access: 'user_or_guest',
  params: pollParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ choice: z.number().int().min(0).max(ROOM_LIMITS.pollOptionsMax - 1).meta({ description: 'Index into options' }) }),
  responses: { 200: { description: 'The poll with the counts, and myChoice', schema: PollAnswer } },
  errors: [...ERRORS],
});

export const closePoll = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/polls/{pollId}/close',
  operationId: 'closePoll',
  summary: 'Close a poll (its author or a room admin); closing a closed poll changes nothing',
  tags: TAGS,
  access: 'user_or_guest',
  params: pollParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'The closed poll', schema: PollAnswer } },
  errors: [...ERRORS],
});
