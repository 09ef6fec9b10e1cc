/**
 * BENCH_PAUSE_TRACE=1: where a pause of bench:sync spent its time. Each page records when the
 * room's pause event reached its socket (a WebSocket wrapper installed before the app loads),
 * and the event carries the instant the room published it; with the instant the engine paused
 * the element, each pause prints: sent → room published → arrived in each page → applied.
 * All are wall-clock ms of one machine, so they compare directly.
 */
import type { Page } from 'playwright-core';
import { actionsOf } from './sync-frames.js';

export const PAUSE_TRACE = process.env.BENCH_PAUSE_TRACE === '1';

/** Before the page loads: keeps [arrival ms, published ms] of every room event that pauses. */
export async function recordPauseEvents(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    window.__svcPauseEvents = [];
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (message) => {
          if (typeof message.data !== 'string' || !message.data.startsWith('{"type":"event"') || !message.data.includes('"playing":false')) return;
          window.__svcPauseEvents.push([performance.timeOrigin + performance.now(), JSON.parse(message.data).at]);
        });
      }
    };
  })()`);
}

/** One line for pause `index` sent at `sentAt`: ms from sending to the room's publish, then per page to the event's arrival and to the pause applied. */
export async function pauseTrace(pages: Page[], sentAt: number, index: number): Promise<string> {
  const rows = await Promise.all(
    pages.map(async (page) => {
      const [arrived, published] = (await page.evaluate<Array<[number, number]>>(`window.__svcPauseEvents.filter((e) => e[0] >= ${sentAt})`))[0] ?? [];
      const applied = (await actionsOf(page, sentAt)).find((action) => action[1] === 'pause')?.[0];
      return { arrived, published, applied };
    }),
  );
  const ms = (at: number | undefined): string => (at === undefined ? '-' : (at - sentAt).toFixed(1));
  const published = rows.find((row) => row.published !== undefined)?.published;
  return `pause ${index + 1}: room published ${ms(published)} ms; arrived ${rows.map((row) => ms(row.arrived)).join(' ')}; applied ${rows.map((row) => ms(row.applied)).join(' ')}`;
}
