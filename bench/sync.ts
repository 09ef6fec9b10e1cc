/**
 * Player sync figures (issue 11), in Debian's Chromium against a whole service on the
 * throwaway stack: 5 browser contexts of one Chromium in one room play an ffmpeg test video
 * (test/web/e2e/media.ts). Each page publishes what its player shows through the debug hook
 * (`localStorage['svc.debug.sync']` -> `window.__svcPlayerStats`): every rVFC frame's
 * mediaTime with its wall-clock instant (performance.timeOrigin + expectedDisplayTime), and the
 * actions the engine issued. Positions of all pages are interpolated at common instants every
 * 50 ms; figures are pairwise differences of those positions.
 *  (a) BENCH_JOINS (5) late joiners in turn: from opening the room page to being within 50 ms
 *      of the others (also split at its first frame: page load, then sync);
 *  (b) a seek from the controls, then BENCH_SECONDS (60) of playback: time until all are
 *      within 50 ms, then the pairwise difference p50/p99/max and hard seeks per client-hour;
 *  (c) pauses from the controls: from sending to the pause being applied in every other page;
 *  (d) as (b) with one context behind an emulated 200 ms round trip with jitter: its socket is
 *      routed through Playwright (`page.routeWebSocket`), which delays every frame 100 ms
 *      ± 30 ms each way, keeping order as TCP would. (CDP network emulation does not reliably
 *      delay WebSocket frames.) Media requests of that context are not delayed.
 * Run with `npm run bench:sync`.
 */
import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { Member } from '../test/gateways/bed.js';
import { signInPage, startWebBed, waitForPage, type Person, type WebBed } from '../test/web/e2e/browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from '../test/web/e2e/media.js';
import { percentile } from './percentile.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
/** When set, each phase writes every page's raw stats (frames, engine ticks, actions) to `<BENCH_DUMP>-<phase>.json`. */
const DUMP = process.env.BENCH_DUMP;
const CONTEXTS = 5;
const PAUSES = Number(process.env.BENCH_PAUSES ?? 8);
const JOINS = Number(process.env.BENCH_JOINS ?? 5);
/**
 * Frame rate of the test video. A screen shows whole frames: at 30 fps on a 60 Hz display two
 * players can only agree to the frame (33 ms) or differ by a whole refresh (16.7 ms), and which
 * refresh a player's frames land on is the renderer's choice. 60 fps is the finest a 60 Hz
 * screen shows, so it measures the engine rather than the content; BENCH_FPS=30 shows the other.
 */
const FPS = Number(process.env.BENCH_FPS ?? 60);
const STEP_MS = 50;
const CLOSE_MS = 50;
const ONE_WAY_MS = 100;
const JITTER_MS = 30;
/** After a seek, steady state starts once everyone has been within 50 ms (plus this margin). */
const STEADY_MARGIN_MS = 2000;

type Frame = [number, number];
type Action = [number, string, string];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

async function framesOf(page: Page, from: number): Promise<Frame[]> {
  return (await page.evaluate(`window.__svcPlayerStats.frames.filter((f) => f[1] >= ${from})`)) as Frame[];
}
async function actionsOf(page: Page, from: number): Promise<Action[]> {
  return (await page.evaluate(`window.__svcPlayerStats.actions.filter((a) => a[0] >= ${from})`)) as Action[];
}
const wallNow = (page: Page): Promise<number> => page.evaluate('performance.timeOrigin + performance.now()') as Promise<number>;

