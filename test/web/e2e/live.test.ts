/**
 * A livestream in Chromium against the whole service (issue 12, section 5): the owner adds a
 * live item with the form, reads the publish URL from its publish settings and ffmpeg publishes
 * a 320x240 test pattern there over RTMP. The "On air" badge follows on the owner's page and
 * on a member's (room events, no reload); the owner plays the item from the controls and the
 * member's player plays it through HTTP-FLV (mpegts.js). A browser without Media Source
 * Extensions (iPhone Safari) falls back to the HLS source. When ffmpeg stops both badges turn
 * "Offline". The member, who lacks `publish_livestream`, never sees publish settings.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { publish, type Publisher } from '../../media/live-fixtures.js';
import type { Member } from '../../gateways/bed.js';
import { checkAtBothWidths, evaluateQuietly, signInPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';

const TITLE = 'Evening stream';
/** Stream start-up (RTMP handshake, a keyframe, the badge's room event) on a busy machine. */
const LIVE_MS = 30_000;

let bed: WebBed;
let publisher: Publisher | undefined;

test.before(async () => {
  bed = await startWebBed('web_live', { autoplay: true });
});
test.after.always(async () => {
  await publisher?.stop();
  await bed?.close();
});

async function openRoom(member: Member, roomId: string, setUp?: (person: Person) => Promise<void>): Promise<Person> {
  const person = await bed.person();
  await setUp?.(person);
  await signInPage(person.page, member.username);
  await person.page.goto(`/rooms/${roomId}`);
  await person.page.getByRole('button', { name: 'Fullscreen' }).waitFor({ timeout: 15_000 });
  // With something playing the room opens on the chat; the live item's badge is in the playlist.
  await person.page.getByRole('tab', { name: 'Playlist' }).click();
  return person;
}

const liveItem = (page: Page) => page.locator('.playlist-item').filter({ hasText: TITLE });
const badge = (page: Page, text: 'On air' | 'Offline') => liveItem(page).locator('.badge', { hasText: text }).waitFor({ timeout: LIVE_MS });

/** The element's state: which source type the player attached, its size and position. */
async function video(page: Page): Promise<{ sourceType: string | null; width: number; time: number; paused: boolean }> {
  return (await evaluateQuietly(
    page,
    `(() => { const v = document.querySelector('video'); return { sourceType: v.dataset.sourceType ?? null, width: v.videoWidth, time: v.currentTime, paused: v.paused }; })()`,
  )) as { sourceType: string | null; width: number; time: number; paused: boolean };
}

/** Waits until the page's video shows the 320 px test pattern and its time moves on by a second. */
async function playsTheStream({ page, problems }: Person): Promise<{ sourceType: string | null; width: number }> {
  try {
    await waitForPage(page, `(() => { const v = document.querySelector('video'); return v.videoWidth > 0 && !v.paused && v.currentTime > 0; })()`, LIVE_MS);
  } catch (error) {
    // What the element and the player say, for a failure's account.
    const state = await evaluateQuietly(
      page,
      `(() => { const v = document.querySelector('video'); return { sourceType: v.dataset.sourceType ?? null, src: v.currentSrc, readyState: v.readyState, networkState: v.networkState, error: v.error && v.error.message, paused: v.paused, time: v.currentTime, buffered: v.buffered.length ? v.buffered.end(v.buffered.length - 1) : null, player: document.querySelector('.player')?.innerText }; })()`,
    ).catch((reason: unknown) => String(reason));
    throw new Error(`${(error as Error).message}\n${JSON.stringify(state)}\n${problems.join('\n')}`);
  }
  const start = await video(page);
  await waitForPage(page, `document.querySelector('video').currentTime > ${start.time + 1}`, LIVE_MS);
  const now = await video(page);
  return { sourceType: now.sourceType, width: now.width };
}

