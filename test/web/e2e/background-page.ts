/**
 * A room page that can be sent to the background as a phone does it, for the background-resume
 * test and `npm run bench:background`: frozen (CDP `Page.setWebLifecycleState`: the page turns
 * hidden, gets `freeze`, and runs no task until it is resumed) and shown again, or cut from the
 * network (the browser offline, and its room socket dead with the network) and reconnected.
 *
 * Playwright enables focus emulation on every page it creates, which keeps the page "captured"
 * and so visible: Chromium then ignores the lifecycle freeze. So this page lives in a Chromium
 * of its own (Debian's, headless, on a DevTools port), attached with `noDefaults`, where the
 * default context's pages get no such override; focus emulation, switched on by hand, is then
 * how the page is shown again (`visibilitychange` to visible, after `resume`, as in Chromium).
 *
 * Chromium's offline emulation leaves an open WebSocket alone, so the room socket is routed
 * through Playwright: going offline kills the connection (the server sees it close) and leaves
 * the page's end silent, as a network that went away does; sockets opened later pass. (Freezing
 * needs no help: Chromium closes a page's sockets when it freezes it, and the page sees the
 * close once it runs again.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page, type WebSocketRoute } from 'playwright-core';
import { BED_PASSWORD, type Member } from '../../gateways/bed.js';
import { uniqueIp } from '../../fixtures/client-address.js';
import { roomPositionAt, type RoomPlayback } from '../../../web/src/sync/engine.js';
import type { WebBed } from './browser.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.js';
import { positionAt, TOLERANCE_S } from './in-sync.js';

export interface BackgroundPage {
  page: Page;
  /** Console errors and page errors. */
  problems: string[];
  /** Freezes the page (hidden, then frozen). */
  freeze(): Promise<void>;
  /** Resumes and shows the page; answers the wall-clock ms just before it was resumed. */
  show(): Promise<number>;
  /** Takes the browser offline; the room socket dies with the network (silently, on the page's side). */
  offline(): Promise<void>;
  /** Brings the network back; answers the wall-clock ms just before it did. */
  online(): Promise<number>;
  /** Closes the room socket from the server's side (the page sees a close, queued while it is frozen). */
  dropSocket(): Promise<void>;
  close(): Promise<void>;
}

