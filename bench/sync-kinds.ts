/**
 * bench:sync per player kind (issue 30): for each kind of source the web client plays, a room
 * of CONTEXTS pages plays it, one page seeks from the controls, and the pages' positions are
 * compared for `seconds` of steady playback. Positions are read where each player draws: a
 * requestVideoFrameCallback collector on the <video> that shows the frames, the page's own for
 * files, HLS (hls.js) and DASH (dash.js), the one inside the player frame for YouTube (its
 * local stand-in, test/fixtures/youtube-standin.ts). Targets: p99 < 50 ms for <video> kinds,
 * < 150 ms for embedded players.
 */
import type { Frame as PlayFrame, Page } from 'playwright-core';
import type { Member } from '../test/gateways/bed.js';
import { signInPage, type Person, type WebBed } from '../test/web/e2e/browser.js';
import { seekFromControls } from '../test/web/e2e/in-sync.js';
import { percentile } from './percentile.js';
import { STEADY_MARGIN_MS, steadyAfter, wallNow, type Frame } from './sync-frames.js';
import { BENCH_VIEWPORT } from './sync-room.js';

export interface KindSource {
  /** Shown in the table: file, hls, dash, youtube. */
  kind: string;
  embedded: boolean;
  url: string;
  provider: string;
  allowHosts: string[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

/** Records every frame the <video> in `host` shows: [media s, wall ms]. */
const COLLECT = `(() => {
  window.__frames = [];
  const video = document.querySelector('video');
  const loop = (_now, meta) => { window.__frames.push([meta.mediaTime, performance.timeOrigin + meta.expectedDisplayTime]); video.requestVideoFrameCallback(loop); };
  video.requestVideoFrameCallback(loop);
})()`;

/** Where a page's player draws: the page, or the embedded player's frame once it has its video. */
async function drawingHost(page: Page, embedded: boolean): Promise<Page | PlayFrame> {
  if (!embedded) return page;
  await page.locator('iframe.player-embed-frame').waitFor({ timeout: 20_000 });
  for (let tries = 0; tries < 200; tries++) {
    const frame = page.frames().find((candidate) => candidate.url().includes('/embed/'));
    if (frame && (await frame.evaluate(`document.querySelector('video')?.readyState >= 1`).catch(() => false))) return frame;
    await sleep(100);
  }
  throw new Error('the embedded player did not load its video');
}

export async function kindFigures(bed: WebBed, members: Member[], source: KindSource, seconds: number): Promise<Record<string, string>> {
  const owner = members[0]!;
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: `Bench ${source.kind}` }, owner.token)).body.room.id;
  for (const member of members.slice(1)) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const item = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: source.kind, url: source.url, provider: source.provider }, owner.token);
  if (item.status !== 201) throw new Error(`adding the ${source.kind} item failed: ${JSON.stringify(item.body)}`);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item.body.item.id }, owner.token);

  const people: Person[] = [];
  try {
    for (const member of members) {
      const person = await bed.person({ allowHosts: source.allowHosts, viewport: BENCH_VIEWPORT });
      await signInPage(person.page, member.username);
      await person.page.evaluate(`localStorage.setItem('svc.debug.sync', '1')`);
      await person.page.goto(`/rooms/${roomId}`);
      await person.page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: 20_000 });
      people.push(person);
    }
    const hosts = await Promise.all(people.map((person) => drawingHost(person.page, source.embedded)));
    for (const host of hosts) await host.evaluate(COLLECT);
    const lead = people[0]!.page;
    await lead.getByRole('button', { name: 'Play', exact: true }).click();
    await sleep(3000);
    const from = await wallNow(lead);
    await seekFromControls(lead, 2);
    await sleep(seconds * 1000);
    const to = await wallNow(lead);
    const all = await Promise.all(hosts.map((host) => host.evaluate<Frame[]>(`window.__frames.filter((f) => f[1] >= ${from})`)));
    const bound = source.embedded ? 150 : 50;
    const { converged, steadyFrom, pairs } = steadyAfter(all, from, to, bound, STEADY_MARGIN_MS);
    const actions = await Promise.all(people.map((person) => person.page.evaluate<Array<[number, string]>>(`window.__svcPlayerStats.actions.filter((a) => a[0] >= ${steadyFrom})`)));
    const hours = (to - steadyFrom) / 3_600_000;
    return {
      kind: source.kind,
      // Within the kind's bound (its p99 target) for a second.
      'seek → all in step (ms)': converged === null ? 'never' : fmt(converged - from),
      'pairwise p50 (ms)': fmt(percentile(pairs, 50)),
      'pairwise p99 (ms)': fmt(percentile(pairs, 99)),
      'pairwise max (ms)': fmt(pairs[pairs.length - 1] ?? Number.NaN),
      'target p99 (ms)': `< ${bound}`,
      'seeks / client-hour (max)': fmt(Math.max(...actions.map((list) => list.filter((a) => a[1] === 'seek').length / hours))),
      'steady seconds': fmt((to - steadyFrom) / 1000),
    };
  } finally {
    await Promise.allSettled(people.map((person) => person.context.close()));
  }
}
