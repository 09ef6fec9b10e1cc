/**
 * Who is online: a connection not re-announced within the presence TTL is dropped by a sweep
 * the activation keeps scheduled while anyone is online (gateways refresh every 30 s).
 */
import type { RoomCore } from '../core.js';

/** A connection not re-announced within this is dropped, unless RoomActorDeps.presenceTtlMs says otherwise. */
export const DEFAULT_PRESENCE_TTL_MS = 90_000;

function presenceTtlMs(core: RoomCore): number {
  return core.deps.presenceTtlMs ?? DEFAULT_PRESENCE_TTL_MS;
}

/** Keeps the presence sweep scheduled while anyone is online. */
export function ensurePresenceSweep(core: RoomCore): void {
  if (core.presence.size > 0 && !core.timers.has('presence')) core.timers.schedule('presence', presenceTtlMs(core));
  if (core.presence.size === 0) core.timers.cancel('presence');
}

export async function onPresenceTimer(core: RoomCore): Promise<void> {
  for (const { userId, online } of core.presence.expire(core.now() - presenceTtlMs(core))) {
    await core.presenceChanged(userId, online ? 'connection' : 'offline');
  }
  ensurePresenceSweep(core);
}
