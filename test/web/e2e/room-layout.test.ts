/**
 * The room as a place to watch together, and getting there: starting a room from the home page
 * with a name alone (landing in it with the join link ready), a friend from that link one name
 * away from the room as a guest, the video and the chat's input in the first screen at
 * 360x740 (and side by side on a wide screen), theatre mode, fullscreen of the whole player, and
 * the controls over the video that step aside while it plays and answer the keyboard.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Locator, Page } from 'playwright-core';
import type { Member } from '../../gateways/bed.js';
import { eventually } from '../../fixtures/deadline.js';
import { VIEWPORTS, screenshot, signInPage, startWebBed, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';

const DEADLINE_MS = 15_000;

let bed: WebBed;
let media: MediaServer;
test.before(async () => {
  const video = await makeTestVideo({ seconds: 20, fps: 15, size: '320x180' });
  media = await serveMedia(video.dir);
  bed = await startWebBed('web_layout', { autoplay: true });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

async function signedIn(member: Member, viewport: keyof typeof VIEWPORTS = 'desktop'): Promise<Person> {
  const person = await bed.person({ viewport, allowHosts: [media.host] });
  await signInPage(person.page, member.username);
  return person;
}

/** Adds the test video to the room's playlist and makes it current; a refusal says why. */
async function addCurrentVideo(owner: Member, roomId: string): Promise<void> {
  const added = await bed.call<{ item?: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Test clock', url: media.url('clock.webm') }, owner.token);
  if (added.status !== 201 || !added.body.item) throw new Error(`adding the video: ${added.status} ${JSON.stringify(added.body)}`);
  const current = await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: added.body.item.id }, owner.token);
  if (current.status !== 200) throw new Error(`making it current: ${current.status} ${JSON.stringify(current.body)}`);
}

/** A room of `owner` with the test video current (paused at 0), `member` in it, and some chat. */
async function roomWithVideo(owner: Member, member: Member, messages = 0): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: `Movie night ${randomUUID().slice(0, 6)}` }, owner.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  await addCurrentVideo(owner, roomId);
  for (let n = 1; n <= messages; n++) {
    await bed.call('POST', `/api/rooms/${roomId}/chat`, { text: `Message ${n}: who brought the popcorn?`, clientMessageId: randomUUID() }, owner.token);
  }
  return roomId;
}

