/**
 * `member.player`: a member's player reports its state (buffering, ready, ended) for an item,
 * with the length it saw. The report is shown to everyone (member.updated), teaches the room
 * the current item's length (media-length.ts) and feeds the ready wait (ready-wait.ts).
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import type { MemberRecord } from '../records.js';
import { memberView } from '../views.js';
import { namedOneByOne } from '../members/headcount.js';
import { MEDIA_LENGTH } from './media-length.js';
import { reconsiderReadiness } from './ready-wait.js';
import { PLAYBACK } from './room-playback.js';

export async function reportPlayer(core: RoomCore, command: RoomCommandOf<'member.player'>, turn: Turn): Promise<RoomResults['member.player']> {
  const { access } = turn;
  if (access.service) throw new AppError('forbidden', 'a service caller has no presence in rooms');
  const member = access.member as MemberRecord;
  if (!core.presence.isOnline(member.userId)) {
    throw new AppError('conflict', 'not connected to the room: announce the connection with presence.enter first');
  }
  const play = PLAYBACK.of(core);
  const before = core.presence.player(member.userId);
  core.presence.setPlayer(member.userId, { state: command.state, mediaId: command.mediaId });
  if (command.mediaId !== null) MEDIA_LENGTH.of(core).record(command.mediaId, core.playback.mediaId, command.duration);
  if (command.state !== 'buffering' && command.mediaId === core.playback.mediaId) play.leftBehind.delete(member.userId);
  const changed = before?.state !== command.state || before?.mediaId !== command.mediaId;
  // A crowd's plain members' players are not told one by one (members/headcount.ts).
  if (changed && namedOneByOne(core, member)) core.publish({ type: 'member.updated', member: memberView(core, member) });
  await reconsiderReadiness(core, access.permissions.has('control_playback') ? member.userId : null);
  return { member: memberView(core, member), playback: play.view() };
}
