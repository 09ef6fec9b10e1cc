/**
 * Background resume figures (issue 41, docs/2026-11-29-background-resume.md), in Debian's
 * Chromium against a whole service on the throwaway stack: one member's page plays the room's
 * test video and is sent away, as a phone that locks or loses its network, while the room
 * moves on (the owner seeks it through the API, and writes in the chat):
 *  - frozen: hidden and frozen by the DevTools lifecycle command, then resumed and shown
 *    (Chromium closes a frozen page's sockets, so the page also reconnects);
 *  - offline: the browser offline and its room socket dead with the network (silent on the
 *    page's side), then the network back; the page stays in view.
 * For BENCH_AWAY_SECONDS (10,60) each, RUNS runs (the first argument, default 5), it reports
 * resume → in step: from the instant the page is resumed (or the network is back) to the first
 * of three readings in a row where the page's position is within the sync tests' tolerance
 * (TOLERANCE_S, 150 ms) of the room's clock. Target: p99 < 1 s in every case.
 * Run with `npm run bench:background [-- <runs>]`.
 */
import { randomInt } from 'node:crypto';
import { inStepAt, openBackgroundPage, type BackgroundPage } from '../test/web/e2e/background-page.js';
import { startWebBed, type WebBed } from '../test/web/e2e/browser.js';
import { TOLERANCE_S } from '../test/web/e2e/in-sync.js';
import { makeTestVideo, serveMedia, type MediaServer } from '../test/web/e2e/media.js';
import type { Member } from '../test/gateways/bed.js';
import { percentile } from './percentile.js';

const RUNS = Number(process.argv[2] ?? 5);
const AWAY = (process.env.BENCH_AWAY_SECONDS ?? '10,60').split(',').map(Number);
type Kind = 'frozen' | 'offline';
const KINDS = (process.env.BENCH_BACKGROUND_KINDS ?? 'frozen,offline').split(',') as Kind[];
/** How long after coming back a page may take before the run counts as never in step. */
const GIVE_UP_MS = 20_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (value: number): string => (Number.isFinite(value) ? value.toFixed(0) : 'n/a');

interface Room {
  bed: WebBed;
  media: MediaServer;
  owner: Member;
  member: Member;
  roomId: string;
}

async function newRoom(bed: WebBed, media: MediaServer, owner: Member, member: Member): Promise<Room> {
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Bench' }, owner.token)).body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const item = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Clock', url: media.url('clock.webm') }, owner.token);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item.body.item.id }, owner.token);
  await bed.call('POST', `/api/rooms/${roomId}/playback/play`, {}, owner.token);
  return { bed, media, owner, member, roomId };
}

interface Sample {
  /** Coming back → in step, ms (Infinity: not within GIVE_UP_MS). */
  inStepMs: number;
  /** Coming back → the room's socket open again, and → the player's first seek, ms (NaN: none). */
  openMs: number;
  seekMs: number;
}

/** The first entry of a debug-stats list at or after local ms `from`, as ms after it. */
const firstAfter = (list: number[], from: number): number => (list.find((at) => at >= from) ?? Number.NaN) - from;

/** One run: away for `seconds`, the room sought elsewhere meanwhile. */
async function run(room: Room, page: BackgroundPage, kind: Kind, seconds: number): Promise<Sample> {
  const { bed, roomId, owner, member } = room;
  if ((await inStepAt(bed, roomId, member.token, page.page, Date.now() + GIVE_UP_MS)) === null) throw new Error('the page was not in step before going away');
  if (kind === 'frozen') await page.freeze();
  else await page.offline();
  await sleep(seconds * 500);
  await bed.call('POST', `/api/rooms/${roomId}/chat`, { text: `while you were away (${kind}, ${seconds} s)` }, owner.token);
  await bed.call('POST', `/api/rooms/${roomId}/playback/seek`, { position: randomInt(10, 200) }, owner.token);
  await sleep(seconds * 500);
  const back = kind === 'frozen' ? await page.show() : await page.online();
  const inStep = await inStepAt(bed, roomId, member.token, page.page, back + GIVE_UP_MS);
  if (inStep === null) console.log(`not in step: ${JSON.stringify(await page.page.evaluate(`(() => { const v = document.querySelector('video'); return { error: v.error && v.error.code, readyState: v.readyState, networkState: v.networkState, paused: v.paused, currentTime: v.currentTime, shown: document.querySelector('.player')?.innerText }; })()`))}`);
  // The page's own timeline (local ms: performance.timeOrigin + now, this machine's clock as Date.now is).
  const stats = await page.page.evaluate<{ opens: number[]; seeks: number[] }>(
    `({ opens: window.__svcPlayerStats.connection.filter((c) => c[1] === 'open').map((c) => c[0]), seeks: window.__svcPlayerStats.actions.filter((a) => a[1] === 'seek').map((a) => a[0]) })`,
  );
  return { inStepMs: inStep === null ? Number.POSITIVE_INFINITY : inStep - back, openMs: firstAfter(stats.opens, back), seekMs: firstAfter(stats.seeks, back) };
}

async function main(): Promise<void> {
  const video = await makeTestVideo({ seconds: 400, size: '320x180' });
  const media = await serveMedia(video.dir);
  const bed = await startWebBed('bench_background', { autoplay: true });
  try {
    const [owner, member] = await Promise.all([bed.signUp('owner'), bed.signUp('phone')]);
    const room = await newRoom(bed, media, owner, member);
    let page = await openBackgroundPage(bed, member, room.roomId, [media.host]);
    console.log(`\nbench:background, ${RUNS} runs per case: resume → in step (within ${TOLERANCE_S * 1000} ms of the room's clock, three readings in a row); target p99 < 1000 ms`);
    const rows: Array<Record<string, string>> = [];
    try {
      for (const seconds of AWAY) {
        for (const kind of KINDS) {
          const all: Sample[] = [];
          for (let i = 0; i < RUNS; i++) {
            // A page that never came back in step is replaced, so that one failure does not spoil the runs after it.
            if ((await inStepAt(bed, room.roomId, member.token, page.page, Date.now() + GIVE_UP_MS)) === null) {
              console.log('the page is not in step with the room: a fresh page for the next runs');
              await page.close();
              page = await openBackgroundPage(bed, member, room.roomId, [media.host]);
            }
            const sample = await run(room, page, kind, seconds);
            all.push(sample);
            console.log(`${kind} ${seconds} s, run ${i + 1}: in step after ${fmt(sample.inStepMs)} ms (socket open after ${fmt(sample.openMs)} ms, first seek at ${fmt(sample.seekMs)} ms)`);
          }
          const sorted = (pick: (sample: Sample) => number): number[] => all.map(pick).sort((a, b) => a - b);
          const samples = sorted((sample) => sample.inStepMs);
          rows.push({
            case: `${kind} ${seconds} s`,
            runs: String(samples.length),
            'resume → in step p50 (ms)': fmt(percentile(samples, 50)),
            'p99 (ms)': fmt(percentile(samples, 99)),
            'max (ms)': fmt(samples.at(-1)!),
            'socket open p50 (ms)': fmt(percentile(sorted((sample) => sample.openMs), 50)),
            'first seek p50 (ms)': fmt(percentile(sorted((sample) => sample.seekMs), 50)),
          });
          console.table(rows.at(-1));
        }
      }
      console.table(rows);
      if (page.problems.length > 0) console.log(`page problems:\n${page.problems.join('\n')}`);
    } finally {
      await page.close();
    }
  } finally {
    await Promise.allSettled([bed.close(), media.close()]);
  }
}

await main();
