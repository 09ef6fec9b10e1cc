/**
 * The queue that plays, in Chromium against the whole service: two members watch two short
 * clips; the first item added is cued, the room moves to the next item on both pages by
 * itself, stops after the last, and with "Repeat this item" (chosen in the settings panel)
 * plays the same item again. Media: 5 s ffmpeg clips served from 127.0.0.1 with Range support.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, evaluateQuietly, FULLSCREEN, openRoomPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';
import type { Member } from '../../gateways/bed.js';
import { waitFor } from '../../fixtures/deadline.js';

// Long enough that a page which loads the next clip late on a loaded machine (CI saw one more
// than 2 s late) still joins it before its last second, which is what "from its start" allows.
const CLIP_SECONDS = 5;
/** Long enough for a clip, its end, the room's 1.5 s lead and the next start on a busy machine. */
const STEP_MS = 20_000;

let bed: WebBed;
let media: MediaServer;
test.before(async () => {
  // Two clips of different sizes in one folder, so the pages visibly load another file.
  const first = await makeTestVideo({ seconds: CLIP_SECONDS, size: '320x180' });
  const second = await makeTestVideo({ seconds: CLIP_SECONDS, size: '256x144' });
  await rename(join(first.dir, first.file), join(first.dir, 'a.webm'));
  await rename(join(second.dir, second.file), join(first.dir, 'b.webm'));
  media = await serveMedia(first.dir);
  bed = await startWebBed('web_queue', { autoplay: true });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

interface Playback {
  mediaId: string | null;
  playing: boolean;
}

const openRoom = (member: Member, roomId: string): Promise<Person> =>
  openRoomPage(bed, member, roomId, { allowHosts: [media.host], until: FULLSCREEN, timeoutMs: STEP_MS });

/**
 * Records in the page every position a video was at while playing (its `timeupdate`s, about four
 * a second, with the video's label): a check that reads the record cannot miss a moment by
 * polling late on a busy machine, as reading currentTime could.
 */
const RECORD_PLAYED = `(() => {
  if (window.__played) return;
  window.__played = [];
  document.addEventListener('timeupdate', (event) => {
    const video = event.target;
    if (video instanceof HTMLVideoElement && !video.paused) window.__played.push([video.getAttribute('aria-label'), video.currentTime]);
  }, true);
})()`;

/** How many positions the page has recorded so far (a later check reads only what came after). */
const recorded = async (page: Page): Promise<number> => (await evaluateQuietly(page, 'window.__played.length')) as number;

/**
 * The page played `title` from its start, after its record's entry `from`: a position before
 * the clip's last second (not the end of the item before, nor a page left at the end). A page
 * that loaded the item late on a busy machine joins it where the room is, up to a second or two in.
 */
const playedFromStart = (page: Page, title: string, from = 0) =>
  waitForPage(page, `window.__played.slice(${from}).some(([label, at]) => label === 'Video: ${title}' && at > 0.1 && at < ${CLIP_SECONDS - 1})`, STEP_MS);

/** After its record's entry `from`, the page played `title` into its last second, then from its start again. */
const playedToEndAndAgain = (page: Page, title: string, from: number) =>
  waitForPage(
    page,
    `(() => {
      const played = window.__played.slice(${from}).filter(([label]) => label === 'Video: ${title}').map(([, at]) => at);
      const end = played.findIndex((at) => at > ${CLIP_SECONDS - 1});
      return end >= 0 && played.slice(end + 1).some((at) => at > 0.1 && at < ${CLIP_SECONDS - 1});
    })()`,
    2 * STEP_MS,
  );

test.serial('the room moves to the next item on both pages by itself, stops after the last, and repeats an item when asked', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const created = await bed.call<{ room: { id: string; queueMode: string } }>('POST', '/api/rooms', { name: 'Shorts' }, alice.token);
  const roomId = created.body.room.id;
  t.is(created.body.room.queueMode, 'next');
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, bob.token);
  const first = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Clip A', url: media.url('a.webm') }, alice.token);
  const second = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Clip B', url: media.url('b.webm') }, alice.token);
  const playback = async () => (await bed.call<{ playback: Playback }>('GET', `/api/rooms/${roomId}/playback`, undefined, alice.token)).body.playback;
  t.like(await playback(), { mediaId: first.body.item.id, playing: false }, 'the first item added is cued');

  const a = await openRoom(alice, roomId);
  const b = await openRoom(bob, roomId);
  for (const person of [a, b]) await evaluateQuietly(person.page, RECORD_PLAYED);
  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  await Promise.all([playedFromStart(a.page, 'Clip A'), playedFromStart(b.page, 'Clip A')]);

  // Nobody touches anything: at the end of A both pages go on to B together.
  await Promise.all([playedFromStart(a.page, 'Clip B'), playedFromStart(b.page, 'Clip B')]);
  // Both pages playing B from its start is what shows the room plays it: B is short, and by the
  // time a loaded machine reads the room it may have stopped after it already.
  t.is((await playback()).mediaId, second.body.item.id);

  // After the last item the room stops, paused at its end, on both pages.
  const stopped = `(() => { const v = document.querySelector('video[aria-label="Video: Clip B"]'); return !!v && v.paused && v.currentTime > ${CLIP_SECONDS - 1}; })()`;
  await Promise.all([waitForPage(a.page, stopped, STEP_MS), waitForPage(b.page, stopped, STEP_MS)]);
  // A page's element pauses at its own end; the room records the stop when its clock reaches the
  // item's end, which may come a moment later: wait for it rather than read once.
  const roomStopped = await waitFor('the room to stop after its last item', async () => {
    const now = await playback();
    return now.playing ? undefined : now;
  }, STEP_MS, 100);
  t.like(roomStopped, { mediaId: second.body.item.id, playing: false });

  // "Repeat this item", chosen in the settings panel: A plays, ends, and plays again for both.
  await a.page.getByRole('tab', { name: 'Settings' }).click();
  await a.page.getByLabel('When an item ends').selectOption({ label: 'Repeat this item' });
  await a.page.getByRole('button', { name: 'Save settings' }).click();
  await a.page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor({ timeout: STEP_MS });
  t.is(await a.page.getByLabel('When an item ends').inputValue(), 'repeat_one', 'the form shows the saved mode');
  t.deepEqual(await checkAtBothWidths(a.page, 'room-settings-queue-mode'), []);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: first.body.item.id }, alice.token);
  const [fromA, fromB] = await Promise.all([recorded(a.page), recorded(b.page)]);
  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  await Promise.all([playedToEndAndAgain(a.page, 'Clip A', fromA), playedToEndAndAgain(b.page, 'Clip A', fromB)]);
  t.like(await playback(), { mediaId: first.body.item.id, playing: true });
  t.deepEqual([...a.problems, ...b.problems], []);
});
