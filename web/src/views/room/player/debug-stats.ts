/**
 * Counters for `npm run bench:sync`, published as `window.__svcPlayerStats` only when
 * `localStorage['svc.debug.sync']` is set: in normal use nothing is recorded or exposed.
 */
import type { PlayerAction, SyncPhase } from '../../../sync/index.js';

export interface PlayerStats {
  /** [mediaTime s, local ms] of the frames shown (rVFC), the newest last; capped. */
  frames: Array<[number, number]>;
  /** Every action applied: [local ms, type, phase when issued]. */
  actions: Array<[number, PlayerAction['type'], SyncPhase]>;
  /** Local ms at which this player sent a pause command. */
  pauseSentAt: number[];
  phase: SyncPhase | null;
  driftMs: number | null;
}

const MAX_FRAMES = 20_000;

function enabled(): boolean {
  try {
    return localStorage.getItem('svc.debug.sync') !== null;
  } catch {
    return false;
  }
}

export function createStats(): PlayerStats | null {
  if (!enabled()) return null;
  const stats: PlayerStats = { frames: [], actions: [], pauseSentAt: [], phase: null, driftMs: null };
  (window as unknown as { __svcPlayerStats?: PlayerStats }).__svcPlayerStats = stats;
  return stats;
}

export function recordFrame(stats: PlayerStats | null, mediaTime: number, at: number): void {
  if (!stats) return;
  stats.frames.push([mediaTime, at]);
  if (stats.frames.length > MAX_FRAMES) stats.frames.splice(0, stats.frames.length - MAX_FRAMES);
}
