/**
 * End-to-end tests of the web client: Debian's Chromium (never a downloaded browser), driven
 * headless by playwright-core, against a whole service (test/gateways/bed.ts) serving the built
 * client. The page is opened at http://localhost:<port>, the service's own origin, so passkeys
 * (an RP id must be a host name) and the realtime socket's origin check work as in production.
 *
 * The root tsconfig has no DOM types (server code must not use them): in-page code is passed to
 * `page.evaluate` as a string, or uses locators.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { BED_PASSWORD, startGatewayBed, type BedOptions, type GatewayBed } from '../../gateways/bed.js';
import { uniqueIp } from '../../fixtures/client-address.js';
import { freePort } from '../../harness/stack.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, type BrowserAnswer, type BrowserRequest, type ChromiumFlag } from './chromium.js';

export { CHROMIUM_PATH } from './chromium.js';

/** Screenshots and other artifacts of the browser tests (git-ignored; CI keeps the folder). */
export const ARTIFACTS_DIR = resolve(fileURLToPath(new URL('../../../../test-artifacts', import.meta.url)));

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
} as const;

export interface WebBed extends GatewayBed {
  /** The page origin: http://localhost:<port>. */
  origin: string;
  browser: Browser;
  /**
   * A fresh browser profile (cookies, storage) as one person, with its own client address so
   * per-address rate limits treat people apart. Console errors and requests to other hosts are
   * collected in `problems`.
   */
  person(options?: PersonOptions): Promise<Person>;
}

export interface PersonOptions {
  viewport?: keyof typeof VIEWPORTS;
  /** Hosts besides the service's the page may reach (a media server) without it being a problem. */
  allowHosts?: string[];
  /**
   * In a bed started with `autoplay`, open this person in a second Chromium with the normal
   * policy instead (sound plays only after a click on the page).
   */
  autoplayBlocked?: boolean;
  /**
   * The host the page is opened at: `localhost` (default, the configured origin) or
   * `127.0.0.1`, the address `npm run dev` prints (the same service, another origin).
   */
  at?: 'localhost' | '127.0.0.1';
  /** More headers on every request (the bed trusts 127.0.0.1 as a proxy: X-Forwarded-Host counts). */
  headers?: Record<string, string>;
  /** The browser's language (navigator.languages, Accept-Language); en-US unless set, whatever the machine's. */
  locale?: string;
}

export interface Person {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught page errors and requests to hosts outside the service. */
  problems: string[];
}

export interface WebBedOptions extends BedOptions {
  /** Let media play without a user gesture (the sync tests); default: Chromium's normal policy. */
  autoplay?: boolean;
  /** Chromium's fake microphone and camera (a beeping tone), granted without a prompt (the voice tests). */
  fakeMedia?: boolean;
}

/**
 * Chromium with these flags: in `npm test`, the run's shared one (browser-keeper.ts), where
 * closing the answer closes this file's contexts and disconnects; elsewhere (a benchmark, ava
 * run by hand) one launched for this file.
 */
async function chromiumWith(args: ChromiumFlag[]): Promise<Browser> {
  const keeper = process.env.SVCTEST_BROWSERS_URL;
  if (!keeper) return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
  const request: BrowserRequest = { args };
  const response = await fetch(keeper, { method: 'POST', body: JSON.stringify(request) });
  const { wsEndpoint, error } = (await response.json()) as BrowserAnswer;
  if (!wsEndpoint) throw new Error(`the run's Chromium (${args.join(' ')}) did not start: ${error ?? `HTTP ${response.status}`}`);
  return chromium.connect(wsEndpoint);
}

