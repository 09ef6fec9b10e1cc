/**
 * Whether pages in one room show the same moment: each page's position is read where its
 * player draws (the page's <video>, or the <video> inside an embedded player's frame) and
 * extrapolated to one common instant.
 */
import type { Frame, Page } from 'playwright-core';

/** Positions of two pages at one instant may differ by this much once settled (the engine aims at half a frame; CI machines are busy). */
export const TOLERANCE_S = 0.15;
export const SETTLE_MS = 15_000;

/** Where a page's player draws: the page itself, or the frame an embedded player runs in. */
export type PlayerHost = Page | Frame;

/**
 * What a position is read from: `clock` is the element's `currentTime` (the media clock, which
 * follows the sound); `screen` is the frame last shown (requestVideoFrameCallback), which is
 * what the sync engine aims at. They differ when a page's renderer shows frames late (a busy
 * machine); a paused or frameless page is read by `currentTime` either way.
 */
export type Reading = 'clock' | 'screen';

/** The page's video as [currentTime, local ms now, paused, rate, last frame's mediaTime or null, local ms it was shown]; starts watching frames on first call. */
const READ = `(() => {
  const v = document.querySelector('video');
  if (!v.svcFrameWatch && 'requestVideoFrameCallback' in v) {
    v.svcFrameWatch = true;
    const each = (_now, m) => { v.svcLastFrame = [m.mediaTime, performance.timeOrigin + m.expectedDisplayTime]; v.requestVideoFrameCallback(each); };
    v.requestVideoFrameCallback(each);
  }
  const frame = v.svcLastFrame ?? [null, 0];
  return [v.currentTime, performance.timeOrigin + performance.now(), v.paused, v.playbackRate, frame[0], frame[1]];
})()`;

/** A frame older than this says nothing about where the page is now (a stall, a hidden page). */
const FRESH_FRAME_MS = 250;

/** The video's position in seconds at wall-clock `at` ms (extrapolated from one reading at the page's own instant). */
export async function positionAt(host: PlayerHost, at: number, reading: Reading = 'clock'): Promise<number> {
  const [time, now, paused, rate, frameTime, shownAt] = await host.evaluate<[number, number, boolean, number, number | null, number]>(READ);
  if (paused) return time;
  if (reading === 'screen' && frameTime !== null && now - shownAt < FRESH_FRAME_MS) return frameTime + ((at - shownAt) / 1000) * rate;
  return time + ((at - now) / 1000) * rate;
}

/**
 * A page expression: the page's video plays past `seconds`. Playing, not only there: a page
 * that seeks while paused (a late joiner aiming ahead of the room) stands at its target at once,
 * before a frame of it has arrived.
 */
export const playingPast = (seconds: number): string =>
  `(() => { const v = document.querySelector('video'); return !v.paused && v.readyState >= 3 && v.currentTime > ${seconds}; })()`;

/** Polls until every host is within tolerance of the first and past `minimum` seconds; answers the spread. */
export async function settled(hosts: PlayerHost[], minimum = 0, tolerance = TOLERANCE_S, reading: Reading = 'clock'): Promise<number> {
  const deadline = Date.now() + SETTLE_MS;
  let spread = Number.POSITIVE_INFINITY;
  while (Date.now() < deadline) {
    const at = Date.now();
    const positions = await Promise.all(hosts.map((host) => positionAt(host, at, reading)));
    spread = Math.max(...positions) - Math.min(...positions);
    if (spread <= tolerance && Math.min(...positions) >= minimum) return spread;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return spread;
}

/** Both readings of each host at one instant, for a failure's log: [clock, screen] seconds. */
export async function readings(hosts: PlayerHost[]): Promise<Array<[number, number]>> {
  const at = Date.now();
  return Promise.all(hosts.map(async (host) => [await positionAt(host, at, 'clock'), await positionAt(host, at, 'screen')] as [number, number]));
}

/** Drags the player's seek bar to `seconds`, as a person does (the controls send the seek when the drag ends). */
export async function seekFromControls(page: Page, seconds: number): Promise<void> {
  await page.evaluate(
    `(() => { const s = document.querySelector('input[aria-label="Seek"]'); s.value = '${seconds}'; s.dispatchEvent(new Event('input', { bubbles: true })); s.dispatchEvent(new Event('change', { bubbles: true })); })()`,
  );
}
