/**
 * A screen share through a deployed svc and its SFU (a Compose stack, pods), driven the way people
 * do it: the account shares its screen from the web client in Chromium (fake capture, granted
 * without a picker), and a guest who joined the room in another browser context sees the picture
 * on the stage, with frames that keep coming. Media goes from the page to the deployment's LiveKit
 * and back, so this fails when the RTC ports or the announced address are wrong, not only when
 * signalling is.
 */
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../web/e2e/chromium.js';
import { framesAdvance } from '../web/e2e/call-helpers.js';

export interface ShareOptions {
  /** The service's public base URL, as browsers open it. */
  url: string;
  username: string;
  password: string;
}

export interface ShareResult {
  /** What the guest's stage says about the share (the sharer's name). */
  stageSeenByGuest: string;
  /** The picture the guest's stage shows, in pixels. */
  guestPicture: { width: number; height: number };
}

const STAGE_MS = 60_000;
/** What the web client keeps after a sign-in, so that the page opens signed in. */
const SIGNED_IN = `localStorage.setItem('svc.signedIn', '1')`;

/**
 * Runs `fetch` in the page (its origin, its cookies: a sign-in leaves the refresh cookie the web
 * client opens with) and returns the status and body; `token` is the access token, sent as the
 * web client sends it.
 */
async function pageFetch(page: Page, method: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return page.evaluate(
    async ([m, p, b, bearer]) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) };
      const response = await fetch(p, { method: m, headers, credentials: 'same-origin', body: JSON.stringify(b) });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
    },
    [method, path, body, token] as const,
  );
}

async function expectOk(page: Page, method: string, path: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const answer = await pageFetch(page, method, path, body, token);
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function screenShare(options: ShareOptions): Promise<ShareResult> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [CHROMIUM_FLAGS.smallShm, CHROMIUM_FLAGS.fakeDevices, CHROMIUM_FLAGS.fakePrompt],
  });
  try {
    const page = async (): Promise<Page> => {
      const opened = await (await browser.newContext({ baseURL: options.url })).newPage();
      await opened.goto('/');
      return opened;
    };
    // Signed in as the web client is (a cookie session), which the page then remembers.
    const host = await page();
    const signedIn = await expectOk(host, 'POST', '/api/auth/password/login', { username: options.username, password: options.password });
    await host.evaluate(SIGNED_IN);
    const created = await expectOk(host, 'POST', '/api/rooms', { name: 'Show and tell', visibility: 'public' }, signedIn.accessToken as string);
    const roomId = (created.room as { id: string }).id;

    const guest = await page();
    const visitor = await expectOk(guest, 'POST', '/api/auth/guest', { displayName: 'Viewer' });
    await guest.evaluate(SIGNED_IN);
    await expectOk(guest, 'POST', `/api/rooms/${roomId}/join`, {}, visitor.accessToken as string);

    await Promise.all([host.goto(`/rooms/${roomId}`), guest.goto(`/rooms/${roomId}`)]);
    // The button shows once the page knows the room's calls go through an SFU.
    await host.getByRole('button', { name: 'Share your screen' }).click({ timeout: STAGE_MS });
    const stage = guest.getByRole('region', { name: 'Stage' });
    const sharing = stage.getByText(`${options.username} is sharing their screen`);
    await sharing.waitFor({ timeout: STAGE_MS });
    await framesAdvance(guest, '.stage-video', STAGE_MS);
    const guestPicture = await guest.evaluate<{ width: number; height: number }>(
      `(() => { const video = document.querySelector('.stage-video'); return { width: video?.videoWidth ?? 0, height: video?.videoHeight ?? 0 }; })()`,
    );
    return { stageSeenByGuest: await sharing.innerText(), guestPicture };
  } finally {
    await browser.close();
  }
}