test.serial('a livestream added, published to, played over FLV (HLS without MSE) and ended, seen by the owner and a member', async (t) => {
  const [owner, member] = await Promise.all([bed.signUp('owner'), bed.signUp('member')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Live night' }, owner.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);

  const o = await openRoom(owner, roomId);
  const m = await openRoom(member, roomId);

  // The owner adds the live item with the form and opens its publish settings.
  await o.page.getByLabel('Livestream title').fill(TITLE);
  await o.page.getByRole('button', { name: 'Add a livestream' }).click();
  await badge(o.page, 'Offline');
  await badge(m.page, 'Offline');
  await liveItem(o.page).getByRole('button', { name: `Publish settings for ${TITLE}` }).click();
  const urlRow = liveItem(o.page).locator('.copy-row').filter({ hasText: 'Publish URL' });
  await urlRow.getByRole('button', { name: 'Show' }).click();
  const publishUrl = (await urlRow.locator('code').innerText()).trim();
  t.regex(publishUrl, new RegExp(`^rtmp://localhost:${bed.config.rtmp.port}/live/sk_[A-Za-z0-9_-]{32}$`));

  // The member (no publish_livestream) can neither add live items nor see where to publish.
  await liveItem(m.page).waitFor();
  t.is(await liveItem(m.page).getByRole('button', { name: /Publish settings/ }).count(), 0);
  t.is(await m.page.locator('.stream-key').count(), 0);
  t.is(await m.page.getByRole('button', { name: 'Add a livestream' }).count(), 0);

  publisher = publish(publishUrl);
  const early = publisher.exited.then(({ code, stderr }) => {
    throw new Error(`ffmpeg exited (${code}) before the test stopped it: ${stderr}`);
  });
  early.catch(() => undefined);
  await Promise.race([Promise.all([badge(o.page, 'On air'), badge(m.page, 'On air')]), early]);

  // The first item added is cued (docs/2026-11-26-queue-modes.md): the owner presses the player's Play.
  await liveItem(o.page).locator('.badge', { hasText: 'Now playing' }).waitFor();
  await o.page.getByRole('button', { name: 'Play', exact: true }).click();
  await o.page.getByRole('button', { name: 'Pause', exact: true }).waitFor();

  const memberPlays = await playsTheStream(m);
  t.deepEqual(memberPlays, { sourceType: 'flv', width: 320 }, 'the member plays the stream through mpegts.js');
  t.deepEqual(await playsTheStream(o), { sourceType: 'flv', width: 320 });

  // A browser without Media Source Extensions (mpegts.js cannot work there) takes the HLS
  // source instead; this Chromium plays HLS natively, as Safari does.
  const noMse = await openRoom(member, roomId, async (person) => {
    await person.context.addInitScript('delete window.MediaSource; delete window.ManagedMediaSource;');
  });
  t.is(await evaluateQuietly(noMse.page, `typeof window.MediaSource`), 'undefined');
  t.deepEqual(await playsTheStream(noMse), { sourceType: 'hls', width: 320 }, 'the HLS source plays where FLV cannot');

  // axe and the layout at both widths, with the live item's publish settings open.
  t.deepEqual(await checkAtBothWidths(o.page, 'room-live'), []);

  // ffmpeg stops: both pages show the item offline, without a reload.
  await publisher.stop();
  await Promise.all([badge(o.page, 'Offline'), badge(m.page, 'Offline'), badge(noMse.page, 'Offline')]);

  t.deepEqual(o.problems, []);
  t.deepEqual(m.problems, []);
  t.deepEqual(noMse.problems, []);
});

/** A new room of a new owner and member whose current item is a live item nobody publishes to yet. */
async function liveItemNowPlaying(roomName: string): Promise<{ owner: Member; member: Member; roomId: string; publishUrl: string }> {
  const [owner, member] = await Promise.all([bed.signUp('owner'), bed.signUp('member')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: roomName }, owner.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: TITLE, provider: 'live' }, owner.token);
  const mediaId = added.body.item.id;
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId }, owner.token);
  const key = await bed.call<{ url: string }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/stream-key`, undefined, owner.token);
  return { owner, member, roomId, publishUrl: key.body.url };
}

test.serial('a live item already playing before anyone publishes starts on its own when the stream comes on air, and again after a restart', async (t) => {
  const { owner, member, roomId, publishUrl } = await liveItemNowPlaying('Late stream');

  const o = await openRoom(owner, roomId);
  const m = await openRoom(member, roomId);
  await o.page.getByRole('button', { name: 'Play', exact: true }).click();
  await o.page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
  await badge(m.page, 'Offline');
  await m.page.getByText('The livestream is offline').waitFor();

  for (const round of ['first publish', 'after a restart']) {
    publisher = publish(publishUrl);
    await badge(m.page, 'On air');
    t.deepEqual(await playsTheStream(m), { sourceType: 'flv', width: 320 }, round);
    await publisher.stop();
    await badge(m.page, 'Offline');
    await m.page.getByText('The livestream is offline').waitFor();
  }
  t.deepEqual(m.problems, []);
});

test.serial('a live stream whose first connection brings nothing is opened again, and plays', async (t) => {
  const { owner, member, roomId, publishUrl } = await liveItemNowPlaying('Silent start');
  await bed.call('POST', `/api/rooms/${roomId}/playback/play`, {}, owner.token);
  publisher = publish(publishUrl);

  // The member's first FLV request is held unanswered: the element loads and gets no data.
  let flvRequests = 0;
  const m = await openRoom(member, roomId, async (person) => {
    await person.page.route('**/stream.flv', async (route) => {
      flvRequests += 1;
      if (flvRequests > 1) await route.continue();
    });
  });
  await badge(m.page, 'On air');
  t.deepEqual(await playsTheStream(m), { sourceType: 'flv', width: 320 });
  t.is(flvRequests, 2, 'the stream was opened a second time');
  await publisher.stop();
  t.deepEqual(m.problems, []);
});
