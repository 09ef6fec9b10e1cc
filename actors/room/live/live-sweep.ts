/** Live items on air: an item whose publisher stops re-announcing it goes offline at the sweep. */
import type { RoomCore } from '../core.js';
import { LIVE } from './live-status.js';

/** Keeps the live-status sweep scheduled while any item is on air. */
export function ensureLiveSweep(core: RoomCore): void {
  const live = LIVE.of(core);
  if (live.size > 0 && !core.timers.has('live')) core.timers.schedule('live', live.ttlMs);
  if (live.size === 0) core.timers.cancel('live');
}

/** Items whose publisher stopped re-announcing them (its replica died) go offline. */
export function onLiveTimer(core: RoomCore): void {
  for (const mediaId of LIVE.of(core).expire(core.now())) core.publish({ type: 'live', mediaId, online: false });
  ensureLiveSweep(core);
}