/** Debian's Chromium on a DevTools port; answers the process and the browser-level endpoint. */
async function launch(profile: string): Promise<{ process: ChildProcess; endpoint: string }> {
  const child = spawn(
    CHROMIUM_PATH,
    [
      '--headless',
      '--no-sandbox',
      '--no-first-run',
      '--no-default-browser-check',
      CHROMIUM_FLAGS.smallShm,
      CHROMIUM_FLAGS.autoplay,
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${seen.slice(-500)}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on (ws:\S+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${seen.slice(-500)}`)));
  });
  child.stderr?.resume();
  return { process: child, endpoint };
}

/** Ends the Chromium and removes its profile once it has exited (it writes there until then). */
async function stop(child: ChildProcess, profile: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill();
    await exited;
  }
  // Chromium may still be writing into the profile as it exits: rm retries a directory that is not empty yet.
  await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

/** Signed in as `member` (password sign-in from the page, as browser.ts signInPage does) with the room's page open and its player drawn. */
export async function openBackgroundPage(bed: WebBed, member: Member, roomId: string, allowHosts: string[] = []): Promise<BackgroundPage> {
  const profile = await mkdtemp(join(tmpdir(), 'svc-background-'));
  const { process: child, endpoint } = await launch(profile);
  let browser: Browser | null = null;
  try {
    browser = await chromium.connectOverCDP(endpoint, { noDefaults: true });
    const context = browser.contexts()[0]!;
    await context.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueIp() });
    let networkUp = true;
    const live = new Set<{ page: WebSocketRoute; server: WebSocketRoute; dead: boolean }>();
    await context.routeWebSocket(/\/realtime/, (socket) => {
      const server = socket.connectToServer();
      const route = { page: socket, server, dead: !networkUp };
      live.add(route);
      socket.onMessage((message) => {
        if (!route.dead) server.send(message);
      });
      server.onMessage((message) => {
        if (!route.dead) socket.send(message);
      });
      socket.onClose((code, reason) => {
        live.delete(route);
        if (!route.dead) void server.close({ ...(code !== undefined ? { code } : {}), ...(reason !== undefined ? { reason } : {}) });
      });
      server.onClose((code, reason) => {
        if (!route.dead) void socket.close({ ...(code !== undefined ? { code } : {}), ...(reason !== undefined ? { reason } : {}) });
      });
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const problems: string[] = [];
    page.on('console', (message) => {
      // Chromium closes a page's sockets when it freezes it, and says so ("... failed: Page
      // entered Back-Forward Cache."): what a phone does, not a fault of the page.
      const text = message.text();
      if (message.type() === 'error' && !text.startsWith('Failed to load resource') && !text.endsWith('Page entered Back-Forward Cache.')) problems.push(`console: ${text}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const allowed = new Set([new URL(bed.origin).host, ...allowHosts]);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && !allowed.has(url.host)) problems.push(`request outside the service: ${request.url()}`);
    });
    await page.goto(`${bed.origin}/`);
    const status = await page.evaluate<number>(
      `fetch('/api/auth/password/login', { method: 'POST', headers: { 'content-type': 'application/json' }, credentials: 'same-origin', body: ${JSON.stringify(JSON.stringify({ username: member.username, password: BED_PASSWORD }))} })
        .then((response) => { if (response.ok) { localStorage.setItem('svc.signedIn', '1'); localStorage.setItem('svc.debug.sync', '1'); } return response.status; })`,
    );
    if (status !== 200) throw new Error(`browser sign-in of ${member.username} answered ${status}`);
    await page.goto(`${bed.origin}/rooms/${roomId}`);
    await page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: 20_000 });
    const cdp: CDPSession = await context.newCDPSession(page);
    const opened = browser;
    return {
      page,
      problems,
      async freeze() {
        await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
        await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
      },
      async show() {
        const at = Date.now();
        await cdp.send('Page.setWebLifecycleState', { state: 'active' });
        await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
        return at;
      },
      async offline() {
        networkUp = false;
        await context.setOffline(true);
        for (const route of live) {
          route.dead = true;
          void route.server.close();
        }
      },
      async online() {
        const at = Date.now();
        networkUp = true;
        await context.setOffline(false);
        return at;
      },
      async dropSocket() {
        for (const route of live) {
          route.dead = true;
          await route.server.close();
          await route.page.close({ code: 1001, reason: 'the connection went away while the page slept' });
        }
      },
      async close() {
        await opened.close().catch(() => undefined);
        await stop(child, profile);
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await stop(child, profile);
    throw error;
  }
}

/** Readings in a row within tolerance that make "in step" (one could be a correction passing through). */
const HOLDS = 3;

/**
 * Polls the page's position against the room's (its playback as the API answers it, run on at
 * the reading's instant: the service and the browser share this machine's clock) until they
 * are within `tolerance` for HOLDS readings in a row; answers the wall ms of the first of them,
 * or null when `deadline` (wall ms) passes first.
 */
export async function inStepAt(bed: WebBed, roomId: string, token: string, page: Page, deadline: number, tolerance = TOLERANCE_S): Promise<number | null> {
  let run: number[] = [];
  while (Date.now() < deadline) {
    const { playback } = (await bed.call<{ playback: RoomPlayback }>('GET', `/api/rooms/${roomId}/playback`, undefined, token)).body;
    const at = Date.now();
    const off = Math.abs((await positionAt(page, at)) - roomPositionAt(playback, at));
    run = off <= tolerance ? [...run, at] : [];
    if (run.length >= HOLDS) return run[0]!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}
