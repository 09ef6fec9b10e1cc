/**
 * Danmaku: comments pinned to the media time they were sent at, scrolled over the video live
 * and, for later viewers, when their playback reaches that time. A room option (off by default);
 * the same permission and text rules as chat (one line, shorter). A comment must be sent where
 * the room is: on the current item, near the room's clock, so nobody pins comments to moments
 * they are not watching (docs/2026-11-26-reactions-and-danmaku.md).
 */
import { AppError } from '../../../errors/index.js';
import { classifyDatabaseError } from '../../../postgres/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import { positionAt } from '../playback/playback.js';
import { checkChatText, displayName } from '../validate.js';
import { commentsOf, insertComment } from './danmaku-store.js';
import { moderateChat } from '../moderation/moderate-chat.js';

function requireDanmaku(core: RoomCore): void {
  if (!core.current.options.danmaku) {
    throw new AppError('forbidden', 'danmaku is off in this room (room option danmaku; edit_room_settings turns it on)');
  }
}

/** The comment's place, checked against the room's playback. */
function checkPlace(core: RoomCore, mediaId: string, position: number): void {
  const playback = core.playback;
  if (playback.mediaId !== mediaId) {
    throw AppError.invalid([{ key: 'mediaId', message: `must be the item playing now (${playback.mediaId ?? 'nothing is selected'})` }]);
  }
  const roomPosition = positionAt(playback, core.now());
  const tolerance = ROOM_LIMITS.danmakuPositionToleranceSeconds;
  if (Math.abs(position - roomPosition) > tolerance) {
    throw AppError.invalid([
      { key: 'position', message: `must be within ${tolerance} s of the room's position (${roomPosition.toFixed(1)} s); got ${position.toFixed(1)} s` },
    ]);
  }
}

export async function sendComment(core: RoomCore, command: RoomCommandOf<'danmaku.send'>, turn: Turn): Promise<RoomResults['danmaku.send']> {
  const { access } = turn;
  core.require(access, 'send_chat', 'sending danmaku');
  requireDanmaku(core);
  const checked = checkChatText(command.text, ROOM_LIMITS.danmakuMaxChars);
  checkPlace(core, command.mediaId, command.position);
  const text = await moderateChat(core, access, checked, 'danmaku');
  const name = access.member?.name ?? displayName(access.name, access.userId);
  const comment = await core.commit(turn, 'store the danmaku comment', (client) =>
    insertComment(client, core.id, { mediaId: command.mediaId, position: command.position, userId: access.userId, name, text }, ROOM_LIMITS.danmakuPerItemMax),
  );
  core.publish({ type: 'danmaku', comment });
  return { comment };
}

export async function listComments(core: RoomCore, command: RoomCommandOf<'danmaku.list'>, turn: Turn): Promise<RoomResults['danmaku.list']> {
  core.require(turn.access, 'view_chat_history', 'reading danmaku');
  // Listing stays open while the option is off: turning it off hides comments, it does not delete them.
  try {
    return { comments: await commentsOf(core.deps.pool, core.id, command.mediaId, ROOM_LIMITS.danmakuPerItemMax) };
  } catch (err) {
    throw classifyDatabaseError(err, `room ${core.id}: could not read danmaku`, { detail: false });
  }
}
