/**
 * The room's player on other screens, in Chromium against the whole service
 * (docs/2026-11-29-pip-lock-screen-cast.md): picture-in-picture keeping a page in step while the
 * page is hidden (as Chromium hides one: see HIDER), and with the chat (Document picture-in-picture); the lock screen's and a
 * headset's actions (the Media Session handlers the page registered, called as the browser
 * calls them) turning into room commands, and refused in words without the playback permission;
 * the title and position the lock screen shows; the wake lock while playing; casting offered
 * only where the browser sees a device (headless Chromium sees none; the connected state is
 * covered with a stand-in in test/web/player/remote-playback.test.ts).
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, openRoomPage, startWebBed, waitForPage, FULLSCREEN, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';
import { seekFromControls, settled, SETTLE_MS, TOLERANCE_S } from './in-sync.js';
import type { Member } from '../../gateways/bed.js';

let bed: WebBed;
let media: MediaServer;
test.before(async () => {
  const video = await makeTestVideo();
  media = await serveMedia(video.dir);
  bed = await startWebBed('web_other_screens', { autoplay: true });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

/**
 * Written down in the page before its scripts run: the Media Session handlers it registers
 * (called below as the browser would call them), the position states it sets, and the wake
 * locks it is granted (the real ones: Chromium grants them to a visible page).
 */
const RECORDER = `(() => {
  const seen = { handlers: {}, positions: [], wakeLocks: [] };
  window.__screens = seen;
  const session = navigator.mediaSession;
  const setHandler = session.setActionHandler.bind(session);
  session.setActionHandler = (action, handler) => { seen.handlers[action] = handler; setHandler(action, handler); };
  const setPosition = session.setPositionState.bind(session);
  session.setPositionState = (state) => { seen.positions.push(state ?? null); setPosition(state); };
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => request(type).then((sentinel) => { seen.wakeLocks.push(sentinel); return sentinel; });
})()`;

/**
 * What hiding a page does to the player in Chromium, where a test cannot hide it: Playwright's
 * Chromium keeps background tabs drawn (its default --disable-renderer-backgrounding and
 * friends) and headless Chromium calls every page visible. A hidden page gets no video frame
 * callbacks (Chromium stops them in a background tab while the media clock runs on:
 * WICG/video-rvfc#92) and its intervals run at most once a second (a page whose media plays
 * silence is not exempt); it reads hidden and hears visibilitychange. `window.__hide(true)`
 * does that to the page, `__hide(false)` undoes it.
 */
const HIDER = `(() => {
  let hidden = false;
  const held = [];
  const request = HTMLVideoElement.prototype.requestVideoFrameCallback;
  HTMLVideoElement.prototype.requestVideoFrameCallback = function (callback) {
    return request.call(this, (now, meta) => { if (hidden) held.push([this, callback]); else callback(now, meta); });
  };
  const every = window.setInterval;
  window.setInterval = (fn, ms, ...args) => {
    let last = 0;
    return every(() => {
      if (hidden) { const now = performance.now(); if (now - last < 1000) return; last = now; }
      fn(...args);
    }, ms);
  };
  Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(document, 'hidden', { get: () => hidden });
  window.__hide = (on) => {
    hidden = on;
    document.dispatchEvent(new Event('visibilitychange'));
    if (!on) for (const [video, callback] of held.splice(0)) request.call(video, callback);
  };
})()`;

/** A room owned by `owner` with `others` as members and two items, the first current (paused at 0). */
async function roomWithVideos(owner: Member, others: Member[]): Promise<{ roomId: string; second: string }> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Sofa' }, owner.token);
  const roomId = created.body.room.id;
  for (const member of others) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const first = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Test clock', url: media.url('clock.webm') }, owner.token);
  const second = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Second clock', url: media.url('clock.webm?second') }, owner.token);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: first.body.item.id }, owner.token);
  return { roomId, second: second.body.item.id };
}

/** The room's page of `member`, drawn with the player, `scripts` run in it before its own. */
async function open(member: Member, roomId: string, scripts: string[] = []): Promise<Person> {
  const person = await openRoomPage(bed, member, roomId, { allowHosts: [media.host] });
  if (scripts.length > 0) {
    for (const script of scripts) await person.page.addInitScript(script);
    await person.page.reload();
  }
  await person.page.getByRole(FULLSCREEN.role, { name: FULLSCREEN.name }).waitFor({ timeout: SETTLE_MS });
  return person;
}

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: SETTLE_MS });
const playing = (page: Page) => waitForPage(page, `!document.querySelector('video').paused`, SETTLE_MS);
const paused = (page: Page) => waitForPage(page, `document.querySelector('video').paused`, SETTLE_MS);
/** Calls the page's Media Session handler for `action` as the browser does. */
const press = (page: Page, action: string, details: Record<string, unknown> = {}) =>
  page.evaluate(`window.__screens.handlers[${JSON.stringify(action)}]({ action: ${JSON.stringify(action)}, ...${JSON.stringify(details)} })`);
