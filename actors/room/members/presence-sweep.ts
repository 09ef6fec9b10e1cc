/**
 * Who is online: a connection not re-announced within the presence TTL is dropped by a sweep
 * the activation keeps scheduled while anyone is online (gateways refresh every 30 s).
 */
import type { RoomCore } from '../core.js';
import { memberView } from '../views.js';
import { pruneVoice } from '../voice/voice-room.js';
import { reconsiderReadiness } from '../playback/ready-wait.js';
import { publishVoteSkip } from '../playback/vote-skip.js';

/** Keeps the presence sweep scheduled while anyone is online. */
export function ensurePresenceSweep(core: RoomCore): void {
  if (core.presence.size > 0 && !core.timers.has('presence')) core.timers.schedule('presence', core.presenceTtlMs);
  if (core.presence.size === 0) core.timers.cancel('presence');
}

/** Announces that `userId` went offline (their player state no longer counts). */
export async function wentOffline(core: RoomCore, userId: string): Promise<void> {
  core.play.leftBehind.delete(userId);
  const member = core.members.get(userId);
  if (member && member.status === 'active') core.publish({ type: 'member.updated', member: memberView(core, member) });
  publishVoteSkip(core);
  ensurePresenceSweep(core);
  await reconsiderReadiness(core, null);
}

export async function onPresenceTimer(core: RoomCore): Promise<void> {
  const gone = core.presence.expire(core.now() - core.presenceTtlMs);
  pruneVoice(core);
  for (const userId of gone) await wentOffline(core, userId);
  ensurePresenceSweep(core);
}