export async function startWebBed(label: string, options: WebBedOptions = {}): Promise<WebBed> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const bed = await startGatewayBed(label, {
    ...options,
    env: {
      SVC_SERVER_PORT: String(port),
      SVC_SERVER_PUBLIC_URL: origin,
      SVC_WEBAUTHN_RP_ORIGIN: origin,
      SVC_WEBAUTHN_RP_ID: 'localhost',
      ...options.env,
    },
  });
  const launch = (autoplay: boolean): Promise<Browser> =>
    chromiumWith([
      CHROMIUM_FLAGS.smallShm,
      ...(autoplay ? [CHROMIUM_FLAGS.autoplay] : []),
      ...(options.fakeMedia ? [CHROMIUM_FLAGS.fakeDevices, CHROMIUM_FLAGS.fakePrompt] : []),
    ]);
  const browser = await launch(options.autoplay ?? false);
  let strictBrowser: Promise<Browser> | null = null;
  const contexts: BrowserContext[] = [];
  return {
    ...bed,
    origin,
    browser,
    async person({ viewport = 'desktop', allowHosts = [], autoplayBlocked = false, at = 'localhost', headers = {}, locale = 'en-US' } = {}) {
      const host = autoplayBlocked && options.autoplay ? await (strictBrowser ??= launch(false)) : browser;
      const pageOrigin = `http://${at}:${port}`;
      const context = await host.newContext({
        baseURL: pageOrigin,
        viewport: VIEWPORTS[viewport],
        locale,
        extraHTTPHeaders: { 'x-forwarded-for': uniqueIp(), ...headers },
      });
      contexts.push(context);
      const page = await context.newPage();
      const problems: string[] = [];
      const allowed = new Set([new URL(pageOrigin).host, ...allowHosts]);
      page.on('console', (message) => {
        // Chromium logs every 4xx/5xx answer as "Failed to load resource"; answers the client
        // expects (a wrong password's 401) are not page errors. Tests assert what the page shows.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('request', (request) => {
        const url = new URL(request.url());
        if ((url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'ws:') && !allowed.has(url.host)) {
          problems.push(`request outside the service: ${request.url()}`);
        }
      });
      return { context, page, problems };
    },
    async close() {
      await Promise.allSettled(contexts.map((context) => context.close()));
      await Promise.allSettled([browser.close(), strictBrowser?.then((strict) => strict.close())]);
      await bed.close();
    },
  };
}

/** axe-core's serious and critical violations on the page as it is now, as readable lines. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`);
}

/** Saves a full-page screenshot as test-artifacts/screenshots/<name>-<viewport>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const size = page.viewportSize();
  const viewport = size && size.width <= VIEWPORTS.phone.width ? 'phone' : 'desktop';
  const dir = join(ARTIFACTS_DIR, 'screenshots');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}-${viewport}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The page at both widths: screenshot each, and the axe problems of each (prefixed by width). */
export async function checkAtBothWidths(page: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await screenshot(page, name);
    problems.push(...(await accessibilityProblems(page)).map((line) => `${viewport}: ${line}`));
    const overflow = await page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth + 1');
    if (overflow) problems.push(`${viewport}: the page scrolls sideways at ${size.width} px`);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  return problems;
}

const quietSessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * Evaluates `expression` in the page as a script of its own would, without a user gesture:
 * Playwright's evaluate and locators run theirs as if the user had clicked, which gives the page
 * user activation and so lifts the autoplay policy a test may be checking.
 */