/** Media seconds shown at wall instant `at`, interpolated between the frames around it; null in a gap. */
function positionAt(frames: Frame[], at: number): number | null {
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

/** Largest pairwise difference (ms) among the pages at each instant from..to, with the instant. */
function spreads(all: Frame[][], from: number, to: number): Array<{ at: number; pairs: number[] }> {
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

/** First instant after `from` from which every page stays within CLOSE_MS of the others for a second. */
function convergedAt(all: Frame[][], from: number, to: number): number | null {
  const series = spreads(all, from, to);
  for (let i = 0; i < series.length; i++) {
    const window = series.filter((s) => s.at >= series[i]!.at && s.at <= series[i]!.at + 1000);
    if (window.length >= 10 && window.every((s) => Math.max(...s.pairs) < CLOSE_MS)) return series[i]!.at;
  }
  return null;
}

async function dump(room: BenchRoom, phase: string): Promise<void> {
  if (!DUMP) return;
  const pages = await Promise.all(room.people.map((person) => person.page.evaluate('window.__svcPlayerStats')));
  await writeFile(`${DUMP}-${phase}.json`, JSON.stringify(pages));
}

async function seekAndPlay(bed: BenchRoom, label: string): Promise<Record<string, string>> {
  const lead = bed.people[0]!.page;
  const from = await wallNow(lead);
  await lead.evaluate(
    `(() => { const s = document.querySelector('input[aria-label="Seek"]'); s.value = '2'; s.dispatchEvent(new Event('input', { bubbles: true })); s.dispatchEvent(new Event('change', { bubbles: true })); })()`,
  );
  await sleep(SECONDS * 1000);
  const to = await wallNow(lead);
  const all = await Promise.all(bed.people.map((person) => framesOf(person.page, from)));
  const converged = convergedAt(all, from, to);
  const steadyFrom = (converged ?? to) + STEADY_MARGIN_MS;
  const pairs = spreads(all, steadyFrom, to)
    .flatMap((s) => s.pairs)
    .sort((a, b) => a - b);
  const actions = await Promise.all(bed.people.map((person) => actionsOf(person.page, steadyFrom)));
  const hours = (to - steadyFrom) / 3_600_000;
  const seeksPerHour = actions.map((list) => list.filter((a) => a[1] === 'seek').length / hours);
  return {
    scenario: label,
    'seek → all within 50 ms (ms)': converged === null ? 'never' : fmt(converged - from),
    'pairwise p50 (ms)': fmt(percentile(pairs, 50)),
    'pairwise p99 (ms)': fmt(percentile(pairs, 99)),
    'pairwise max (ms)': fmt(pairs[pairs.length - 1] ?? Number.NaN),
    'hard seeks / client-hour (max)': fmt(Math.max(...seeksPerHour)),
    'steady seconds': fmt((to - steadyFrom) / 1000),
  };
}

interface BenchRoom {
  bed: WebBed;
  roomId: string;
  members: Member[];
  people: Person[];
}

/** A signed-in page that opens the room; `openedAt` is the wall instant it started loading the room page. */
async function open(room: BenchRoom, member: Member, media: MediaServer, delayed = false): Promise<{ person: Person; openedAt: number }> {
  const person = await room.bed.person({ allowHosts: [media.host] });
  if (delayed) await delaySocket(person.page);
  await signInPage(person.page, member.username);
  await person.page.evaluate(`localStorage.setItem('svc.debug.sync', '1')`);
  const openedAt = await wallNow(person.page);
  await person.page.goto(`/rooms/${room.roomId}`);
  await person.page.getByRole('button', { name: 'Fullscreen' }).waitFor();
  return { person, openedAt };
}

/** Every frame of the page's room socket, both ways, ONE_WAY_MS ± JITTER_MS late, in order. */
async function delaySocket(page: Page): Promise<void> {
  await page.routeWebSocket(/\/realtime/, (socket) => {
    const server = socket.connectToServer();
    const lane = (): ((send: () => void) => void) => {
      let last = 0;
      return (send) => {
        const at = Math.max(last, Date.now() + ONE_WAY_MS + (Math.random() * 2 - 1) * JITTER_MS);
        last = at;
        setTimeout(send, at - Date.now());
      };
    };
    const up = lane();
    const down = lane();
    socket.onMessage((message) => up(() => server.send(message)));
    server.onMessage((message) => down(() => socket.send(message)));
    socket.onClose((code, reason) => server.close({ code, reason }));
    server.onClose((code, reason) => socket.close({ code, reason }));
  });
}

/**
 * (a) JOINS late joiners, one after another as the same member (each page closed before the
 * next opens; the last one stays as the room's last context): each timed from starting to load
 * the room page (signed in already) to being within 50 ms of the others, and split at its first
 * frame into loading (scripts, session, socket, snapshot, media) and the sync itself.
 */
async function lateJoiners(room: BenchRoom, member: Member, media: MediaServer): Promise<Record<string, string>> {
  const total: number[] = [];
  const load: number[] = [];
  const sync: number[] = [];
  for (let i = 0; i < JOINS; i++) {
    if (i > 0) await room.people.pop()!.context.close();
    const joiner = await open(room, member, media);
    room.people.push(joiner.person);
    await sleep(6000);
    const frames = await Promise.all(room.people.map((person) => framesOf(person.page, joiner.openedAt)));
    const joined = convergedAt(frames, joiner.openedAt, await wallNow(room.people[0]!.page));
    const firstFrame = frames[frames.length - 1]![0]?.[1] ?? Number.NaN;
    total.push(joined === null ? Number.POSITIVE_INFINITY : joined - joiner.openedAt);
    load.push(firstFrame - joiner.openedAt);
    sync.push(joined === null ? Number.POSITIVE_INFINITY : Math.max(0, joined - firstFrame));
  }
  const row = (values: number[]): string => values.map(fmt).join(' / ');
  const sorted = [...total].sort((a, b) => a - b);
  return {
    'late joiners → within 50 ms (ms)': row(total),
    'median (ms)': fmt(percentile(sorted, 50)),
    'of which: page open → first frame (ms)': row(load),
    'first frame → within 50 ms (ms)': row(sync),
  };
}

async function pauses(room: BenchRoom): Promise<Record<string, string>> {
  const lead = room.people[0]!.page;
  const delays: number[] = [];
  for (let i = 0; i < PAUSES; i++) {
    const from = await wallNow(lead);
    await lead.getByRole('button', { name: 'Pause', exact: true }).click();
    await Promise.all(room.people.map((person) => waitForPage(person.page, `document.querySelector('video').paused`)));
    const sentAt = ((await lead.evaluate(`window.__svcPlayerStats.pauseSentAt`)) as number[]).filter((at) => at >= from)[0]!;
    for (const person of room.people.slice(1)) {
      const applied = (await actionsOf(person.page, sentAt)).find((a) => a[1] === 'pause');
      if (applied) delays.push(applied[0] - sentAt);
    }
    await lead.getByRole('button', { name: 'Play', exact: true }).click();
    await sleep(3000);
  }
  delays.sort((a, b) => a - b);
  return { 'pause → applied everywhere p50 (ms)': fmt(percentile(delays, 50)), 'p99 (ms)': fmt(percentile(delays, 99)), samples: String(delays.length) };
}

async function main(): Promise<void> {
  // Long enough that neither the joins from the start nor the pauses after a seek to 0:02 and
  // SECONDS of playback reach the end (an ended item stops the room, and the next phase would
  // wait for a Pause button).
  // Small frames: five pages decode 60 fps on a machine with few cores, and frames the
  // decoder drops would be measured as drift.
  const video = await makeTestVideo({ seconds: SECONDS + PAUSES * 5 + JOINS * 10 + 30, fps: FPS, size: '320x180' });
  const media = await serveMedia(video.dir);
  const bed = await startWebBed('bench_sync', { autoplay: true });
  try {
    const members = await Promise.all(Array.from({ length: CONTEXTS }, (_, i) => bed.signUp(`viewer${i}`)));
    const owner = members[0]!;
    const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Bench' }, owner.token)).body.room.id;
    for (const member of members.slice(1)) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
    const item = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Clock', url: media.url(video.file) }, owner.token);
    await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item.body.item.id }, owner.token);
    const room: BenchRoom = { bed, roomId, members, people: [] };
    for (const member of members.slice(0, CONTEXTS - 1)) room.people.push((await open(room, member, media)).person);

    await room.people[0]!.page.getByRole('button', { name: 'Play', exact: true }).click();
    await sleep(3000);
    console.log(`\nbench:sync, ${CONTEXTS} contexts, a ${FPS} fps test video (targets: pairwise p50 < 15 ms, p99 < 50 ms, p99 < 80 ms with the slow context; ≤ 1 seek/client-hour; pause p99 < 150 ms; converge < 3000 ms)`);
    // Each figure is printed as soon as it is measured, so a phase that fails keeps the earlier ones.
    const report = (row: Record<string, string>): void => console.table(row);
    report(await lateJoiners(room, members[CONTEXTS - 1]!, media));
    await dump(room, 'join');

    report(await seekAndPlay(room, `${CONTEXTS} contexts, local network`));
    await dump(room, 'local');
    report(await pauses(room));

    // (d) the last context again, its socket behind 200 ms ± jitter of round trip.
    await room.people.pop()!.context.close();
    room.people.push((await open(room, members[CONTEXTS - 1]!, media, true)).person);
    await sleep(4000);
    report(await seekAndPlay(room, `${CONTEXTS} contexts, one behind 200 ms RTT ± ${2 * JITTER_MS} ms`));
    await dump(room, 'delayed');
  } finally {
    await bed.close();
    await media.close();
  }
}

await main();
process.exit(0);
