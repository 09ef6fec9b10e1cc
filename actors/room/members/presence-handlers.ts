/**
 * Presence (in memory): the connections a member's gateways announce (`presence.enter`, repeated
 * as `presence.refresh`, and `presence.leave`). A member coming online or going offline, or a
 * connection going, is told to every part (`presenceChanged`): voice seats, the vote-skip count
 * and the ready wait follow it.
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import { followDisplayName } from '../member-name.js';
import type { MemberRecord } from '../records.js';
import { roomView } from '../views.js';
import { ensurePresenceSweep } from './presence-sweep.js';

export async function enterPresence(core: RoomCore, command: RoomCommandOf<'presence.enter'>, turn: Turn): Promise<RoomResults['presence.enter']> {
  const { access } = turn;
  await announce(core, command.connectionId, turn, true);
  const view = roomView(core, access);
  if (view.access !== 'member') throw new AppError('forbidden', 'join the room first');
  return view;
}

/**
 * A heartbeat: the room as `presence.enter` would answer it costs a 1,000-member room about
 * 200 KB per socket every 30 s, for a reply nobody reads.
 */
export async function refreshPresence(core: RoomCore, command: RoomCommandOf<'presence.refresh'>, turn: Turn): Promise<RoomResults['presence.refresh']> {
  await announce(core, command.connectionId, turn);
  return { online: true };
}

/** Adds or refreshes a connection; a member coming online is told to every part. */
async function announce(core: RoomCore, connectionId: string, turn: Turn, entering = false): Promise<void> {
  const { access } = turn;
  if (access.service) throw new AppError('forbidden', 'a service caller has no presence in rooms');
  // On entering only: a heartbeat carries the name its socket opened with, maybe older.
  const member = (entering ? await followDisplayName(core, access) : access.member) as MemberRecord;
  const cameOnline = core.presence.enter(member.userId, connectionId, turn.now);
  ensurePresenceSweep(core);
  if (cameOnline) await core.presenceChanged(member.userId, 'online');
}

export async function leavePresence(core: RoomCore, command: RoomCommandOf<'presence.leave'>, turn: Turn): Promise<RoomResults['presence.leave']> {
  const { userId } = turn.access;
  const lastConnection = core.presence.leave(userId, command.connectionId);
  const online = core.presence.isOnline(userId);
  if (lastConnection) await core.presenceChanged(userId, 'offline');
  else if (online) await core.presenceChanged(userId, 'connection');
  return { online: core.presence.isOnline(userId) };
}
