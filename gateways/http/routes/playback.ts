/**
 * The playback endpoints of contracts/http/playback.ts: one room command each, the client's
 * `sentAt` passed through for transit compensation.
 */
import * as api from '../../../contracts/http/playback.js';
import { roomCommand, type RoomRoute } from '../room-command-route.js';
import { memberView } from './room-calls.js';

/** The body without `sentAt`, which travels beside the command. */
const fields = <B extends { sentAt?: number | undefined }>({ body }: { body: B | undefined }): Omit<B, 'sentAt'> => {
  const { sentAt: _sentAt, ...rest } = body ?? ({} as B);
  return rest;
};
const sentAt = ({ body }: { body: { sentAt?: number | undefined } | undefined }) => body?.sentAt;
const answer = (result: { playback: unknown }, seq: number) => ({ playback: result.playback, seq });

export const PLAYBACK_ROUTES: readonly RoomRoute[] = [
  roomCommand(api.getPlayback, 'room.get', { command: () => ({}), answer: (view, seq) => ({ playback: memberView(view).playback, seq }) }),
  roomCommand(api.play, 'playback.play', { command: fields, sentAt, answer }),
  roomCommand(api.pause, 'playback.pause', { command: fields, sentAt, answer }),
  roomCommand(api.seek, 'playback.seek', { command: fields, sentAt, answer }),
  roomCommand(api.setRate, 'playback.rate', { command: fields, sentAt, answer }),
  roomCommand(api.next, 'playback.next', { command: fields, sentAt, answer }),
  roomCommand(api.previous, 'playback.previous', { command: fields, sentAt, answer }),
  roomCommand(api.reportEnded, 'playback.ended', {
    command: ({ body }) => ({ mediaId: body.mediaId, ...(body.duration !== undefined ? { duration: body.duration } : {}) }),
    answer,
  }),
  roomCommand(api.voteSkip, 'playback.voteSkip', { command: ({ body }) => body, answer: (result, seq) => ({ ...result, seq }) }),
  roomCommand(api.reportPlayer, 'member.player', { command: ({ body }) => body, answer: (result, seq) => ({ ...result, seq }) }),
];
