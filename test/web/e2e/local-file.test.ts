/**
 * A file on each viewer's own disk, in Chromium against the whole service: the host adds it from
 * the add-media dialog (fingerprinted in the page, nothing uploaded) and plays it at once; a
 * friend is asked for their copy, told precisely when the file they pick is another one (same
 * name with other content, or another size) while nothing plays, and plays the matching copy from
 * a blob URL in step with the host through play and a seek; a viewer without the file sees who
 * plays it (screenshots of the picker at phone width).
 */
import { copyFile, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Page } from 'playwright-core';
import { accessibilityProblems, screenshot, signInPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import { seekFromControls, settled, SETTLE_MS, TOLERANCE_S } from './in-sync.js';
import { makeTestVideo } from './media.js';

let bed: WebBed;
/** The host's file, and two impostors named like it: same size with other bytes, and another size. */
let original: string;
let otherContent: string;
let otherSize: string;

test.before(async () => {
  const [video, shorter] = await Promise.all([makeTestVideo({ seconds: 60, size: '320x180' }), makeTestVideo({ seconds: 20, size: '320x180' })]);
  original = join(video.dir, video.file);
  otherSize = join(shorter.dir, shorter.file);
  const bytes = await readFile(original);
  // One byte in the last MiB: what the fingerprint reads besides the first MiB.
  bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
  const dir = await mkdtemp(join(tmpdir(), 'svc-local-'));
  otherContent = join(dir, video.file);
  await writeFile(otherContent, bytes);
  await copyFile(original, join(dir, 'copy.webm'));
  bed = await startWebBed('web_local', { autoplay: true });
});
test.after.always(async () => {
  await bed?.close();
});

const videoState = (page: Page): Promise<{ src: string | null; type: string | undefined; currentSrc: string }> =>
  page.evaluate(`(() => { const v = document.querySelector('video'); return { src: v.getAttribute('src'), type: v.dataset.sourceType, currentSrc: v.currentSrc }; })()`);

async function openRoom(username: string, roomId: string, viewport: 'desktop' | 'phone' = 'desktop'): Promise<Person> {
  const person = await bed.person({ viewport });
  await signInPage(person.page, username);
  await person.page.goto(`/rooms/${roomId}`);
  await person.page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: SETTLE_MS });
  return person;
}

test.serial('the host adds a local file; a friend picking another file is told what differs and nothing plays; their own copy plays in step through play and a seek; a viewer without it sees who has it', async (t) => {
  const [owner, friend, viewer] = await Promise.all([bed.signUp('owner'), bed.signUp('friend'), bed.signUp('viewer')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Film night' }, owner.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, friend.token);
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, viewer.token);
  const size = (await stat(original)).size;

  // The host adds the file: fingerprinted in the page, the title taken from its name.
  const a = await openRoom(owner.username, roomId);
  await a.page.getByLabel('Your file', { exact: true }).setInputFiles(original);
  await a.page.getByText(/^clock\.webm, \d/).waitFor({ timeout: SETTLE_MS });
  t.is(await a.page.getByLabel('Title of the file').inputValue(), 'clock.webm');
  await a.page.getByRole('button', { name: 'Add the file' }).click();
  await a.page.getByText('Added “clock.webm”.', { exact: false }).waitFor();
  const playlist = await bed.call<{ items: Array<{ url: string; provider: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  t.like(playlist.body.items[0], { provider: 'local' });
  t.regex(playlist.body.items[0]!.url, new RegExp(`^local:[0-9a-f]{64}:${size}:clock\\.webm$`));
  // The host's own copy plays at once: this page is not asked for it again.
  await waitForPage(a.page, `document.querySelector('video').dataset.sourceType === 'local' && document.querySelector('video').readyState >= 1`, SETTLE_MS);
  t.is(await a.page.getByRole('heading', { name: /^Pick your copy/ }).count(), 0);

  // The friend is asked for their copy, and sees who plays it.
  const b = await openRoom(friend.username, roomId);
  await b.page.getByRole('heading', { name: `Pick your copy of clock.webm (${(size / 1e6).toFixed(1)} MB)` }).waitFor();
  await b.page.getByText(`Playing it now: ${owner.username}.`).waitFor({ timeout: SETTLE_MS });
  const pick = b.page.getByLabel('Your copy of clock.webm', { exact: true });
  await pick.setInputFiles(otherContent);
  await b.page.getByRole('alert').filter({ hasText: 'Not the same file: the content differs' }).waitFor({ timeout: SETTLE_MS });
  t.like(await videoState(b.page), { src: null, type: undefined });
  await pick.setInputFiles(otherSize);
  const sizeAlert = b.page.getByRole('alert').filter({ hasText: 'Not the same file: the size differs' });
  await sizeAlert.waitFor({ timeout: SETTLE_MS });
  t.regex(await sizeAlert.innerText(), new RegExp(`yours, “clock\\.webm”, is ${(await stat(otherSize)).size} bytes; clock\\.webm is ${size} bytes`));
  t.like(await videoState(b.page), { src: null, type: undefined });

  // A viewer without the file, at phone width: the picker and who has it.
  const c = await openRoom(viewer.username, roomId, 'phone');
  await c.page.getByRole('heading', { name: /^Pick your copy of clock\.webm/ }).waitFor();
  await c.page.getByText(`Playing it now: ${owner.username}.`).waitFor({ timeout: SETTLE_MS });
  await screenshot(c.page, 'local-file-picker');
  await c.page.getByLabel('Your copy of clock.webm', { exact: true }).setInputFiles(otherSize);
  await c.page.getByRole('alert').filter({ hasText: 'the size differs' }).waitFor({ timeout: SETTLE_MS });
  await screenshot(c.page, 'local-file-picker-mismatch');
  t.deepEqual(await accessibilityProblems(c.page), []);
  t.false(await c.page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth + 1'), 'no sideways scroll at phone width');

  // The friend's own copy (another name, same bytes) matches and plays from a blob URL.
  await pick.setInputFiles(join(otherContent, '..', 'copy.webm'));
  await b.page.getByRole('heading', { name: /^Pick your copy/ }).waitFor({ state: 'detached', timeout: SETTLE_MS });
  await waitForPage(b.page, `document.querySelector('video').dataset.sourceType === 'local' && document.querySelector('video').readyState >= 1`, SETTLE_MS);
  t.regex((await videoState(b.page)).currentSrc, /^blob:/);
  await c.page.getByText(new RegExp(`^Playing it now: (${owner.username}, ${friend.username}|${friend.username}, ${owner.username})\\.$`)).waitFor({ timeout: SETTLE_MS });

  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  t.true((await settled([a.page, b.page], 1)) <= TOLERANCE_S, 'in step after play');
  await seekFromControls(a.page, 40);
  t.true((await settled([a.page, b.page], 40)) <= TOLERANCE_S, 'in step after the seek');
  // The viewer without the file still plays nothing.
  t.like(await videoState(c.page), { src: null, type: undefined });
  t.deepEqual([...a.problems, ...b.problems, ...c.problems], []);
});
