/** PlaybackService: actor commands playback.*, member.player, and the playback of room.get: one row each. */
import type { PlaybackView } from '../../../contracts/room/model.js';
import { AppError } from '../../../errors/index.js';
import type { Handlers } from '../service-table.js';
import type { PlaybackServiceHandlers } from '../gen/svc/v1/PlaybackService.js';
import { enumIn, expectedMedia, type RoomCalls } from '../room-calls.js';
import { member, playback, PLAYER_STATE, voteSkip } from '../views.js';

const guards = <R extends { expectMediaId?: string; expectVersion?: number }>(request: R) => ({
  expectMediaId: expectedMedia(request.expectMediaId),
  expectVersion: request.expectVersion,
});
const withPlayback = (result: { playback: PlaybackView }) => ({ playback: playback(result.playback) });
const sentAt = <R extends { sentAt?: number }>(request: R) => request.sentAt;

export function playbackService(rooms: RoomCalls): Handlers<PlaybackServiceHandlers> {
  return {
    GetPlayback: rooms.command(
      'room.get',
      () => ({}),
      (view) => {
        if (view.access !== 'member') throw new AppError('forbidden', 'only active members of the room see its playback');
        return { playback: playback(view.playback) };
      },
    ),
    Play: rooms.command('playback.play', (request) => ({ position: request.position, startInMs: request.startInMs, ...guards(request) }), withPlayback, sentAt),
    Pause: rooms.command('playback.pause', (request) => ({ position: request.position, ...guards(request) }), withPlayback),
    Seek: rooms.command('playback.seek', (request) => ({ position: request.position, startInMs: request.startInMs, ...guards(request) }), withPlayback, sentAt),
    SetRate: rooms.command('playback.rate', (request) => ({ rate: request.rate, ...guards(request) }), withPlayback),
    Next: rooms.command('playback.next', guards, withPlayback),
    Previous: rooms.command('playback.previous', guards, withPlayback),
    ReportPlayer: rooms.command(
      'member.player',
      (request) => ({ state: enumIn(PLAYER_STATE, request.state, 'state'), mediaId: request.mediaId ?? null, duration: request.duration }),
      (result) => ({ member: member(result.member), playback: playback(result.playback) }),
    ),
    ReportEnded: rooms.command('playback.ended', (request) => ({ mediaId: request.mediaId, duration: request.duration }), withPlayback),
    VoteSkip: rooms.command(
      'playback.voteSkip',
      (request) => ({ mediaId: request.mediaId, vote: request.vote }),
      (result) => ({ voteSkip: voteSkip(result.voteSkip), skipped: result.skipped, playback: playback(result.playback) }),
    ),
  };
}
