/**
 * bench:sync's `mpv` kind (issue 41): mpv, driven by `svc watch` (the program people run, with
 * `vo=null` and `ao=null` from an mpv config folder), beside two Chromium pages in one room.
 * After a seek from the first page's controls, every frame each player shows is recorded for
 * `seconds`: the pages' through requestVideoFrameCallback (mediaTime at expectedDisplayTime),
 * mpv's as its `time-pos` changes (observed through its IPC socket by this process, at the
 * instant each change arrives). Positions are compared at common instants as for the other
 * kinds (sync-frames.ts); the table gives the pairwise figures of mpv against each page, and of
 * all pairs. Target: p99 ≤ 33 ms between mpv and the pages.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MpvIpc } from '../cli/watch/mpv-ipc.js';
import { BED_PASSWORD, type Member } from '../test/gateways/bed.js';
import { SvcProcess } from '../test/harness/svc-process.js';
import { signInPage, type Person, type WebBed } from '../test/web/e2e/browser.js';
import { seekFromControls } from '../test/web/e2e/in-sync.js';
import { percentile } from './percentile.js';
import { convergedAt, spreads, STEADY_MARGIN_MS, wallNow, type Frame } from './sync-frames.js';
import { BENCH_VIEWPORT } from './sync-room.js';

const MPV = process.env.SVCTEST_MPV ?? '/usr/bin/mpv';
const TARGET_MS = 33;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

/** Records every frame the page's <video> shows: [media s, wall ms]. */
const COLLECT = `(() => {
  window.__frames = [];
  const video = document.querySelector('video');
  const loop = (_now, meta) => { window.__frames.push([meta.mediaTime, performance.timeOrigin + meta.expectedDisplayTime]); video.requestVideoFrameCallback(loop); };
  video.requestVideoFrameCallback(loop);
})()`;

/** `members`: at least three (two pages, then the one `svc watch` signs in as). `url`: the test video. */
export async function mpvFigures(bed: WebBed, members: Member[], url: string, allowHosts: string[], seconds: number): Promise<Record<string, string>> {
  const [owner, other, viewer] = members as [Member, Member, Member];
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Bench mpv' }, owner.token)).body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, other.token);
  const item = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'mpv', url }, owner.token);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item.body.item.id }, owner.token);

  const dir = await mkdtemp(join(tmpdir(), 'bench-mpv-'));
  await writeFile(join(dir, 'mpv.conf'), 'vo=null\nao=null\n');
  const people: Person[] = [];
  let watch: SvcProcess | null = null;
  let ipc: MpvIpc | null = null;
  try {
    for (const member of [owner, other]) {
      const person = await bed.person({ allowHosts, viewport: BENCH_VIEWPORT });
      await signInPage(person.page, member.username);
      await person.page.goto(`/rooms/${roomId}`);
      await person.page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: 20_000 });
      await person.page.evaluate(COLLECT);
      people.push(person);
    }
    watch = new SvcProcess(['watch', `${bed.origin}/rooms/${roomId}`, '--username', viewer.username, '--mpv', MPV], { MPV_HOME: dir, SVC_WATCH_PASSWORD: BED_PASSWORD });
    const ready = await watch.waitForLine(/IPC socket (.+)\); stop with/, 20_000);
    ipc = await MpvIpc.connect(/IPC socket (.+)\); stop with/.exec(ready)![1]!);
    const mpvFrames: Frame[] = [];
    ipc.observe('time-pos', (value) => {
      if (typeof value === 'number') mpvFrames.push([value, performance.timeOrigin + performance.now()]);
    });
    // mpv's seeks (the engine's, once in step there should be none).
    const mpvSeeks: number[] = [];
    ipc.onEvent((event) => {
      if (event.event === 'seek') mpvSeeks.push(performance.timeOrigin + performance.now());
    });

    const lead = people[0]!.page;
    await lead.getByRole('button', { name: 'Play', exact: true }).click();
    await sleep(3000);
    const from = await wallNow(lead);
    await seekFromControls(lead, 2);
    await sleep(seconds * 1000);
    const to = await wallNow(lead);
    const pages = await Promise.all(people.map((person) => person.page.evaluate<Frame[]>(`window.__frames.filter((f) => f[1] >= ${from})`)));
    const mpv = mpvFrames.filter((frame) => frame[1] >= from);
    const all = [...pages, mpv];
    const converged = convergedAt(all, from, to, TARGET_MS);
    const steadyFrom = (converged ?? to) + STEADY_MARGIN_MS;
    const series = spreads(all, steadyFrom, to);
    // Pair order of spreads(): (page0, page1), (page0, mpv), (page1, mpv).
    const withMpv = series.flatMap((s) => [s.pairs[1]!, s.pairs[2]!]).sort((a, b) => a - b);
    const pagePair = series.map((s) => s.pairs[0]!).sort((a, b) => a - b);
    if (process.env.BENCH_DUMP) await writeFile(`${process.env.BENCH_DUMP}-mpv.json`, JSON.stringify({ from, to, steadyFrom, pages, mpv }));
    const everyPair = series.flatMap((s) => s.pairs).sort((a, b) => a - b);
    return {
      kind: 'mpv (svc watch) + 2 pages',
      'seek → all within 33 ms (ms)': converged === null ? 'never' : fmt(converged - from),
      'mpv–page p50 (ms)': fmt(percentile(withMpv, 50)),
      'mpv–page p99 (ms)': fmt(percentile(withMpv, 99)),
      'mpv–page max (ms)': fmt(withMpv.at(-1) ?? Number.NaN),
      'page–page p99 (ms)': fmt(percentile(pagePair, 99)),
      'all pairs p99 (ms)': fmt(percentile(everyPair, 99)),
      'target p99 (ms)': `≤ ${TARGET_MS}`,
      'mpv seeks once steady': String(mpvSeeks.filter((at) => at >= steadyFrom).length),
      'steady seconds': fmt((to - steadyFrom) / 1000),
    };
  } finally {
    ipc?.close();
    await watch?.stop();
    await Promise.allSettled(people.map((person) => person.context.close()));
    await rm(dir, { recursive: true, force: true });
  }
}