/** The room's playback as the server has it. */
const playbackOf = async (roomId: string, member: Member) =>
  (await bed.call<{ playback: { playing: boolean; version: number } }>('GET', `/api/rooms/${roomId}`, undefined, member.token)).body.playback;

test.serial('picture-in-picture: the video follows the room while its page is hidden; with the chat, the video moves to the window and back', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const { roomId } = await roomWithVideos(alice, [bob]);
  const a = await open(alice, roomId);
  const b = await open(bob, roomId, [HIDER]);
  await status(b.page, 'Paused');
  // Casting is offered only where the browser sees a device: headless Chromium sees none.
  t.is(await b.page.getByRole('button', { name: 'Play on another screen' }).count(), 0);
  t.deepEqual(await checkAtBothWidths(b.page, 'room-player-screens'), []);

  await b.page.getByRole('button', { name: 'Picture-in-picture', exact: true }).click();
  await waitForPage(b.page, `document.pictureInPictureElement === document.querySelector('video')`);
  await b.page.getByRole('button', { name: 'Exit picture-in-picture' }).waitFor({ timeout: SETTLE_MS });

  // Bob switches to another app: his page is hidden, the picture-in-picture window plays on.
  await b.page.evaluate('window.__hide(true)');
  await a.page.getByRole('button', { name: 'Play', exact: true }).click();
  await playing(b.page);
  t.true((await settled([a.page, b.page], 1)) <= TOLERANCE_S, 'in step after play, in picture-in-picture');
  await seekFromControls(a.page, 30);
  t.true((await settled([a.page, b.page], 30)) <= TOLERANCE_S, 'in step after a seek by another member');
  t.true(await b.page.evaluate<boolean>(`document.pictureInPictureElement === document.querySelector('video') && document.hidden`));
  await b.page.evaluate('window.__hide(false)');

  await b.page.getByRole('button', { name: 'Exit picture-in-picture' }).click();
  await waitForPage(b.page, `document.pictureInPictureElement === null`);

  // With the chat: the element itself moves to the window, under it the room's chat.
  await b.page.getByRole('button', { name: 'Picture-in-picture with chat' }).click();
  const inWindow = `documentPictureInPicture.window?.document.querySelector('.pip-window-video video')`;
  await waitForPage(b.page, `!!${inWindow} && !!documentPictureInPicture.window.document.querySelector('.pip-window-chat #chat-input')`);
  await b.page.getByText('Playing in the picture-in-picture window').waitFor({ timeout: SETTLE_MS });
  await a.page.getByRole('button', { name: 'Pause', exact: true }).click();
  await waitForPage(b.page, `${inWindow}.paused`, SETTLE_MS);
  await b.page.getByRole('button', { name: 'Close picture-in-picture with chat' }).click();
  await waitForPage(b.page, `!!document.querySelector('.player-frame video') && !documentPictureInPicture.window`);
  t.true((await settled([a.page, b.page], 30)) <= TOLERANCE_S, 'paused on the same frame, the video back in the page');
  t.deepEqual([...a.problems, ...b.problems], []);
});

test.serial("the lock screen's actions steer the room: play, seek, pause, next; title and position follow; the screen stays on while playing", async (t) => {
  const [carol, dave] = await Promise.all([bed.signUp('carol'), bed.signUp('dave')]);
  const { roomId } = await roomWithVideos(carol, [dave]);
  const c = await open(carol, roomId, [RECORDER]);
  const d = await open(dave, roomId);
  await status(d.page, 'Paused');
  await waitForPage(c.page, `navigator.mediaSession.metadata?.title === 'Test clock'`);
  t.deepEqual(
    await c.page.evaluate(`(() => { const m = navigator.mediaSession.metadata; return [m.artist, m.artwork.map((a) => new URL(a.src).pathname), navigator.mediaSession.playbackState]; })()`),
    ['Sofa', ['/favicon.svg'], 'paused'],
  );
  t.deepEqual(
    await c.page.evaluate<string[]>(`Object.entries(window.__screens.handlers).filter(([, h]) => h).map(([a]) => a).sort()`),
    ['nexttrack', 'pause', 'play', 'previoustrack', 'seekbackward', 'seekforward', 'seekto'],
  );

  await press(c.page, 'play');
  await status(d.page, 'Playing');
  await playing(d.page);
  t.true((await settled([c.page, d.page], 1)) <= TOLERANCE_S, 'in step after play from the lock screen');
  await waitForPage(c.page, `navigator.mediaSession.playbackState === 'playing' && window.__screens.wakeLocks.some((lock) => !lock.released)`);

  await press(c.page, 'seekto', { seekTime: 40 });
  t.true((await settled([c.page, d.page], 40)) <= TOLERANCE_S, 'in step after seekto');
  // The lock screen's position is the room's: set when the room moved, at its rate, against the item's length.
  await waitForPage(c.page, `(() => { const p = window.__screens.positions.at(-1); return !!p && Math.abs(p.duration - 60) < 0.5 && p.playbackRate === 1 && p.position >= 39 && p.position <= 41; })()`);

  await press(c.page, 'pause');
  await status(d.page, `Paused by ${carol.username}`);
  await paused(d.page);
  await waitForPage(c.page, `navigator.mediaSession.playbackState === 'paused' && window.__screens.wakeLocks.length > 0 && window.__screens.wakeLocks.every((lock) => lock.released)`);

  await press(c.page, 'nexttrack');
  await d.page.getByRole('status').filter({ hasText: 'Second clock' }).waitFor({ timeout: SETTLE_MS });
  await waitForPage(c.page, `navigator.mediaSession.metadata?.title === 'Second clock'`);
  t.deepEqual([...c.problems, ...d.problems], []);
});

