/**
 * What the pages of bench:sync showed, from their debug stats (web/src/player/debug-stats.ts):
 * each page's frames as [mediaTime s, wall ms], positions interpolated at common instants, and
 * when every page came within a bound of the others and stayed there.
 */
import type { Page } from 'playwright-core';

export type Frame = [number, number];
/** [local ms, type, phase, argument] as debug-stats.ts records them. */
export type Action = [number, string, string, number | null];

/** Interval (ms) of the common instants at which the pages are compared. */
export const STEP_MS = 50;
/** After a seek, steady state starts once everyone has been within the bound (plus this margin). */
export const STEADY_MARGIN_MS = 2000;

export async function framesOf(page: Page, from: number): Promise<Frame[]> {
  return await page.evaluate<Frame[]>(`window.__svcPlayerStats.frames.filter((f) => f[1] >= ${from})`);
}

export async function actionsOf(page: Page, from: number): Promise<Action[]> {
  return await page.evaluate<Action[]>(`window.__svcPlayerStats.actions.filter((a) => a[0] >= ${from})`);
}

export const wallNow = (page: Page): Promise<number> => page.evaluate<number>('performance.timeOrigin + performance.now()');

/** Media seconds shown at wall instant `at`, interpolated between the frames around it; null in a gap. */
export function positionAt(frames: Frame[], at: number): number | null {
  let lo = 0;
  let hi = frames.length - 1;
  if (hi < 1 || at < frames[0]![1] || at > frames[hi]![1]) return null;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]![1] <= at) lo = mid;
    else hi = mid;
  }
  const [m0, a0] = frames[lo]!;
  const [m1, a1] = frames[hi]!;
  if (a1 - a0 > 250 || m1 < m0) return null; // a stall or a seek between them
  return a1 === a0 ? m0 : m0 + ((m1 - m0) * (at - a0)) / (a1 - a0);
}

/** Pairwise differences (ms) among the pages at each instant from..to where every page shows a frame. */
export function spreads(all: Frame[][], from: number, to: number): Array<{ at: number; pairs: number[] }> {
  const out: Array<{ at: number; pairs: number[] }> = [];
  for (let at = from; at <= to; at += STEP_MS) {
    const positions = all.map((frames) => positionAt(frames, at));
    if (positions.some((p) => p === null)) continue;
    const pairs: number[] = [];
    for (let i = 0; i < positions.length; i++) for (let j = i + 1; j < positions.length; j++) pairs.push(Math.abs(positions[i]! - positions[j]!) * 1000);
    out.push({ at, pairs });
  }
  return out;
}

/**
 * What a phase after a seek at `from` showed until `to`: when every page came within `boundMs`
 * of the others (null: never), the steady part from then plus `marginMs`, and the sorted
 * pairwise differences (ms) over it.
 */
export function steadyAfter(all: Frame[][], from: number, to: number, boundMs: number, marginMs: number): { converged: number | null; steadyFrom: number; pairs: number[] } {
  const converged = convergedAt(all, from, to, boundMs);
  const steadyFrom = (converged ?? to) + marginMs;
  const pairs = spreads(all, steadyFrom, to)
    .flatMap((s) => s.pairs)
    .sort((a, b) => a - b);
  return { converged, steadyFrom, pairs };
}

/** First instant after `from` from which every page stays within `boundMs` of the others for a second. */
export function convergedAt(all: Frame[][], from: number, to: number, boundMs: number): number | null {
  const series = spreads(all, from, to);
  for (let i = 0; i < series.length; i++) {
    const window = series.filter((s) => s.at >= series[i]!.at && s.at <= series[i]!.at + 1000);
    if (window.length >= 10 && window.every((s) => Math.max(...s.pairs) < boundMs)) return series[i]!.at;
  }
  return null;
}
