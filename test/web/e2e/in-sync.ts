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

/** The video's position in seconds at wall-clock `at` ms (extrapolated from one reading at the page's own instant). */
export async function positionAt(host: PlayerHost, at: number): Promise<number> {
  const [time, now, paused, rate] = await host.evaluate<[number, number, boolean, number]>(
    `(() => { const v = document.querySelector('video'); return [v.currentTime, performance.timeOrigin + performance.now(), v.paused, v.playbackRate]; })()`,
  );
  return paused ? time : time + ((at - now) / 1000) * rate;
}

/** Polls until every host is within tolerance of the first and past `minimum` seconds; answers the spread. */
export async function settled(hosts: PlayerHost[], minimum = 0, tolerance = TOLERANCE_S): Promise<number> {
  const deadline = Date.now() + SETTLE_MS;
  let spread = Number.POSITIVE_INFINITY;
  while (Date.now() < deadline) {
    const at = Date.now();
    const positions = await Promise.all(hosts.map((host) => positionAt(host, at)));
    spread = Math.max(...positions) - Math.min(...positions);
    if (spread <= tolerance && Math.min(...positions) >= minimum) return spread;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return spread;
}

/** Drags the player's seek bar to `seconds`, as a person does (the controls send the seek when the drag ends). */
export async function seekFromControls(page: Page, seconds: number): Promise<void> {
  await page.evaluate(
    `(() => { const s = document.querySelector('input[aria-label="Seek"]'); s.value = '${seconds}'; s.dispatchEvent(new Event('input', { bubbles: true })); s.dispatchEvent(new Event('change', { bubbles: true })); })()`,
  );
}