test.serial('a member without the playback permission: the lock screen refuses in words and the room does not move', async (t) => {
  const [erin, frank] = await Promise.all([bed.signUp('erin'), bed.signUp('frank')]);
  const { roomId } = await roomWithVideos(erin, [frank]);
  const denied = await bed.call('PUT', `/api/rooms/${roomId}/members/${frank.userId}/permissions`, { grant: [], deny: ['control_playback'] }, erin.token);
  t.is(denied.status, 200);
  const f = await open(frank, roomId, [RECORDER]);
  await status(f.page, 'Paused');
  const before = await playbackOf(roomId, erin);

  // Play and pause have handlers that refuse (without one Chromium would pause the element itself); the rest have none.
  t.deepEqual(
    await f.page.evaluate<string[]>(`Object.entries(window.__screens.handlers).filter(([, h]) => h).map(([a]) => a).sort()`),
    ['pause', 'play'],
  );
  await press(f.page, 'play');
  await f.page.getByRole('alert').filter({ hasText: 'You may not play or pause in this room' }).waitFor({ timeout: SETTLE_MS });
  const after = await playbackOf(roomId, erin);
  t.false(after.playing);
  t.is(after.version, before.version, 'the room did not move');
  t.true(await f.page.evaluate<boolean>(`document.querySelector('video').paused`));
  t.deepEqual(f.problems, []);
});

/**
 * A Cast device where Chromium has none: the element's `remote` replaced by a stand-in that
 * offers one device, and connects when its picker is opened (it writes down where the element
 * was then). The API's own behaviour is covered in test/web/player/remote-playback.test.ts;
 * this checks the page: the button, the room's position before the picker, the words.
 */
const CAST_DEVICE = `(() => {
  const remotes = new WeakMap();
  Object.defineProperty(HTMLMediaElement.prototype, 'remote', { configurable: true, get() {
    let remote = remotes.get(this);
    if (remote) return remote;
    const element = this;
    remote = Object.assign(new EventTarget(), {
      state: 'disconnected',
      promptedAt: [],
      watchAvailability(callback) { setTimeout(() => callback(true), 0); return Promise.resolve(1); },
      cancelWatchAvailability() { return Promise.resolve(); },
      prompt() {
        remote.promptedAt.push(element.currentTime);
        remote.state = 'connecting';
        remote.dispatchEvent(new Event('connecting'));
        setTimeout(() => { remote.state = 'connected'; remote.dispatchEvent(new Event('connect')); }, 0);
        return Promise.resolve();
      },
      disconnect() { remote.state = 'disconnected'; remote.dispatchEvent(new Event('disconnect')); },
    });
    remotes.set(this, remote);
    window.__remote = remote;
    return remote;
  } });
})()`;

test.serial("casting where a device is offered: it starts at the room's position, and the page says the picture is on the other screen", async (t) => {
  const [gina, hank] = await Promise.all([bed.signUp('gina'), bed.signUp('hank')]);
  const { roomId } = await roomWithVideos(gina, [hank]);
  const g = await open(gina, roomId);
  const h = await open(hank, roomId, [CAST_DEVICE]);
  await g.page.getByRole('button', { name: 'Play', exact: true }).click();
  await seekFromControls(g.page, 20);
  t.true((await settled([g.page, h.page], 20)) <= TOLERANCE_S);

  await h.page.getByRole('button', { name: 'Play on another screen' }).click();
  await h.page.getByText('Playing on another screen', { exact: true }).waitFor({ timeout: SETTLE_MS });
  const [promptedAt] = await h.page.evaluate<number[]>('window.__remote.promptedAt');
  const roomNow = await g.page.evaluate<number>(`document.querySelector('video').currentTime`);
  t.true(promptedAt !== undefined && Math.abs(roomNow - promptedAt) < 1, `the picker opened at ${promptedAt} s, the room is at ${roomNow} s`);
  t.is(await h.page.getByRole('button', { name: 'Playing on another screen: choose or stop' }).getAttribute('aria-pressed'), 'true');
  t.deepEqual(await checkAtBothWidths(h.page, 'room-player-casting'), []);

  await h.page.evaluate('window.__remote.disconnect()');
  await h.page.getByText('Playing on another screen', { exact: true }).waitFor({ state: 'detached', timeout: SETTLE_MS });
  t.deepEqual([...g.problems, ...h.problems], []);
});
