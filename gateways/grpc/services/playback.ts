/** PlaybackService: actor commands playback.*, member.player, and the playback of room.get. */
import { AppError } from '../../../errors/app-error.js';
import type { GrpcCalls } from '../call.js';
import type { PlaybackServiceHandlers } from '../gen/svc/v1/PlaybackService.js';
import { enumIn, expectedMedia, type RoomCalls } from '../room-calls.js';
import { member, playback, PLAYER_STATE } from '../views.js';

export function playbackService(calls: GrpcCalls, rooms: RoomCalls): PlaybackServiceHandlers {
  const guards = (request: { expectMediaId?: string; expectVersion?: number }) => ({
    expectMediaId: expectedMedia(request.expectMediaId),
    expectVersion: request.expectVersion,
  });
  return {
    GetPlayback: calls.unary(async (request, ctx) => {
      const view = await rooms.send(ctx, request.roomId, { kind: 'room.get' });
      if (view.access !== 'member') throw new AppError('forbidden', 'only active members of the room see its playback');
      return { playback: playback(view.playback) };
    }),
    Play: calls.unary(async (request, ctx) => {
      const result = await rooms.send(ctx, request.roomId, { kind: 'playback.play', position: request.position, startInMs: request.startInMs, ...guards(request) }, request.sentAt);
      return { playback: playback(result.playback) };
    }),
    Pause: calls.unary(async (request, ctx) => {
      const result = await rooms.send(ctx, request.roomId, { kind: 'playback.pause', position: request.position, ...guards(request) });
      return { playback: playback(result.playback) };
    }),
    Seek: calls.unary(async (request, ctx) => {
      const result = await rooms.send(ctx, request.roomId, { kind: 'playback.seek', position: request.position, startInMs: request.startInMs, ...guards(request) }, request.sentAt);
      return { playback: playback(result.playback) };
    }),
    SetRate: calls.unary(async (request, ctx) => {
      const result = await rooms.send(ctx, request.roomId, { kind: 'playback.rate', rate: request.rate, ...guards(request) });
      return { playback: playback(result.playback) };
    }),
    Next: calls.unary(async (request, ctx) => ({ playback: playback((await rooms.send(ctx, request.roomId, { kind: 'playback.next', ...guards(request) })).playback) })),
    Previous: calls.unary(async (request, ctx) => ({
      playback: playback((await rooms.send(ctx, request.roomId, { kind: 'playback.previous', ...guards(request) })).playback),
    })),
    ReportPlayer: calls.unary(async (request, ctx) => {
      const state = enumIn(PLAYER_STATE, request.state, 'state');
      const result = await rooms.send(ctx, request.roomId, { kind: 'member.player', state, mediaId: request.mediaId ?? null, duration: request.duration });
      return { member: member(result.member), playback: playback(result.playback) };
    }),
    ReportEnded: calls.unary(async (request, ctx) => ({
      playback: playback((await rooms.send(ctx, request.roomId, { kind: 'playback.ended', mediaId: request.mediaId, duration: request.duration })).playback),
    })),
  };
}