async function openRoom(person: Person, roomId: string): Promise<void> {
  await person.page.goto(`/rooms/${roomId}`);
  await person.page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: DEADLINE_MS });
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator.toString()} has no box (not displayed)`);
  return found;
}

function inFirstScreen(found: { x: number; y: number; width: number; height: number }, viewport: { width: number; height: number }): boolean {
  return found.x >= 0 && found.y >= 0 && found.x + found.width <= viewport.width && found.y + found.height <= viewport.height;
}

const isPlaying = (page: Page) => page.getByRole('button', { name: 'Pause', exact: true }).isVisible();

test('at 360x740 an owner who has just started a room, with its join link, status and favourite rows, has the video and the chat input in the first screen', async (t) => {
  const owner = await bed.signUp('starter');
  const phone = await signedIn(owner, 'phone');
  const { page } = phone;
  await page.goto('/');
  const start = page.getByRole('region', { name: 'Start a room' });
  const name = `Phone film ${randomUUID().slice(0, 6)}`;
  await start.getByLabel('Room name').fill(name);
  await start.getByRole('button', { name: 'Start the room' }).click();
  await page.getByText(/^Your room is ready/).waitFor();
  const roomId = new URL(page.url()).pathname.split('/').pop()!;
  await addCurrentVideo(owner, roomId);
  for (let n = 1; n <= 20; n++) await bed.call('POST', `/api/rooms/${roomId}/chat`, { text: `Message ${n}: who brought the popcorn?`, clientMessageId: randomUUID() }, owner.token);
  await page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: DEADLINE_MS });
  await page.getByRole('button', { name: /favourite/i }).first().waitFor();
  // An owner with a new room lands on the playlist; the chat is one tab away.
  await page.getByRole('tab', { name: 'Chat' }).click();
  await page.getByRole('list', { name: 'Messages' }).getByText('Message 20:').waitFor();
  await screenshot(page, 'room-first-screen-owner');
  const below = await page.evaluate<number>(`document.documentElement.scrollHeight - (document.querySelector('main').getBoundingClientRect().bottom + window.scrollY)`);
  t.true(below <= 1, `the page ends with its content, not ${below} px of blank below it`);
  t.is(await page.evaluate('document.documentElement.scrollWidth'), VIEWPORTS.phone.width, 'nothing wider than the screen');
  const video = await box(page.locator('video'));
  const input = await box(page.getByLabel('Message', { exact: true }));
  t.true(inFirstScreen(video, VIEWPORTS.phone), `video at ${JSON.stringify(video)}`);
  t.true(inFirstScreen(input, VIEWPORTS.phone), `chat input at ${JSON.stringify(input)}`);
  t.true(await page.getByText(/^Your room is ready/).isVisible(), 'the ready note stays');
  // The playlist panel with its add forms fits the phone's width too.
  await page.getByRole('tab', { name: 'Playlist' }).click();
  await page.getByLabel('Media URL').waitFor();
  await screenshot(page, 'room-playlist-owner');
  const wider = await page.evaluate(
    `[...document.querySelectorAll('main *')].filter((e) => !e.closest('[role=tablist]') && e.getClientRects().length && e.getBoundingClientRect().right > ${VIEWPORTS.phone.width} + 0.5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`,
  );
  t.deepEqual(wider, [], 'nothing in the playlist panel is wider than the screen');
  t.deepEqual(phone.problems, []);
});

test('a signed-in person starts a room from the home page with a name alone, lands in it with the link ready; a friend from the link is one name away', async (t) => {
  const host = await signedIn(await bed.signUp('host'));
  const { page } = host;
  await page.goto('/');
  await page.getByText('Watch videos and streams together, in sync, with chat and a shared playlist.').waitFor();
  const start = page.getByRole('region', { name: 'Start a room' });
  // The other options stay at hand behind "More options".
  await start.getByText('More options').click();
  t.true(await start.getByLabel('Hidden: only people with the link').isVisible());
  const name = `Friday film ${randomUUID().slice(0, 6)}`;
  await start.getByLabel('Room name').fill(name);
  await start.getByRole('button', { name: 'Start the room' }).click();

  await page.getByRole('heading', { level: 1, name }).waitFor();
  const link = await page.getByLabel('Join link').inputValue();
  t.is(link, page.url(), 'the link shown is the room the owner is in');
  await page.getByText(/^Your room is ready/).waitFor();

  const friend = await bed.person({ viewport: 'phone' });
  await friend.page.goto(link);
  await friend.page.getByLabel('Your name (as a guest)').fill('Sam');
  await friend.page.getByRole('button', { name: 'Continue as guest' }).click();
  await friend.page.getByRole('heading', { level: 1, name }).waitFor();
  await friend.page.getByRole('tab', { name: 'Chat' }).waitFor();
  t.true(await friend.page.getByText('Sam (guest)').isVisible());
  t.deepEqual([...host.problems, ...friend.problems], []);
});

test('the home page opens a room from a pasted link or code, and says what it cannot read', async (t) => {
  const owner = await bed.signUp('owner');
  const created = await bed.call<{ room: { id: string; name: string } }>('POST', '/api/rooms', { name: `Pasted ${randomUUID().slice(0, 6)}` }, owner.token);
  const person = await signedIn(await bed.signUp('visitor'));
  const { page } = person;
  await page.goto('/');
  const join = page.getByRole('region', { name: 'Join a room' });
  await join.getByLabel('Room link or code').fill('not a link!');
  await join.getByRole('button', { name: 'Open the room' }).click();
  await join.getByText(/Paste the whole link/).waitFor();
  await join.getByLabel('Room link or code').fill(`  http://127.0.0.1:8080/rooms/${created.body.room.id}  `);
  await join.getByRole('button', { name: 'Open the room' }).click();
  await page.getByRole('heading', { level: 1, name: created.body.room.name }).waitFor();
  await page.getByRole('button', { name: 'Join room' }).waitFor();
  t.deepEqual(person.problems, []);
});

test('at 360x740 the video and the chat input are in the first screen; on a wide screen the chat is beside the video', async (t) => {
  const owner = await bed.signUp('owner');
  const member = await bed.signUp('viewer');
  const roomId = await roomWithVideo(owner, member, 20);

  const phone = await signedIn(member, 'phone');
  await openRoom(phone, roomId);
  await phone.page.getByRole('list', { name: 'Messages' }).getByText('Message 20:').waitFor();
  await screenshot(phone.page, 'room-first-screen');
  const video = await box(phone.page.locator('video'));
  const input = await box(phone.page.getByLabel('Message', { exact: true }));
  t.true(inFirstScreen(video, VIEWPORTS.phone), `video at ${JSON.stringify(video)}`);
  t.true(inFirstScreen(input, VIEWPORTS.phone), `chat input at ${JSON.stringify(input)}`);
  t.true(input.y > video.y + video.height, 'the chat is under the video on a phone');

  const wide = await signedIn(member);
  await openRoom(wide, roomId);
  await wide.page.getByRole('list', { name: 'Messages' }).getByText('Message 20:').waitFor();
  const wideVideo = await box(wide.page.locator('video'));
  const wideInput = await box(wide.page.getByLabel('Message', { exact: true }));
  t.true(inFirstScreen(wideVideo, VIEWPORTS.desktop) && inFirstScreen(wideInput, VIEWPORTS.desktop));
  t.true(wideInput.x >= wideVideo.x + wideVideo.width, 'the chat is beside the video');
  t.deepEqual([...phone.problems, ...wide.problems], []);
});

