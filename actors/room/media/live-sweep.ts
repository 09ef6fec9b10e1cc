/** Live items on air: an item whose publisher stops re-announcing it goes offline at the sweep. */
import type { RoomCore } from '../core.js';

/** Keeps the live-status sweep scheduled while any item is on air. */
export function ensureLiveSweep(core: RoomCore): void {
  if (core.live.size > 0 && !core.timers.has('live')) core.timers.schedule('live', core.live.ttlMs);
  if (core.live.size === 0) core.timers.cancel('live');
}

/** Items whose publisher stopped re-announcing them (its replica died) go offline. */
export function onLiveTimer(core: RoomCore): void {
  for (const mediaId of core.live.expire(core.now())) core.publish({ type: 'live', mediaId, online: false });
  ensureLiveSweep(core);
}