export async function evaluateQuietly(page: Page, expression: string): Promise<unknown> {
  let session = quietSessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    quietSessions.set(page, session);
  }
  const answer = await (await session).send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
  if (answer.exceptionDetails) throw new Error(`${expression} threw: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
  return answer.result.value as unknown;
}

/**
 * Waits until `expression` is truthy in the page. Playwright's waitForFunction evaluates its
 * predicate with eval inside the page, which the client's CSP (no 'unsafe-eval') forbids; the
 * DevTools protocol is not governed by the CSP. No user gesture (see evaluateQuietly).
 */
export async function waitForPage(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await evaluateQuietly(page, expression))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the service worker controls the page, as it does a first visit once it activates
 * (web/src/pwa/sw.ts claims the pages open then). A page whose navigation was still in flight at
 * that moment (a sign-in that goes on to the room) was fetched without the worker and is not
 * among the pages claimed: it stays uncontrolled until its next load, as in any browser. So once
 * the worker is active, such a page is reloaded, as the person's next visit would.
 */
export async function controlledByWorker(page: Page, timeoutMs = 30_000): Promise<void> {
  await waitForPage(page, `navigator.serviceWorker.getRegistration().then((registration) => registration?.active?.state === 'activated')`, timeoutMs);
  if ((await evaluateQuietly(page, 'navigator.serviceWorker.controller === null')) === true) await page.reload();
  await waitForPage(page, 'navigator.serviceWorker.controller !== null', timeoutMs);
}

/**
 * Signs the page in as an existing password account the way the client keeps a session: the
 * login made from the page (so the httpOnly refresh cookie lands in this browser) and the
 * client's signed-in mark. The next navigation or reload restores the session.
 */
export async function signInPage(page: Page, username: string, password = BED_PASSWORD): Promise<void> {
  await page.goto('/');
  const status = await page.evaluate<number>(
    `fetch('/api/auth/password/login', { method: 'POST', headers: { 'content-type': 'application/json' }, credentials: 'same-origin', body: ${JSON.stringify(JSON.stringify({ username, password }))} })
      .then((response) => { if (response.ok) localStorage.setItem('svc.signedIn', '1'); return response.status; })`,
  );
  if (status !== 200) throw new Error(`browser sign-in of ${username} answered ${status}`);
}

/** The control that shows a room's page is drawn: the player's button, or a side panel tab. */
export interface RoomControl {
  role: 'button' | 'tab';
  name: string;
  exact?: boolean;
}

export interface RoomPageOptions extends PersonOptions {
  /** Waited for once the room's page is opened; without it the page is returned as navigated. */
  until?: RoomControl;
  /** A side panel tab clicked once the room is drawn (the room opens on another). */
  tab?: string;
  /** How long `until` and `tab` may take. */
  timeoutMs?: number;
  /** The player records what it did (`window.__svcPlayerStats`, debug-stats.ts), for a failure's log. */
  debugSync?: boolean;
}

/** The player's Fullscreen button: the room is drawn with a current item. */
export const FULLSCREEN: RoomControl = { role: 'button', name: 'Fullscreen' };

/**
 * A new person signed in as `member` with the room's page open (and drawn, with `until`): what
 * most room tests start every page with.
 */
export async function openRoomPage(bed: WebBed, member: { username: string }, roomId: string, options: RoomPageOptions = {}): Promise<Person> {
  const { until, tab, timeoutMs = 20_000, debugSync = false, ...personOptions } = options;
  const person = await bed.person(personOptions);
  await signInPage(person.page, member.username);
  if (debugSync) await person.page.evaluate(`localStorage.setItem('svc.debug.sync', '1')`);
  await person.page.goto(`/rooms/${roomId}`);
  if (until) {
    const { role, ...named } = until;
    await person.page.getByRole(role, named).waitFor({ timeout: timeoutMs });
  }
  if (tab) await person.page.getByRole('tab', { name: tab }).click({ timeout: timeoutMs });
  return person;
}

/** A username no other test uses: `prefix` and 8 random hex digits. */
export const uniqueName = (prefix: string): string => `${prefix}_${randomBytes(4).toString('hex')}`;

/** Signs up through the page's password section (OPAQUE where the server offers it) and submits. */
export async function signUpWithPassword(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/signup');
  const section = page.getByRole('region', { name: 'With a password' });
  await section.getByLabel('Username').fill(username);
  await section.getByLabel('Password', { exact: true }).fill(password);
  await section.getByLabel('Repeat the password').fill(password);
  await section.getByRole('button', { name: 'Sign up' }).click();
}
