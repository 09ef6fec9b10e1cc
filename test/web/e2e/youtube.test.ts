/**
 * YouTube items in Chromium against the whole service, with YouTube replaced by a local
 * stand-in of the IFrame Player API (test/fixtures/youtube-standin.ts; this machine cannot
 * reach YouTube): the owner adds a video by its link through the form, the room cues it at the
 * link's start time, both members' pages play it in YouTube's (stand-in) player and stay in
 * step through play and a seek, measured on the players' own video; a playlist link is added
 * as its videos. The content security policy admits the configured origins and the pages
 * load nothing else (any other request, or a CSP violation, is a problem).
 */
import test from 'ava';
import type { Frame, Page } from 'playwright-core';
import { startYouTubeStandIn, type YouTubeStandIn } from '../../fixtures/youtube-standin.js';
import type { Member } from '../../gateways/bed.js';
import { screenshot, signInPage, startWebBed, type Person, type WebBed } from './browser.js';
import { positionAt, seekFromControls, settled, SETTLE_MS } from './in-sync.js';
import { makeTestVideo } from './media.js';

/** The target for embedded players is p99 < 150 ms; the test allows a busy CI machine the same. */
const EMBEDDED_TOLERANCE_S = 0.15;
const VIDEO = 'svcClock001';
const OTHER = 'svcClock002';

let bed: WebBed;
let standIn: YouTubeStandIn;

test.before(async () => {
  const video = await makeTestVideo({ seconds: 90, size: '320x180' });
  const file = `${video.dir}/${video.file}`;
  standIn = await startYouTubeStandIn({ videos: { [VIDEO]: file, [OTHER]: file }, playlists: { PLsvcStandIn: [VIDEO, OTHER] } });
  bed = await startWebBed('web_youtube', {
    autoplay: true,
    env: { SVC_YOUTUBE_IFRAME_API_URL: standIn.apiUrl, SVC_YOUTUBE_EMBED_ORIGIN: standIn.origin },
  });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), standIn?.close()]);
});

async function openRoom(member: Member, roomId: string, viewport: 'desktop' | 'phone' = 'desktop'): Promise<Person> {
  const person = await bed.person({ viewport, allowHosts: [standIn.host] });
  await signInPage(person.page, member.username);
  await person.page.goto(`/rooms/${roomId}`);
  return person;
}

/** The stand-in player's frame in a page, once it shows the video. */
async function playerFrame(page: Page): Promise<Frame> {
  await page.locator('iframe.player-embed-frame').waitFor({ timeout: SETTLE_MS });
  const deadline = Date.now() + SETTLE_MS;
  while (Date.now() < deadline) {
    const frame = page.frames().find((candidate) => candidate.url().startsWith(`${standIn.origin}/embed/`));
    if (frame && (await frame.evaluate(`document.querySelector('video').readyState >= 1`).catch(() => false))) return frame;
    await page.waitForTimeout(100);
  }
  throw new Error('the YouTube player frame did not load its video');
}

test.serial('a YouTube link plays in the embedded player at its start time, two members in step through play and seek', async (t) => {
  const [owner, friend] = await Promise.all([bed.signUp('yt-owner'), bed.signUp('yt-friend')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'YouTube night' }, owner.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, friend.token);

  const a = await openRoom(owner, roomId);
  await a.page.getByLabel('Media URL').fill(`https://www.youtube.com/watch?v=${VIDEO}&t=20`);
  await a.page.getByLabel('Title', { exact: true }).fill('Clock on YouTube');
  await a.page.getByLabel('Provider').selectOption('youtube');
  await t.throwsAsync(a.page.getByLabel('Play through this server (media proxy)').waitFor({ timeout: 500 }), undefined, 'no proxy switch: YouTube is never proxied');
  await a.page.getByRole('button', { name: 'Add to playlist' }).click();
  await a.page.locator('.playlist-item').filter({ hasText: 'Clock on YouTube' }).waitFor();
  const room = await bed.call<{ playback: { position: number; mediaId: string | null } }>('GET', `/api/rooms/${roomId}`, undefined, owner.token);
  t.is(room.body.playback.position, 20, 'the first item is cued at the link\'s t=20');

  const b = await openRoom(friend, roomId);
  const [frameA, frameB] = [await playerFrame(a.page), await playerFrame(b.page)];
  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  t.true((await settled([frameA, frameB], 20.5, EMBEDDED_TOLERANCE_S)) <= EMBEDDED_TOLERANCE_S, 'in step after play, from 0:20');
  t.true((await positionAt(frameA, Date.now())) < 40, 'it started at 0:20, not elsewhere');

  await seekFromControls(a.page, 50);
  t.true((await settled([frameA, frameB], 50, EMBEDDED_TOLERANCE_S)) <= EMBEDDED_TOLERANCE_S, 'in step after the seek');
  t.is(await a.page.evaluate(`getComputedStyle(document.querySelector('.player-video')).visibility`), 'hidden', 'the embedded player takes the video\'s place');
  await screenshot(a.page, 'room-youtube');
  t.is(standIn.refererless(), 0, 'every player frame was requested with the page\'s origin as Referer, which YouTube requires');
  t.deepEqual([...a.problems, ...b.problems], []);
});

test.serial('a playlist link is added as one item per video, asked of the embedded player', async (t) => {
  const owner = await bed.signUp('yt-lists');
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Playlist night' }, owner.token);
  const roomId = created.body.room.id;
  const a = await openRoom(owner, roomId, 'phone');
  await a.page.getByLabel('Media URL').fill('https://www.youtube.com/playlist?list=PLsvcStandIn');
  await a.page.getByLabel('Title', { exact: true }).fill('Clocks');
  await a.page.getByLabel('Provider').selectOption('youtube');
  await a.page.getByRole('button', { name: 'Add to playlist' }).click();
  await a.page.locator('.playlist-item').filter({ hasText: 'Clocks (2/2)' }).waitFor({ timeout: SETTLE_MS });
  const playlist = await bed.call<{ items: Array<{ url: string; title: string; provider: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  t.deepEqual(
    playlist.body.items.map((item) => [item.title, item.url, item.provider]),
    [
      ['Clocks (1/2)', `https://www.youtube.com/watch?v=${VIDEO}`, 'youtube'],
      ['Clocks (2/2)', `https://www.youtube.com/watch?v=${OTHER}`, 'youtube'],
    ],
  );
  await screenshot(a.page, 'room-youtube-playlist');
  t.deepEqual(a.problems, []);
});
