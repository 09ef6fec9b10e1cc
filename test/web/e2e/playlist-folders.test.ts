/**
 * Playlist folders in Chromium against the whole service (docs/2026-11-26-playlist-folders.md):
 * the owner makes a folder with "New folder", moves two items in (one with the "Move to folder"
 * select, one by dragging it onto the folder), and plays it in order; the other person's page
 * shows the folder with its items and the same item playing. Screenshots at both widths.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, FULLSCREEN, openRoomPage, startWebBed, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';
import type { Member } from '../../gateways/bed.js';

const STEP_MS = 20_000;

let bed: WebBed;
let media: MediaServer;
let file: string;
test.before(async () => {
  const clip = await makeTestVideo({ seconds: 10, size: '320x180' });
  file = clip.file;
  media = await serveMedia(clip.dir);
  bed = await startWebBed('web_playlist_folders');
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

const openRoom = (member: Member, roomId: string): Promise<Person> =>
  openRoomPage(bed, member, roomId, { allowHosts: [media.host], until: FULLSCREEN, tab: 'Playlist', timeoutMs: STEP_MS });

const folder = (page: Page, title: string) => page.getByRole('listitem', { name: `Folder ${title}` });
const showing = (page: Page, title: string) => page.locator(`video[aria-label="Video: ${title}"]`).waitFor({ state: 'attached', timeout: STEP_MS });

test.serial('the owner makes a folder, moves two items in and plays it in order; the other page follows', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Folders' }, alice.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, bob.token);
  for (const title of ['Intro', 'Episode 1', 'Episode 2']) await bed.call('POST', `/api/rooms/${roomId}/playlist`, { title, url: media.url(file) }, alice.token);

  const a = await openRoom(alice, roomId);
  const b = await openRoom(bob, roomId);
  await a.page.getByRole('button', { name: 'New folder' }).click();
  await a.page.getByLabel('Folder name').fill('Season 1');
  await a.page.getByRole('button', { name: 'Create folder' }).click();
  await folder(b.page, 'Season 1').waitFor({ timeout: STEP_MS });

  // The keyboard way: the item's "Move to folder" select.
  await a.page.getByLabel('Move Episode 1 to folder').selectOption({ label: 'Season 1' });
  await folder(a.page, 'Season 1').getByRole('listitem', { name: /^Episode 1,/ }).waitFor({ timeout: STEP_MS });
  // The pointer way: drag the item onto the folder's header (the page's drag and drop events,
  // dispatched with one DataTransfer as a browser does).
  const transfer = await a.page.evaluateHandle('new DataTransfer()');
  const dragged = a.page.getByRole('listitem', { name: /^Episode 2,/ });
  const head = folder(a.page, 'Season 1').locator('.playlist-folder-head');
  await dragged.dispatchEvent('dragstart', { dataTransfer: transfer });
  await head.dispatchEvent('dragover', { dataTransfer: transfer });
  await head.dispatchEvent('drop', { dataTransfer: transfer });
  await dragged.dispatchEvent('dragend', { dataTransfer: transfer });
  await folder(a.page, 'Season 1').getByRole('listitem', { name: /^Episode 2,/ }).waitFor({ timeout: STEP_MS });
  await folder(b.page, 'Season 1').getByText('2 items').waitFor({ timeout: STEP_MS });
  t.deepEqual(await folder(b.page, 'Season 1').locator('.playlist-item .playlist-title > span:first-child').allTextContents(), ['Episode 1', 'Episode 2']);

  await folder(a.page, 'Season 1').getByRole('button', { name: 'Play in order Season 1' }).click();
  await Promise.all([showing(a.page, 'Episode 1'), showing(b.page, 'Episode 1')]);
  await folder(b.page, 'Season 1').locator('.playlist-item.is-current').filter({ hasText: 'Episode 1' }).waitFor({ timeout: STEP_MS });
  const playback = await bed.call<{ playback: { mediaId: string | null } }>('GET', `/api/rooms/${roomId}/playback`, undefined, alice.token);
  const playlist = await bed.call<{ items: Array<{ id: string; title: string; folderId: string | null }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, alice.token);
  t.is(playlist.body.items.find((item) => item.id === playback.body.playback.mediaId)?.title, 'Episode 1');
  t.true(playlist.body.items.filter((item) => item.title.startsWith('Episode')).every((item) => item.folderId !== null));

  t.deepEqual(await checkAtBothWidths(a.page, 'playlist-folders-owner'), []);
  t.deepEqual(await checkAtBothWidths(b.page, 'playlist-folders-viewer'), []);

  // Deleting asks whether the items stay; keeping them puts them back at the top level.
  await folder(a.page, 'Season 1').getByRole('button', { name: 'Delete folder Season 1' }).click();
  t.deepEqual(await checkAtBothWidths(a.page, 'playlist-folders-delete'), []);
  await a.page.getByRole('button', { name: 'Keep the items' }).click();
  await folder(b.page, 'Season 1').waitFor({ state: 'detached', timeout: STEP_MS });
  await b.page.getByRole('listitem', { name: /^Episode 2,/ }).waitFor({ state: 'attached', timeout: STEP_MS }).catch(() => undefined);
  t.is(await b.page.locator('.playlist-item .playlist-title > span:first-child').filter({ hasText: 'Episode 2' }).count(), 1);
  t.deepEqual([...a.problems, ...b.problems], []);
});
