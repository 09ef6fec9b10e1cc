/**
 * The late joiners of bench:sync: in a room where the other pages play, one page after another
 * opens the room as the same member (each closed before the next opens; the last one stays),
 * each timed from starting to load the room page (signed in already) to being within 50 ms of
 * the others for good, and split at its first frame into loading (scripts, session, socket,
 * snapshot, media) and the sync itself. Each joiner's timeline (its offset from the others
 * over time, the engine's actions with their arguments, clock samples, the element's events,
 * the engine's phases) is kept, to see why a joiner was slow.
 */
import type { Member } from '../test/gateways/bed.js';
import { convergedAt, framesOf, positionAt, wallNow, type Action, type Frame } from './sync-frames.js';
import { median, percentile } from './percentile.js';
import { open, type BenchRoom } from './sync-room.js';

export const CLOSE_MS = 50;

/** The debug stats of one page (web/src/player/debug-stats.ts). */
interface PageStats {
  frames: Frame[];
  actions: Action[];
  ticks: Array<[number, number | null, string]>;
  clock: Array<[number, number, number, number | null]>;
  events: Array<[number, string, number, number]>;
}

export interface Joiner {
  run: number;
  index: number;
  /** Page open → within 50 ms of the others for good (ms); Infinity: not within the wait. */
  totalMs: number;
  /** Page open → its first frame. */
  loadMs: number;
  /** First frame → within 50 ms. */
  syncMs: number;
  seeks: number;
  rateChanges: number;
  /** Human-readable timeline, ms from page open. */
  timeline: string[];
  /** The joiner's raw stats and the others' frames over the same time, for BENCH_DUMP. */
  raw: { openedAt: number; stats: PageStats; others: Frame[][] };
}

const fmt = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** The joiner's position minus the others' median (ms; positive: ahead) at `at`, or null where a page shows no frame. */
function offsetAt(joiner: Frame[], others: Frame[][], at: number): number | null {
  const mine = positionAt(joiner, at);
  const theirs = others.map((frames) => positionAt(frames, at));
  if (mine === null || theirs.some((p) => p === null)) return null;
  return (mine - median(theirs as number[])) * 1000;
}

function timeline(openedAt: number, stats: PageStats, others: Frame[][], until: number): string[] {
  const lines: Array<[number, string]> = [];
  const describe: Record<string, (arg: number | null, at: number) => string> = {
    seek: (arg) => `seek to ${fmt(arg ?? Number.NaN, 3)} s`,
    setRate: (arg) => `rate ${fmt(arg ?? Number.NaN, 2)}`,
    scheduleStart: (arg, at) => `scheduled start in ${fmt((arg ?? Number.NaN) - at)} ms`,
  };
  for (const [at, type, phase, arg] of stats.actions) lines.push([at, `action ${describe[type]?.(arg, at) ?? type} (${phase})`]);
  for (const [at, offset, rtt, estimate] of stats.clock) lines.push([at, `clock sample offset ${fmt(offset, 1)} rtt ${fmt(rtt, 1)} → estimate ${fmt(estimate ?? Number.NaN, 1)}`]);
  for (const [at, type, time, ready] of stats.events) lines.push([at, `element ${type} at ${fmt(time, 3)} s, readyState ${ready}`]);
  let phase = '';
  for (const [at, drift, next] of stats.ticks) {
    if (next === phase) continue;
    phase = next;
    lines.push([at, `phase ${next}${drift === null ? '' : `, engine drift ${fmt(drift, 1)} ms`}`]);
  }
  const first = stats.frames[0]?.[1];
  if (first !== undefined) {
    lines.push([first, `first frame at ${fmt(stats.frames[0]![0], 3)} s`]);
    for (let at = first; at <= until; at += 250) {
      const offset = offsetAt(stats.frames, others, at);
      lines.push([at, `offset from the others ${offset === null ? 'n/a (a page shows no frame)' : `${offset > 0 ? '+' : ''}${fmt(offset, 1)} ms`}`]);
    }
  }
  return lines.sort((a, b) => a[0] - b[0]).map(([at, text]) => `${fmt(at - openedAt).padStart(6)} ms  ${text}`);
}

/**
 * `count` late joiners in turn as `member`, each given `waitMs` to converge; the room's last
 * page is replaced by each joiner (the last stays).
 */
export async function lateJoiners(room: BenchRoom, member: Member, run: number, count: number, waitMs: number): Promise<Joiner[]> {
  const joiners: Joiner[] = [];
  for (let index = 0; index < count; index++) {
    if (index > 0) await room.people.pop()!.context.close();
    const { person, openedAt } = await open(room, member);
    room.people.push(person);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const until = await wallNow(room.people[0]!.page);
    const frames = await Promise.all(room.people.map((p) => framesOf(p.page, openedAt)));
    const joined = convergedAt(frames, openedAt, until, CLOSE_MS);
    const stats = await person.page.evaluate<PageStats>('window.__svcPlayerStats');
    const firstFrame = stats.frames[0]?.[1] ?? Number.NaN;
    const others = frames.slice(0, -1);
    joiners.push({
      run,
      index,
      totalMs: joined === null ? Number.POSITIVE_INFINITY : joined - openedAt,
      loadMs: firstFrame - openedAt,
      syncMs: joined === null ? Number.POSITIVE_INFINITY : Math.max(0, joined - firstFrame),
      seeks: stats.actions.filter((a) => a[1] === 'seek').length,
      rateChanges: stats.actions.filter((a) => a[1] === 'setRate').length,
      timeline: timeline(openedAt, stats, others, until),
      raw: { openedAt, stats, others },
    });
  }
  return joiners;
}

/** One row per joiner, for console.table. */
export function joinerRow(joiner: Joiner): Record<string, string | number> {
  return {
    run: joiner.run,
    joiner: joiner.index + 1,
    'open → within 50 ms (ms)': fmt(joiner.totalMs),
    'open → first frame (ms)': fmt(joiner.loadMs),
    'first frame → within 50 ms (ms)': fmt(joiner.syncMs),
    seeks: joiner.seeks,
    'rate changes': joiner.rateChanges,
  };
}

/** The summary over every joiner: how many within `targetMs`, the worst and the median. */
export function joinerSummary(joiners: Joiner[], targetMs: number): Record<string, string> {
  const totals = joiners.map((j) => j.totalMs).sort((a, b) => a - b);
  const within = totals.filter((ms) => ms < targetMs).length;
  return {
    joiners: String(totals.length),
    [`within 50 ms in under ${targetMs} ms`]: `${within} of ${totals.length}`,
    'never within 50 ms (in the wait)': String(totals.filter((ms) => !Number.isFinite(ms)).length),
    'median (ms)': fmt(percentile(totals, 50)),
    'worst (ms)': Number.isFinite(totals.at(-1)!) ? fmt(totals.at(-1)!) : 'never',
  };
}
