/**
 * The player's start-up latency (how long after play() the picture starts to run; mostly the
 * audio output starting) belongs to this device, not to a room or a source: the sync engine
 * learns it from each scheduled start, and it is kept in localStorage so the first start of
 * the next visit is on time too. Seek latency depends on the source, so it is not kept.
 */
import { thresholds } from '../sync/index.js';

const KEY = 'svc.sync.startLatencyMs';

/** The remembered figure, or undefined (none, unreadable, out of range). */
export function rememberedStartLatency(): number | undefined {
  try {
    const stored = localStorage.getItem(KEY);
    const value = Number(stored);
    return stored !== null && Number.isFinite(value) && value >= 0 && value <= thresholds.START_LATENCY_MAX_MS ? value : undefined;
  } catch {
    return undefined;
  }
}

export function rememberStartLatency(ms: number): void {
  try {
    localStorage.setItem(KEY, String(Math.round(ms)));
  } catch {
    // Storage refused (private mode, quota): the next visit starts from the default guess.
  }
}
