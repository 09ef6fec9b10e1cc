/**
 * Guests watch (docs/2026-11-26-guests-watch.md), in Chromium as people: a friend who opens the
 * room's link gives a display name and is watching (the host's video, in step) and reading the
 * chat, with no playlist shown; the host's permission form offers guests only what they may be
 * given, with the server's defaults ticked.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { waitFor } from '../../fixtures/deadline.js';
import type { Member } from '../../gateways/bed.js';
import { checkAtBothWidths, signInPage, startWebBed, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';

/** How soon after the host presses Play the guest's video must be playing in step. */
const FOLLOW_MS = 2_000;
/** How far apart the two videos may be then (the engine converges further after). */
const NEAR_S = 0.5;
const OPEN_MS = 20_000;

let bed: WebBed;
let media: MediaServer;
test.before(async () => {
  const video = await makeTestVideo();
  media = await serveMedia(video.dir);
  bed = await startWebBed('web_guests', { autoplay: true });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

async function roomWithVideo(owner: Member): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Watch party' }, owner.token);
  const roomId = created.body.room.id;
  const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Test clock', url: media.url('clock.webm') }, owner.token);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: added.body.item.id }, owner.token);
  return roomId;
}

async function openAsHost(owner: Member, roomId: string): Promise<Person> {
  const host = await bed.person({ allowHosts: [media.host] });
  host.page.setDefaultTimeout(OPEN_MS);
  await signInPage(host.page, owner.username);
  await host.page.goto(`/rooms/${roomId}`);
  await host.page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: OPEN_MS });
  return host;
}

/** The video's position (s), whether it is playing, and the page's wall clock (ms). */
async function video(page: Page): Promise<{ time: number; paused: boolean; now: number }> {
  const [time, paused, now] = await page.evaluate<[number, boolean, number]>(
    `(() => { const v = document.querySelector('video'); return [v ? v.currentTime : -1, v ? v.paused : true, performance.timeOrigin + performance.now()]; })()`,
  );
  return { time, paused, now };
}

/** Both pages' positions at one instant (extrapolated from each page's reading). */
async function positions(a: Page, b: Page): Promise<[number, number, boolean]> {
  const [va, vb] = await Promise.all([video(a), video(b)]);
  const at = Math.max(va.now, vb.now);
  const extrapolate = (v: { time: number; paused: boolean; now: number }) => (v.paused ? v.time : v.time + (at - v.now) / 1000);
  return [extrapolate(va), extrapolate(vb), !vb.paused];
}

test.serial('a guest from the share link is one name away from watching in step with the host and reading the chat', async (t) => {
  const owner = await bed.signUp('host');
  const roomId = await roomWithVideo(owner);
  await bed.call('POST', `/api/rooms/${roomId}/chat`, { text: 'Welcome, grab a seat' }, owner.token);
  const host = await openAsHost(owner, roomId);

  const friend = await bed.person({ allowHosts: [media.host] });
  const page = friend.page;
  page.setDefaultTimeout(OPEN_MS);
  await page.goto(`/rooms/${roomId}`);
  await page.getByLabel('Your name (as a guest)').fill('Gus');
  await page.getByRole('button', { name: 'Continue as guest' }).click();

  // No second step: the guest is in the room, the host's video is loaded and the chat is there.
  await page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: OPEN_MS });
  await page.getByRole('status').filter({ hasText: 'Test clock' }).waitFor({ timeout: OPEN_MS });
  t.is(await page.getByText('The current item is not visible to you').count(), 0);
  await page.getByRole('tab', { name: 'Chat' }).click();
  await page.getByText('Welcome, grab a seat').waitFor({ timeout: OPEN_MS });
  t.true(await page.getByText('Guests read the chat; sign in to write in it.').isVisible());
  t.is(await page.getByRole('tab', { name: 'Playlist' }).count(), 0, 'a guest has no playlist to see');
  await page.getByRole('tab', { name: 'Members' }).click();
  await page.getByRole('tabpanel').getByText(owner.username).first().waitFor({ timeout: OPEN_MS });
  await waitFor('the guest\'s video to be ready', async () => (await page.evaluate<number>(`document.querySelector('video').readyState`)) >= 2 || undefined, OPEN_MS);

  // The host presses Play: the guest's video is advancing, close to the host's, within 2 s.
  await host.page.getByRole('button', { name: 'Play', exact: true }).click();
  let last: [number, number, boolean] = [0, 0, false];
  const followed = await waitFor(
    'the guest\'s video to play in step with the host\'s',
    async () => {
      last = await positions(host.page, page);
      const [hostAt, guestAt, playing] = last;
      return playing && guestAt > 0.1 && Math.abs(hostAt - guestAt) <= NEAR_S ? true : undefined;
    },
    FOLLOW_MS,
    50,
  ).catch(() => false);
  t.true(followed, `host at ${last[0].toFixed(3)} s, guest at ${last[1].toFixed(3)} s, guest playing: ${last[2]}`);
  const before = (await video(page)).time;
  await waitFor('the guest\'s video to advance', async () => ((await video(page)).time > before + 0.3 ? true : undefined), OPEN_MS);

  t.deepEqual(await checkAtBothWidths(page, 'room-guest'), []);
  t.deepEqual(friend.problems, []);
  t.deepEqual(host.problems, []);
});

test.serial('the permission form offers guests only what they may be given, with the defaults ticked, and saves a change', async (t) => {
  const owner = await bed.signUp('owner');
  const roomId = await roomWithVideo(owner);
  const host = await openAsHost(owner, roomId);
  const page = host.page;
  await page.getByRole('tab', { name: 'Settings' }).click();
  const guests = page.getByRole('group', { name: 'Guests' });
  await guests.waitFor({ timeout: OPEN_MS });
  await guests.getByText('Guests can at most see who is here, read the chat and join voice.').waitFor();

  const boxes = guests.getByRole('checkbox');
  const names = await boxes.evaluateAll((elements) => elements.map((element) => (element as unknown as { name: string }).name));
  t.deepEqual(names, ['', 'guest.view_member_list', 'guest.view_chat_history', 'guest.use_webrtc'], 'the defaults switch, then the three the ceiling allows');
  t.true(await guests.getByRole('checkbox', { name: 'Use the server’s defaults' }).isChecked());
  t.true(await guests.getByRole('checkbox', { name: /See who is here/ }).isChecked());
  t.true(await guests.getByRole('checkbox', { name: /Read the chat/ }).isChecked());
  t.false(await guests.getByRole('checkbox', { name: /Join voice/ }).isChecked());
  t.is(await page.getByText(/guest ceiling/i).count(), 0);

  await guests.getByRole('checkbox', { name: /Join voice/ }).check();
  t.false(await guests.getByRole('checkbox', { name: 'Use the server’s defaults' }).isChecked(), 'a change makes the room its own set');
  await page.getByRole('button', { name: 'Save permissions' }).click();
  await page.getByText('Permissions saved.').waitFor({ timeout: OPEN_MS });
  const saved = await bed.call<{ overrides: { guest?: string[] | null } }>('GET', `/api/rooms/${roomId}/permissions`, undefined, owner.token);
  t.deepEqual([...(saved.body.overrides.guest ?? [])].sort(), ['use_webrtc', 'view_chat_history', 'view_member_list']);

  t.deepEqual(await checkAtBothWidths(page, 'room-permissions'), []);
  t.deepEqual(host.problems, []);
});
