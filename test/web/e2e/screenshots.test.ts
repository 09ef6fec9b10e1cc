/**
 * Screenshots of every main page at desktop and phone width, in the light and the dark theme
 * (the client follows the system's prefers-color-scheme), saved to test-artifacts/screenshots/
 * as <page>-<theme>-<width>.png for a person to look at. Each page, in each theme and width, is
 * also checked as a person depends on it: no serious accessibility problem (axe: contrast
 * included, so dark stays readable), no sideways scrolling, no page errors.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Page } from 'playwright-core';
import { accessibilityProblems, screenshot, signInPage, startWebBed, VIEWPORTS, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';

let bed: WebBed;
let media: MediaServer;
test.before(async () => {
  const video = await makeTestVideo({ seconds: 20, fps: 15, size: '320x180' });
  media = await serveMedia(video.dir);
  bed = await startWebBed('web_screens', { autoplay: true });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

const THEMES = ['light', 'dark'] as const;

/** Opens `path` (null: the page as it is), waits for `ready`, then per theme and width: screenshot, axe, overflow. */
async function capture(person: Person, name: string, path: string | null, ready: (page: Page) => Promise<unknown>): Promise<string[]> {
  const { page } = person;
  if (path !== null) await page.goto(path);
  await ready(page);
  // What the page loads after its heading (lists, the video's first frame) is in the picture.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  const problems: string[] = [];
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    for (const [width, size] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(size);
      await screenshot(page, `${name}-${theme}`);
      problems.push(...(await accessibilityProblems(page)).map((line) => `${name} ${theme} ${width}: ${line}`));
      if (await page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth + 1')) {
        problems.push(`${name} ${theme} ${width}: the page scrolls sideways`);
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(VIEWPORTS.desktop);
  return problems;
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name }).waitFor();

test('every main page at both widths, light and dark: saved, readable, no serious accessibility problem', async (t) => {
  const root = await bed.admin('root', 'root');
  const member = await bed.signUp('viewer');
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Friday film club' }, root.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Test clock', url: media.url('clock.webm') }, root.token);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: added.body.item.id }, root.token);
  for (const text of ['Starting in a minute!', 'Got the popcorn.', 'Is the sound on for everyone?']) {
    await bed.call('POST', `/api/rooms/${roomId}/chat`, { text, clientMessageId: randomUUID() }, member.token);
  }

  const problems: string[] = [];
  const visitor = await bed.person({ allowHosts: [media.host] });
  problems.push(...(await capture(visitor, 'home-signed-out', '/', heading('Watch together'))));
  problems.push(...(await capture(visitor, 'signin', '/signin', heading('Sign in'))));
  problems.push(...(await capture(visitor, 'signup', '/signup', heading('Sign up'))));

  const admin = await bed.person({ allowHosts: [media.host] });
  await signInPage(admin.page, root.username);
  const inRoom = (page: Page) => page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: 15_000 });
  problems.push(...(await capture(admin, 'home', '/', (page) => page.getByRole('region', { name: 'Start a room' }).waitFor())));
  problems.push(...(await capture(admin, 'rooms-directory', '/rooms', (page) => page.getByRole('link', { name: 'Friday film club' }).first().waitFor())));
  problems.push(...(await capture(admin, 'room-owner', `/rooms/${roomId}`, inRoom)));
  problems.push(...(await capture(admin, 'account', '/account', heading('Your account'))));
  problems.push(...(await capture(admin, 'admin-overview', '/admin', heading('Administration'))));
  problems.push(...(await capture(admin, 'admin-users', '/admin/users', (page) => page.getByRole('link', { name: root.username }).first().waitFor())));
  problems.push(...(await capture(admin, 'admin-reviews', '/admin/reviews', heading('Reviews'))));
  problems.push(...(await capture(admin, 'admin-settings', '/admin/settings', heading('Server settings'))));

  const viewer = await bed.person({ allowHosts: [media.host] });
  await signInPage(viewer.page, member.username);
  problems.push(...(await capture(viewer, 'room-member', `/rooms/${roomId}`, inRoom)));

  // A guest from the room's link: one name, then the room.
  const guest = await bed.person({ allowHosts: [media.host] });
  await guest.page.goto(`/rooms/${roomId}`);
  await guest.page.getByLabel('Your name (as a guest)').fill('Sam');
  await guest.page.getByRole('button', { name: 'Continue as guest' }).click();
  problems.push(...(await capture(guest, 'room-guest', null, inRoom)));

  t.deepEqual(problems, []);
  t.deepEqual([...visitor.problems, ...admin.problems, ...viewer.problems, ...guest.problems], []);
});