test('theatre mode (button and t) puts the panels under a full-width video and back; fullscreen takes the player with its controls', async (t) => {
  const owner = await bed.signUp('owner');
  const member = await bed.signUp('viewer');
  const roomId = await roomWithVideo(owner, member);
  const person = await signedIn(member);
  const { page } = person;
  await openRoom(person, roomId);
  const side = page.locator('.room-side');
  const videoBox = () => box(page.locator('video'));
  t.true((await box(side)).x >= (await videoBox()).x + (await videoBox()).width, 'panels beside the video at first');

  const theatre = page.getByRole('button', { name: 'Theatre mode' });
  await theatre.click();
  t.is(await theatre.getAttribute('aria-pressed'), 'true');
  await eventually(async () => (await box(side)).y >= (await videoBox()).y + (await videoBox()).height, DEADLINE_MS, 'the panels under the video');
  t.true((await videoBox()).width > VIEWPORTS.desktop.width * 0.9, 'the video takes the page width');
  await screenshot(page, 'room-theatre');

  await page.locator('h1').focus();
  await page.keyboard.press('t');
  await eventually(async () => (await theatre.getAttribute('aria-pressed')) === 'false', DEADLINE_MS, 'theatre off by the t key');
  await eventually(async () => (await box(side)).x >= (await videoBox()).x + (await videoBox()).width, DEADLINE_MS, 'the panels beside the video again');

  await page.getByRole('button', { name: 'Fullscreen' }).click();
  await eventually(() => page.evaluate<boolean>(`document.fullscreenElement?.classList.contains('player') === true`), DEADLINE_MS, 'the player in fullscreen');
  t.true(await page.evaluate<boolean>(`document.fullscreenElement.contains(document.querySelector('.player-controls'))`), 'the controls are in fullscreen too');
  await page.getByRole('button', { name: 'Exit fullscreen' }).click();
  await eventually(() => page.evaluate<boolean>('document.fullscreenElement === null'), DEADLINE_MS, 'fullscreen left');
  t.deepEqual(person.problems, []);
});

test('the controls step aside while the video plays and come back on a pointer move; k plays and pauses, the arrows seek', async (t) => {
  const owner = await bed.signUp('owner');
  const member = await bed.signUp('viewer');
  const roomId = await roomWithVideo(owner, member);
  const person = await signedIn(owner);
  const { page } = person;
  await openRoom(person, roomId);
  const controls = page.locator('.player-controls');
  const hidden = async () => ((await controls.getAttribute('class')) ?? '').includes('is-hidden');

  // The page heading has focus on arrival: the keys act from there.
  await page.keyboard.press('k');
  await eventually(() => isPlaying(page), DEADLINE_MS, 'playing after k');
  await eventually(hidden, DEADLINE_MS, 'the controls hidden while playing, with no pointer moving');
  const frame = await box(page.locator('.player-frame'));
  await page.mouse.move(frame.x + frame.width / 2, frame.y + frame.height / 2);
  await eventually(async () => !(await hidden()), DEADLINE_MS, 'the controls back after a pointer move');

  await page.keyboard.press('k');
  await eventually(async () => !(await isPlaying(page)), DEADLINE_MS, 'paused after the second k');
  t.false(await hidden(), 'paused: the controls stay');
  const before = await page.evaluate<number>(`document.querySelector('video').currentTime`);
  await page.locator('h1').focus();
  await page.keyboard.press('ArrowRight');
  await eventually(async () => (await page.evaluate<number>(`document.querySelector('video').currentTime`)) >= before + 4, DEADLINE_MS, 'five seconds on after ArrowRight');

  // Typing in the chat is typing: k goes into the message, it does not play.
  await page.getByLabel('Message', { exact: true }).fill('');
  await page.getByLabel('Message', { exact: true }).press('k');
  t.is(await page.getByLabel('Message', { exact: true }).inputValue(), 'k');
  t.false(await isPlaying(page));
  t.deepEqual(person.problems, []);
});
