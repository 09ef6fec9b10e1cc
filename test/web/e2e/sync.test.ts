/**
 * The synchronized player in Chromium against the whole service: two members in one room,
 * one steers from the player's controls (play, seek, pause) and the other follows; a late
 * joiner lands where the room is. Media is an ffmpeg test video served from 127.0.0.1 with Range support.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, evaluateQuietly, signInPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';
import { playingPast, seekFromControls, settled, SETTLE_MS, TOLERANCE_S } from './in-sync.js';
import type { Member } from '../../gateways/bed.js';


let bed: WebBed;
let media: MediaServer;
test.before(async () => {
  const video = await makeTestVideo();
  media = await serveMedia(video.dir);
  bed = await startWebBed('web_sync', { autoplay: true });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

/** A room owned by `owner` with `others` as members and the test video current (paused at 0). */
async function roomWithVideo(on: WebBed, owner: Member, others: Member[]): Promise<string> {
  const created = await on.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Movie night' }, owner.token);
  const roomId = created.body.room.id;
  for (const member of others) await on.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const added = await on.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Test clock', url: media.url('clock.webm') }, owner.token);
  await on.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: added.body.item.id }, owner.token);
  return roomId;
}

async function openRoom(on: WebBed, member: Member, roomId: string, autoplayBlocked = false): Promise<Person> {
  const person = await on.person({ allowHosts: [media.host], autoplayBlocked });
  await signInPage(person.page, member.username);
  await person.page.goto(`/rooms/${roomId}`);
  // Locators would give the page user activation (see evaluateQuietly): wait without them.
  if (autoplayBlocked) return person;
  try {
    await person.page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: SETTLE_MS });
  } catch (error) {
    throw new Error(`the player did not open: ${await person.page.innerText('main').catch(() => '?')} ${person.problems.join('; ')}`, { cause: error });
  }
  return person;
}

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: SETTLE_MS });

test.serial('play, seek and pause from the controls: the other member follows; a late joiner lands in step', async (t) => {
  const [alice, bob, carol] = await Promise.all([bed.signUp('alice'), bed.signUp('bob'), bed.signUp('carol')]);
  const roomId = await roomWithVideo(bed, alice, [bob, carol]);
  const a = await openRoom(bed, alice, roomId);
  const b = await openRoom(bed, bob, roomId);
  await status(a.page, 'Paused');
  await status(b.page, 'Paused');
  t.deepEqual(await checkAtBothWidths(a.page, 'room-player'), []);

  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  await status(a.page, 'Playing');
  await status(b.page, 'Playing');
  t.true((await settled([a.page, b.page], 1)) <= TOLERANCE_S, 'in step after play');

  // Seek to 0:30 with the seek bar (a range input: its value, then its change, as a drag ends).
  const seekbar = a.page.getByRole('slider', { name: 'Seek' });
  t.regex((await seekbar.getAttribute('aria-valuetext')) ?? '', /^\d+:\d\d of 1:00$/);
  await seekFromControls(a.page, 30);
  t.true((await settled([a.page, b.page], 30)) <= TOLERANCE_S, 'in step after the seek');
  // The keyboard moves it too: one step right is one second on.
  await seekbar.focus();
  await a.page.keyboard.press('ArrowRight');
  t.true((await settled([a.page, b.page], 31)) <= TOLERANCE_S, 'in step after a keyboard seek');

  // A late joiner lands where the room is.
  const c = await openRoom(bed, carol, roomId);
  await status(c.page, 'Playing');
  t.true((await settled([a.page, b.page, c.page], 32)) <= TOLERANCE_S, 'the late joiner is in step');

  await a.page.getByRole('button', { name: 'Pause', exact: true }).click();
  await status(b.page, `Paused by ${alice.username}`);
  await waitForPage(b.page, `document.querySelector('video').paused`);
  t.true((await settled([a.page, b.page, c.page])) <= TOLERANCE_S, 'paused on the same frame');
  t.deepEqual([...a.problems, ...b.problems, ...c.problems], []);
});

test.serial('your own pause stops your player at the click, where the room then pauses for everyone, and it does not start again', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const roomId = await roomWithVideo(bed, alice, [bob]);
  const a = await openRoom(bed, alice, roomId);
  const b = await openRoom(bed, bob, roomId);
  await status(a.page, 'Paused');
  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  await Promise.all([waitForPage(a.page, playingPast(2), SETTLE_MS), waitForPage(b.page, playingPast(2), SETTLE_MS)]);
  // Counts the player's starts from here on.
  await evaluateQuietly(a.page, `(() => { window.__starts = 0; document.querySelector('video').addEventListener('play', () => { window.__starts += 1; }); })()`);

  // The click and a look at the player in one task of the page: no word from the room can come between them.
  const [paused, at] = (await evaluateQuietly(
    a.page,
    `(() => { [...document.querySelectorAll('.player-controls button')].find((b) => b.getAttribute('aria-label') === 'Pause').click(); const v = document.querySelector('video'); return [v.paused, v.currentTime]; })()`,
  )) as [boolean, number];
  t.true(paused, 'the player paused at the click, before the room answered');

  await status(b.page, `Paused by ${alice.username}`);
  await waitForPage(b.page, `document.querySelector('video').paused`, SETTLE_MS);
  const room = (await bed.call<{ playback: { playing: boolean; position: number } }>('GET', `/api/rooms/${roomId}/playback`, undefined, alice.token)).body.playback;
  t.false(room.playing);
  t.true(Math.abs(room.position - at) < 0.05, `the room paused at ${room.position}, where the click stopped the player (${at})`);
  const [aliceAt, bobAt] = (await Promise.all([a.page, b.page].map((page) => evaluateQuietly(page, `document.querySelector('video').currentTime`)))) as [number, number];
  t.true(Math.abs(aliceAt - at) < 0.05, `the player stayed where it paused (${at}), now ${aliceAt}: no seek back by a round trip`);
  t.true(Math.abs(bobAt - room.position) <= TOLERANCE_S, `the other member paused at ${bobAt}, the room at ${room.position}`);
  t.is(await evaluateQuietly(a.page, 'window.__starts'), 0, 'the player never started again while the room answered');
  t.deepEqual([...a.problems, ...b.problems], []);
});

test.serial('where the browser blocks autoplay, a member is asked to click, and the click starts them in step', async (t) => {
  const [erin, frank] = await Promise.all([bed.signUp('erin'), bed.signUp('frank')]);
  const roomId = await roomWithVideo(bed, erin, [frank]);
  const e = await openRoom(bed, erin, roomId);
  await e.page.getByRole('button', { name: 'Play', exact: true }).click();
  await status(e.page, 'Playing');

  // Frank's browser has Chromium's normal policy and nothing on his page was clicked: the room
  // plays, his player cannot, and it asks.
  const f = await openRoom(bed, frank, roomId, true);
  await waitForPage(f.page, `[...document.querySelectorAll('button')].some((b) => b.textContent === 'Click to join playback')`, SETTLE_MS);
  t.true((await evaluateQuietly(f.page, `document.querySelector('video').paused`)), 'nothing plays before the click');
  const join = f.page.getByRole('button', { name: 'Click to join playback' });
  t.deepEqual(await checkAtBothWidths(f.page, 'room-autoplay-blocked'), []);

  await join.click();
  await join.waitFor({ state: 'detached', timeout: SETTLE_MS });
  await waitForPage(f.page, `!document.querySelector('video').paused`);
  t.true((await settled([e.page, f.page], 1)) <= TOLERANCE_S, 'in step after the click');
  t.deepEqual([...e.problems, ...f.problems], []);
});
