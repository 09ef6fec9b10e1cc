/**
 * Counters for `npm run bench:sync`, published as `window.__svcPlayerStats` only when
 * `localStorage['svc.debug.sync']` is set: in normal use nothing is recorded or exposed.
 * Enough to replay a late joiner's first seconds: frames, engine ticks, actions with their
 * arguments, clock samples and the element's own events.
 */
import type { PlayerAction, SyncPhase } from '../sync/index.js';
import { localNow } from './clock.js';

export interface PlayerStats {
  /** [mediaTime s, local ms] of the frames shown (rVFC), the newest last; capped. */
  frames: Array<[number, number]>;
  /** Every action applied: [local ms, type, phase when issued, argument (seek position s, rate, start instant local ms) or null]. */
  actions: Array<[number, PlayerAction['type'], SyncPhase, number | null]>;
  /** Every engine tick: [local ms, drift ms as the engine measured it (null: not measured), phase]. */
  ticks: Array<[number, number | null, SyncPhase]>;
  /** Every clock sample: [local ms, its offset ms, its rtt ms, the estimate's offset after it]. */
  clock: Array<[number, number, number, number | null]>;
  /** The element's events: [local ms, event type, currentTime s, readyState]. */
  events: Array<[number, string, number, number]>;
  /** Local ms at which this player sent a pause command. */
  pauseSentAt: number[];
  /** The room connection's states: [local ms, state, why an attempt started at once (page_back, network_back) or null]. */
  connection: Array<[number, string, string | null]>;
  /** Local ms at which the page came back from the background (visible, resumed, restored). */
  backAt: number[];
  /** What the source's library did (hls.js levels, fragments, flushes, errors): [local ms, event, detail]. */
  source: Array<[number, string, string]>;
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
  const stats: PlayerStats = { frames: [], actions: [], ticks: [], clock: [], events: [], pauseSentAt: [], connection: [], backAt: [], source: [] };
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

export function recordAction(stats: PlayerStats | null, at: number, action: PlayerAction, phase: SyncPhase): void {
  if (!stats) return;
  const argument = action.type === 'seek' ? action.position : action.type === 'setRate' ? action.rate : action.type === 'scheduleStart' ? action.at : null;
  capped(stats.actions, [at, action.type, phase, argument]);
}

export function recordClock(stats: PlayerStats | null, at: number, sample: { offset: number; rtt: number }, estimate: number | null): void {
  if (stats) capped(stats.clock, [at, sample.offset, sample.rtt, estimate]);
}

export function recordConnection(stats: PlayerStats | null, at: number, state: string, cause: string | null): void {
  if (stats) capped(stats.connection, [at, state, cause]);
}

export function recordBack(stats: PlayerStats | null, at: number): void {
  if (stats) capped(stats.backAt, at);
}

/**
 * Records a step of the source's library into the page's stats, if they are on (the loaders in
 * sources.ts have no PlayerSync at hand: the stats are read from where createStats put them).
 */
export function recordSource(event: string, detail: string): void {
  const stats = pageStats();
  if (stats) capped(stats.source, [localNow(), event, detail]);
}

/** Whether the page's stats are on (a loader then listens to its library's steps). */
export function sourceStatsOn(): boolean {
  return pageStats() !== undefined;
}

function pageStats(): PlayerStats | undefined {
  return (globalThis as { __svcPlayerStats?: PlayerStats }).__svcPlayerStats;
}

/** The element events worth seeing in a timeline (seeks, stalls, starts). */
const EVENTS = ['error', 'emptied', 'loadstart', 'loadedmetadata', 'canplay', 'canplaythrough', 'seeking', 'seeked', 'waiting', 'stalled', 'playing', 'play', 'pause', 'ratechange'];

/** Records the element's events while stats are on; returns how to stop. */
export function recordEvents(stats: PlayerStats | null, video: HTMLMediaElement, now: () => number): () => void {
  if (!stats) return () => undefined;
  const listener = (event: Event): void => capped(stats.events, [now(), event.type === 'error' ? `error ${video.error?.code} ${video.error?.message}` : event.type, video.currentTime, video.readyState]);
  for (const type of EVENTS) video.addEventListener(type, listener);
  return () => {
    for (const type of EVENTS) video.removeEventListener(type, listener);
  };
}
