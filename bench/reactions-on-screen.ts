/**
 * The on-screen half of bench:realtime (e): Chromium pages of members of the burst's room, each
 * recording when every reaction of the burst reached it and when it was painted over the player.
 *
 * What a viewer sees is ReactionBurst (web/src/views/room/reactions/reaction-burst.tsx): one
 * `span.reaction-float[data-reaction]` per reaction event, appended in the order the events
 * arrive. The span carries no seq or sender, so a probe installed before the page's own scripts
 * (addInitScript) ties the two by arrival order:
 *  - it wraps WebSocket so that its own 'message' listener, registered in the constructor, runs
 *    before the client's and stamps every reaction event frame with its seq, name and receipt
 *    time (the k-th reaction frame is the k-th span the overlay adds);
 *  - a MutationObserver stamps each added `.reaction-float`, then waits for the next animation
 *    frame and a task after it: that task runs once the frame's style, layout and paint are done,
 *    so it is the moment the span is in a painted frame (the compositor shows that frame within
 *    the next vsync, ≤ 16.7 ms at 60 Hz, which this does not add).
 * The senders use different reaction names in turn, so each pairing is checked: a span whose
 * name differs from its frame's counts as "misordered" (and a tie by order would be unsound).
 * Times are performance.timeOrigin + performance.now() on both sides (the senders' worker
 * processes and the pages); the page's clock is compared with this process's by the round trip
 * of an evaluate and the offset (printed) is taken off.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { uniqueIp } from '../test/fixtures/client-address.js';
import { waitFor } from '../test/fixtures/deadline.js';
import { CHROMIUM_PATH, signInPage, waitForPage } from '../test/web/e2e/browser.js';
import { CHROMIUM_FLAGS } from '../test/web/e2e/chromium.js';
import { childrenOf, cpuSeconds } from './proc.js';

/** Runs in each page before its scripts: fills `window.__benchReactions`. */
const PROBE = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const probe = (window.__benchReactions = { snapshot: false, frames: [], drawn: [] });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const at = now();
        if (typeof event.data !== 'string') return;
        let message;
        try { message = JSON.parse(event.data); } catch { return; }
        if (message.type === 'snapshot') probe.snapshot = true;
        else if (message.type === 'event' && message.event && message.event.type === 'reaction') probe.frames.push([message.seq, message.event.reaction, at]);
      });
    }
  };
  new MutationObserver((records) => {
    const at = now();
    const added = [];
    for (const record of records) for (const node of record.addedNodes) {
      if (node.nodeType === 1 && node.classList.contains('reaction-float')) added.push(node.getAttribute('data-reaction'));
    }
    if (added.length === 0) return;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const painted = now();
        for (const reaction of added) probe.drawn.push([reaction, at, painted]);
      };
      channel.port2.postMessage(null);
    });
  }).observe(document, { childList: true, subtree: true });
})();`;

/** What one page saw: reaction frames [seq, reaction, receivedAt] and spans [reaction, insertedAt, paintedAt], in order. */
interface PageRecord {
  frames: Array<[number, string, number]>;
  drawn: Array<[string, number, number]>;
}

export interface ScreenMember {
  username: string;
  password: string;
  /** The gateway the page is opened at (its own origin: the room socket's origin check passes). */
  url: string;
}

export interface OnScreen {
  /** Send -> painted, send -> receipt in the page, receipt -> painted, per drawn reaction of every page (ms). */
  painted: number[];
  received: number[];
  drawing: number[];
  /** Reactions sent x pages; reaction frames the pages received; spans drawn for them. */
  expected: number;
  receivedCount: number;
  drawnCount: number;
  /** Spans whose name is not their frame's (the order tie failed), left out of the figures. */
  misordered: number;
  /** Page clock minus this process's clock per page, and half the round trip it was measured in. */
  clockOffsets: Array<{ offset: number; within: number }>;
}

const wall = (): number => performance.timeOrigin + performance.now();

export class ReactionScreens {
  private constructor(
    private readonly browser: Browser,
    private readonly pages: Page[],
    private readonly contexts: BrowserContext[],
  ) {}

  /** A Chromium page per member, signed in, on the room's page with its socket's snapshot in. */
  static async open(roomId: string, members: ScreenMember[]): Promise<ReactionScreens> {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [CHROMIUM_FLAGS.smallShm] });
    const screens = new ReactionScreens(browser, [], []);
    try {
      for (const member of members) {
        const context = await browser.newContext({ baseURL: member.url, viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { 'x-forwarded-for': uniqueIp() } });
        screens.contexts.push(context);
        const page = await context.newPage();
        await page.addInitScript(PROBE);
        await signInPage(page, member.username, member.password);
        await page.goto(`/rooms/${roomId}`);
        await waitForPage(page, `window.__benchReactions.snapshot && document.querySelector('.reaction-burst') !== null`, 30_000);
        screens.pages.push(page);
      }
    } catch (err) {
      await screens.close();
      throw err;
    }
    return screens;
  }

  /** Waits (up to `timeoutMs`) until every page drew `count` reactions, then reads what each saw against the send times. */
  async measure(sent: ReadonlyMap<string, number>, roomId: string, timeoutMs = 10_000): Promise<OnScreen> {
    const count = sent.size;
    await waitFor(
      'every page to draw the burst',
      async () => ((await Promise.all(this.pages.map((page) => page.evaluate<number>('window.__benchReactions.drawn.length')))).every((n) => n >= count) ? true : undefined),
      timeoutMs,
    ).catch(() => undefined); // what is not drawn by then is reported as not drawn
    const out: OnScreen = { painted: [], received: [], drawing: [], expected: count * this.pages.length, receivedCount: 0, drawnCount: 0, misordered: 0, clockOffsets: [] };
    for (const page of this.pages) {
      const clock = await clockOffset(page);
      out.clockOffsets.push(clock);
      const record = await page.evaluate<PageRecord>('window.__benchReactions');
      // Every reaction frame gets a span, in order, whether or not its send was timed.
      record.frames.forEach(([seq, reaction, receivedAt], k) => {
        const t0 = sent.get(`${roomId}:${seq}`);
        if (t0 === undefined) return;
        out.receivedCount += 1;
        const span = record.drawn[k];
        if (!span) return;
        if (span[0] !== reaction) {
          out.misordered += 1;
          return;
        }
        const paintedAt = span[2] - clock.offset;
        out.drawnCount += 1;
        out.painted.push(paintedAt - t0);
        out.received.push(receivedAt - clock.offset - t0);
        out.drawing.push(span[2] - receivedAt);
      });
    }
    return out;
  }

  /**
   * CPU seconds Chromium's processes (this program's chromium children and theirs) have used:
   * on a machine of few cores the pages compete with the service they measure, and this says
   * how much.
   */
  async cpuSeconds(): Promise<number> {
    let total = 0;
    const visit = async (pid: number): Promise<void> => {
      total += await cpuSeconds(pid);
      for (const child of await childrenOf(pid).catch(() => [])) await visit(child);
    };
    for (const child of await childrenOf(process.pid)) {
      const name = (await readFile(`/proc/${child}/comm`, 'utf8').catch(() => '')).trim();
      if (name.startsWith('chrom')) await visit(child);
    }
    return total;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.contexts.map((context) => context.close()));
    await this.browser.close().catch(() => undefined);
  }
}

/** The page's clock minus ours, from the evaluate with the shortest of a few round trips. */
async function clockOffset(page: Page): Promise<{ offset: number; within: number }> {
  let best = { offset: 0, within: Number.POSITIVE_INFINITY };
  for (let i = 0; i < 8; i += 1) {
    const before = wall();
    const inPage = await page.evaluate<number>('performance.timeOrigin + performance.now()');
    const after = wall();
    if ((after - before) / 2 < best.within) best = { offset: inPage - (before + after) / 2, within: (after - before) / 2 };
  }
  return best;
}
