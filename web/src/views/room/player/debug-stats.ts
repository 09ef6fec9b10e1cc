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
  /** Every engine tick: [local ms, drift ms as the engine measured it (null: not measured), phase]. */
  ticks: Array<[number, number | null, SyncPhase]>;
  /** Local ms at which this player sent a pause command. */
  pauseSentAt: number[];
}

const MAX_ENTRIES = 20_000;

function enabled(): boolean {
  try {
    return localStorage.getItem('svc.debug.sync') !== null;
  } catch {
    return false;
  }
}

export function createStats(): PlayerStats | null {
  if (!enabled()) return null;
  const stats: PlayerStats = { frames: [], actions: [], ticks: [], pauseSentAt: [] };
  (window as unknown as { __svcPlayerStats?: PlayerStats }).__svcPlayerStats = stats;
  return stats;
}

function capped<T>(list: T[], entry: T): void {
  list.push(entry);
  if (list.length > MAX_ENTRIES) list.splice(0, list.length - MAX_ENTRIES);
}

export function recordFrame(stats: PlayerStats | null, mediaTime: number, at: number): void {
  if (stats) capped(stats.frames, [mediaTime, at]);
}

export function recordTick(stats: PlayerStats | null, at: number, driftMs: number | null, phase: SyncPhase): void {
  if (stats) capped(stats.ticks, [at, driftMs, phase]);
}
