/**
 * Media libraries in Chromium against the whole service: the owner connects a WebDAV library
 * (Debian's nginx with dav-ext behind Basic auth) for the room from the add-media dialog,
 * browses into a folder and adds it; the added item plays on two members' pages in step,
 * through the media proxy (the pages never contact the WebDAV server: it would be a problem).
 * Then a personal Alist library (the fake Alist of the server tests) is connected, browsed and
 * one file added. Screenshots at both widths, with axe.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { Page } from 'playwright-core';
import { startFakeAlist, type FakeAlist } from '../../fixtures/fake-alist.js';
import type { Nginx } from '../../fixtures/nginx.js';
import { startWebDav } from '../../fixtures/webdav.js';
import type { Member } from '../../gateways/bed.js';
import { checkAtBothWidths, screenshot, signInPage, startWebBed, type Person, type WebBed } from './browser.js';
import { settled, SETTLE_MS, TOLERANCE_S } from './in-sync.js';
import { makeTestVideo } from './media.js';
import { startMediaBrowserStandin, type MediaBrowserStandin } from '../../fixtures/media-browser-standin.js';

const DAV_USER = 'nas';
const DAV_PASSWORD = 'nas-pass-51d0';

let bed: WebBed;
let dav: Nginx;
let alist: FakeAlist;
let jellyfin: MediaBrowserStandin;

test.before(async () => {
  const video = await makeTestVideo({ seconds: 30 });
  const root = join(video.dir, 'library');
  await mkdir(join(root, 'Shows', 'S1'), { recursive: true });
  await mkdir(join(root, 'Movies'), { recursive: true });
  await copyFile(join(video.dir, video.file), join(root, 'Shows', 'S1', 'ep01.webm'));
  await copyFile(join(video.dir, video.file), join(root, 'Shows', 'S1', 'ep02.webm'));
  await writeFile(join(root, 'Shows', 'S1', 'notes.txt'), 'not media');
  await copyFile(join(video.dir, video.file), join(root, 'Movies', 'clock.webm'));
  dav = await startWebDav({ root, username: DAV_USER, password: DAV_PASSWORD });
  alist = await startFakeAlist({ root, linkTtlMs: 60_000, users: { viewer: 'alist-pass' } });
  jellyfin = await startMediaBrowserStandin('jellyfin');
  bed = await startWebBed('web_libraries', { autoplay: true, env: { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8' } });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), dav?.stop(), alist?.close(), jellyfin?.close()]);
});

async function openRoom(member: Member, roomId: string): Promise<Person> {
  const person = await bed.person();
  await signInPage(person.page, member.username);
  await person.page.goto(`/rooms/${roomId}`);
  return person;
}

async function connect(page: Page, fields: { kind: string; name: string; url: string; username: string; secret: string; forRoom: boolean }): Promise<void> {
  const form = page.locator('form.library-connect');
  await form.waitFor();
  await form.getByLabel('Kind').selectOption(fields.kind);
  await form.getByLabel('Name', { exact: true }).fill(fields.name);
  await form.getByLabel('Server URL').fill(fields.url);
  await form.getByLabel('User name').fill(fields.username);
  await form.getByLabel('Password or token').fill(fields.secret);
  await form.getByLabel(fields.forRoom ? 'Everyone in this room who may add media' : 'Only me, in any room').check();
  await form.getByRole('button', { name: 'Connect' }).click();
  await form.waitFor({ state: 'detached', timeout: SETTLE_MS });
}

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: SETTLE_MS });

test.serial('a WebDAV library connected for the room, a folder added from it, and its first item played in step on two pages', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Library night' }, alice.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, bob.token);
  const a = await openRoom(alice, roomId);
  const { page } = a;

  await page.getByRole('button', { name: 'Add from a library…' }).click();
  await connect(page, { kind: 'webdav', name: 'Home NAS', url: `${dav.url}/`, username: DAV_USER, secret: DAV_PASSWORD, forRoom: true });
  const browser = page.locator('.library-browser');
  await browser.getByRole('button', { name: 'Shows', exact: true }).click();
  await browser.getByRole('button', { name: 'S1', exact: true }).waitFor();
  t.deepEqual(await checkAtBothWidths(page, 'room-library-browser'), []);
  await browser.getByRole('button', { name: 'Add folder S1' }).click();
  await browser.getByRole('status').filter({ hasText: 'Added 2 items.' }).waitFor({ timeout: SETTLE_MS });
  await page.locator('.playlist-item').filter({ hasText: 'ep02.webm' }).waitFor();

  // The breadcrumb leads back to the root.
  await browser.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'Home NAS' }).click();
  await browser.getByRole('button', { name: 'Movies', exact: true }).waitFor();

  const playlist = await bed.call<{ items: Array<{ id: string; title: string; provider: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, alice.token);
  t.deepEqual(playlist.body.items.map((item) => [item.title, item.provider]), [
    ['ep01.webm', 'library'],
    ['ep02.webm', 'library'],
  ]);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: playlist.body.items[0]!.id }, alice.token);

  const b = await openRoom(bob, roomId);
  for (const person of [a, b]) await person.page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: SETTLE_MS });
  await status(a.page, 'Paused');
  await status(b.page, 'Paused');
  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  await status(a.page, 'Playing');
  await status(b.page, 'Playing');
  t.true((await settled([a.page, b.page], 1.5)) <= TOLERANCE_S, 'in step');
  for (const person of [a, b]) {
    const source = await person.page.evaluate<string>(`document.querySelector('video').currentSrc`);
    t.true(source.startsWith(`${bed.origin}/media/proxy/`), source);
  }
  t.true((await dav.requests()).some((request) => request.method === 'GET' && request.path === '/Shows/S1/ep01.webm' && request.status === 206), 'nginx served the proxy ranged, authorised reads');
  t.deepEqual([...a.problems, ...b.problems], []);
});

test.serial('a personal Alist library: connected, browsed, searched, and one file added and played in step on two pages', async (t) => {
  const [carol, frank] = await Promise.all([bed.signUp('carol'), bed.signUp('frank')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Drive night' }, carol.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, frank.token);
  const a = await openRoom(carol, roomId);
  const { page } = a;
  await page.getByRole('button', { name: 'Add from a library…' }).click();
  await connect(page, { kind: 'alist', name: 'My drive', url: alist.url, username: 'viewer', secret: 'alist-pass', forRoom: false });
  const browser = page.locator('.library-browser');
  await browser.getByRole('button', { name: 'Movies', exact: true }).click();
  await browser.getByRole('button', { name: 'Add clock.webm' }).click();
  await browser.getByRole('status').filter({ hasText: 'Added “clock.webm”.' }).waitFor({ timeout: SETTLE_MS });
  await page.getByLabel('Search this library').fill('ep0');
  await browser.getByRole('button', { name: 'Search', exact: true }).click();
  await browser.getByText('2 found').waitFor();
  t.deepEqual(await checkAtBothWidths(page, 'room-library-alist'), []);
  const libraries = await bed.call<{ libraries: Array<{ name: string; owner: { kind: string } }> }>('GET', '/api/libraries', undefined, carol.token);
  t.deepEqual(libraries.body.libraries.map((library) => [library.name, library.owner.kind]), [['My drive', 'user']]);
  const playlist = await bed.call<{ items: Array<{ title: string; provider: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, carol.token);
  t.deepEqual(playlist.body.items.map((item) => [item.title, item.provider]), [['clock.webm', 'library']]);

  // The first item added is cued: a friend plays carol's drive's file with her, through the proxy.
  const b = await openRoom(frank, roomId);
  for (const person of [a, b]) await person.page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: SETTLE_MS });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  t.true((await settled([a.page, b.page], 1.5)) <= TOLERANCE_S, 'in step');
  for (const person of [a, b]) t.true((await person.page.evaluate<string>(`document.querySelector('video').currentSrc`)).startsWith(`${bed.origin}/media/proxy/`));
  t.deepEqual([...a.problems, ...b.problems], []);
});

test.serial('a Jellyfin library (its stand-in, checked against the API description @jellyfin/sdk is generated from): a season added in episode order, a film played in step on two pages through the proxy', async (t) => {
  const [dave, erin] = await Promise.all([bed.signUp('dave'), bed.signUp('erin')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Jellyfin night' }, dave.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, erin.token);
  const a = await openRoom(dave, roomId);
  const { page } = a;
  await page.getByRole('button', { name: 'Add from a library…' }).click();
  // An API key and no user name: the connector browses as the server's administrator.
  await connect(page, { kind: 'jellyfin', name: 'Jellyfin', url: jellyfin.url, username: '', secret: jellyfin.apiKey, forRoom: false });
  const browser = page.locator('.library-browser');
  await browser.getByRole('button', { name: 'Shows', exact: true }).click();
  await browser.getByRole('button', { name: 'The Test Show', exact: true }).click();
  await browser.getByRole('button', { name: 'Add folder Season 1' }).click();
  await browser.getByRole('status').filter({ hasText: 'Added 3 items.' }).waitFor({ timeout: SETTLE_MS });
  await browser.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'Jellyfin' }).click();
  await browser.getByRole('button', { name: 'Movies', exact: true }).click();
  await browser.getByRole('button', { name: 'Add Test Pattern' }).click();
  await browser.getByRole('status').filter({ hasText: 'Added “Test Pattern”.' }).waitFor({ timeout: SETTLE_MS });
  await screenshot(page, 'room-library-jellyfin');

  const playlist = await bed.call<{ items: Array<{ id: string; title: string; provider: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, dave.token);
  const titles = playlist.body.items.map((item) => item.title);
  t.is(titles.length, 4);
  t.is(titles[3], 'Test Pattern');
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: playlist.body.items[3]!.id }, dave.token);
  const b = await openRoom(erin, roomId);
  for (const person of [a, b]) await person.page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: SETTLE_MS });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  t.true((await settled([a.page, b.page], 1.5)) <= TOLERANCE_S, 'in step');
  for (const person of [a, b]) t.true((await person.page.evaluate<string>(`document.querySelector('video').currentSrc`)).startsWith(`${bed.origin}/media/proxy/`));
  t.true(jellyfin.requests().some((request) => /\/Videos\/[^/]+\/stream\?.*static=true/.test(request.url)), 'the untranscoded stream was read');
  t.deepEqual(jellyfin.violations(), [], 'every request conformed to the API description');
  t.deepEqual([...a.problems, ...b.problems], []);
});
