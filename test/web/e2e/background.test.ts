/**
 * The phone's background (issue 41, docs/2026-11-29-background-resume.md): a member's page is
 * frozen as a locked phone's is (hidden, then frozen, by the DevTools lifecycle command), or cut
 * from the network, while the room moves on: another member seeks and writes in the chat. When
 * it comes back it shows the chat it missed, stands where the room is (within the sync tests'
 * tolerance of the room's clock), and its socket, dead meanwhile, was reopened by the return
 * itself (its status says why: `page_back`, `network_back`) rather than by the backoff timer.
 * How fast is `npm run bench:background`'s figure, not asserted here.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Member } from '../../gateways/bed.js';
import { startWebBed, waitForPage, type WebBed } from './browser.js';
import { inStepAt, openBackgroundPage, type BackgroundPage } from './background-page.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';
import { SETTLE_MS } from './in-sync.js';

let bed: WebBed;
let media: MediaServer;
test.before(async () => {
  const video = await makeTestVideo({ seconds: 180, size: '320x180' });
  media = await serveMedia(video.dir);
  bed = await startWebBed('web_background', { autoplay: true });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

/** A room of `owner` playing the test video, `member` joined. */
async function playingRoom(owner: Member, member: Member): Promise<string> {
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Night bus' }, owner.token)).body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const item = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Clock', url: media.url('clock.webm') }, owner.token);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item.body.item.id }, owner.token);
  await bed.call('POST', `/api/rooms/${roomId}/playback/play`, {}, owner.token);
  return roomId;
}

/** The page's connection states since its player started ([local ms, state, cause]: debug-stats.ts), and the first reconnect's. */
async function reconnect(page: BackgroundPage): Promise<{ states: Array<[number, string, string | null]>; first: [string, string | null] | undefined }> {
  await waitForPage(page.page, `window.__svcPlayerStats.connection.at(-1)[1] === 'open'`);
  const states = await page.page.evaluate<Array<[number, string, string | null]>>('window.__svcPlayerStats.connection');
  const found = states.find(([, state]) => state === 'connecting');
  return { states, first: found ? [found[1], found[2]] : undefined };
}

/** What the room did while the page was away: a seek elsewhere, and a chat line. */
async function moveOn(owner: Member, roomId: string, position: number): Promise<string> {
  const text = `while you were away ${randomUUID().slice(0, 6)}`;
  await bed.call('POST', `/api/rooms/${roomId}/chat`, { text }, owner.token);
  await bed.call('POST', `/api/rooms/${roomId}/playback/seek`, { position }, owner.token);
  return text;
}

const chatShows = (page: BackgroundPage, text: string) =>
  page.page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text }).waitFor({ timeout: SETTLE_MS });

test.serial('a page frozen while the room moves on, its socket dead meanwhile, reconnects on coming back and is in step with what it missed', async (t) => {
  const [owner, member] = await Promise.all([bed.signUp('owner'), bed.signUp('phone')]);
  const roomId = await playingRoom(owner, member);
  const phone = await openBackgroundPage(bed, member, roomId, [media.host]);
  try {
    await phone.page.getByRole('tab', { name: 'Chat' }).click();
    t.not(await inStepAt(bed, roomId, member.token, phone.page, Date.now() + SETTLE_MS), null, 'in step before');

    await phone.freeze();
    t.is(await phone.page.evaluate('document.visibilityState'), 'hidden');
    // The phone's connection goes while it sleeps; the close reaches the page when it runs again.
    await phone.dropSocket();
    const text = await moveOn(owner, roomId, 90);

    await phone.show();
    await chatShows(phone, text);
    t.not(await inStepAt(bed, roomId, member.token, phone.page, Date.now() + SETTLE_MS), null, 'in step with the room after coming back');
    const { states, first } = await reconnect(phone);
    t.deepEqual(first, ['connecting', 'page_back'], `reopened because the page came back: ${JSON.stringify(states)}`);
    t.deepEqual(phone.problems, []);
  } finally {
    await phone.close();
  }
});

test.serial('a page cut from the network while the room moves on replaces its dead socket as soon as the network is back, and is in step with what it missed', async (t) => {
  const [owner, member] = await Promise.all([bed.signUp('owner'), bed.signUp('train')]);
  const roomId = await playingRoom(owner, member);
  const phone = await openBackgroundPage(bed, member, roomId, [media.host]);
  try {
    await phone.page.getByRole('tab', { name: 'Chat' }).click();
    t.not(await inStepAt(bed, roomId, member.token, phone.page, Date.now() + SETTLE_MS), null, 'in step before');

    await phone.offline();
    await waitForPage(phone.page, '!navigator.onLine');
    const text = await moveOn(owner, roomId, 120);

    await phone.online();
    await chatShows(phone, text);
    t.not(await inStepAt(bed, roomId, member.token, phone.page, Date.now() + SETTLE_MS), null, 'in step with the room after the network came back');
    const { states, first } = await reconnect(phone);
    t.deepEqual(first, ['connecting', 'network_back'], `the silent socket replaced because the network came back: ${JSON.stringify(states)}`);
    t.deepEqual(phone.problems, []);
  } finally {
    await phone.close();
  }
});
