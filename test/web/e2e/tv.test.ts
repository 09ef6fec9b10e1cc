/**
 * The TV layout (docs/2026-11-29-tv-layout.md) in Chromium at 1920x1080 opened with `?tv`, driven
 * with `page.keyboard` alone, as a remote would: the test looks where the wanted control is and
 * presses the arrow that points at it, as a person looking at the screen does, then Enter. After
 * every key the focused element must be shown, inside the screen and ringed (its computed outline
 * or box-shadow). A guest ceiling keeps guests from steering (docs/2026-11-26-guests-watch.md),
 * so the party is driven by a signed-in member the owner gave `set_current_media`; the guest's
 * own way in (a name, then the room's password) has its own test.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import type { Member } from '../../gateways/bed.js';
import { accessibilityProblems, screenshot, signInPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';

const STEP_MS = 20_000;
const TV = { width: 1920, height: 1080 };
const PASSWORD = 'popcorn 24';
/** The most arrow presses a step may take before the test calls the way there broken. */
const MAX_PRESSES = 16;

let bed: WebBed;
let media: MediaServer;
test.before(async () => {
  const video = await makeTestVideo({ size: '320x180' });
  media = await serveMedia(video.dir);
  bed = await startWebBed('web_tv', { autoplay: true });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

interface PartyRoom {
  roomId: string;
  first: string;
  second: string;
}

async function partyRoom(owner: Member): Promise<PartyRoom> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Sofa night', password: PASSWORD }, owner.token);
  const roomId = created.body.room.id;
  const add = async (title: string) => (await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title, url: media.url('clock.webm') }, owner.token)).body.item.id;
  const first = await add('First clock');
  const second = await add('Second clock');
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: first }, owner.token);
  return { roomId, first, second };
}

async function tvPerson(): Promise<Person> {
  const person = await bed.person({ allowHosts: [media.host] });
  await person.page.setViewportSize(TV);
  person.page.setDefaultTimeout(STEP_MS);
  return person;
}

/** Empty when the focused element is fine: shown, wholly inside the screen, with a ring; else what is wrong. */
const FOCUS_PROBLEM = `(() => {
  const element = document.activeElement;
  if (!element || element === document.body) return 'nothing has the focus';
  const name = element.tagName.toLowerCase() + ' ' + (element.getAttribute('aria-label') || element.id || element.textContent.trim().slice(0, 30));
  const box = element.getBoundingClientRect();
  if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || box.width < 2 || box.height < 2) return name + ' is not shown';
  if (box.top < -1 || box.left < -1 || box.bottom > innerHeight + 1 || box.right > innerWidth + 1) return name + ' is outside the screen';
  const style = getComputedStyle(element);
  const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none';
  return ring ? '' : name + ' has no focus ring';
})()`;

async function focusProblem(page: Page): Promise<string> {
  return page.evaluate<string>(FOCUS_PROBLEM);
}

/** Presses `key` and checks the focus it leaves (given a moment: a fading control's opacity, a re-render). */
async function press(page: Page, key: string): Promise<void> {
  await page.keyboard.press(key);
  await waitForPage(page, `${FOCUS_PROBLEM} === ''`, 2_000).catch(async () => {
    throw new Error(`after ${key}: ${await focusProblem(page)}`);
  });
}

/**
 * Arrow keys toward `target` (an in-page expression for the element) until it has the focus,
 * as a person looking at the screen presses them: the arrow that points at it, along the first
 * axis of `order` on which the focus is not yet level with it; back on a control already passed
 * (that way loops), the other axis first.
 */
async function steer(page: Page, target: string, order: 'xy' | 'yx'): Promise<void> {
  const path: string[] = [];
  await page.evaluate(`window.steerSeen = new Set()`);
  for (let presses = 0; presses <= MAX_PRESSES; presses++) {
    const next = await page.evaluate<string>(`(() => {
      const target = ${target};
      const focused = document.activeElement;
      if (!target) return 'missing';
      if (focused === target) return 'there';
      const again = window.steerSeen.has(focused);
      window.steerSeen.add(focused);
      const a = focused.getBoundingClientRect(), b = target.getBoundingClientRect();
      const keys = { x: a.right > b.left && a.left < b.right ? null : b.left >= a.right ? 'ArrowRight' : 'ArrowLeft',
                     y: a.bottom > b.top && a.top < b.bottom ? null : b.top >= a.bottom ? 'ArrowDown' : 'ArrowUp' };
      const axes = again ? ${JSON.stringify([...order].reverse().join(''))} : ${JSON.stringify(order)};
      const along = axes.split('').map((axis) => keys[axis]).find((key) => key);
      // Level with it on both axes but not on it (it is inside the focused box, or overlaps it): step in.
      return along || (b.top > a.top + 4 ? 'ArrowDown' : b.left > a.left + 4 ? 'ArrowRight' : b.top < a.top - 4 ? 'ArrowUp' : 'ArrowLeft');
    })()`);
    if (next === 'there') return;
    if (next === 'missing') throw new Error(`${target} is not on the page`);
    path.push(next);
    await press(page, next);
  }
  const at = await page.evaluate<string>(`document.activeElement.outerHTML.slice(0, 120)`);
  await screenshot(page, 'tv-lost');
  throw new Error(`${target} not reached by ${path.join(' ')}; the focus is on ${at}`);
}

/** An element with `text` in the chat log, shown within the log's box and the screen. */
const messageShown = (text: string) => `(() => {
  const log = document.querySelector('#panel-chat .chat-log');
  const message = [...(log?.querySelectorAll('.chat-message') ?? [])].find((item) => item.textContent.includes(${JSON.stringify(text)}));
  if (!message || !message.checkVisibility()) return false;
  const m = message.getBoundingClientRect(), l = log.getBoundingClientRect();
  return m.top >= l.top - 1 && m.bottom <= l.bottom + 1 && m.top >= 0 && m.bottom <= innerHeight;
})()`;

test.serial('a whole party from the sofa with the keyboard alone: join with the password, play, the next item from the playlist, read the chat, Back', async (t) => {
  const [owner, viewer] = await Promise.all([bed.signUp('host'), bed.signUp('sofa')]);
  const room = await partyRoom(owner);
  const host = await bed.person({ allowHosts: [media.host] });
  host.page.setDefaultTimeout(STEP_MS);
  await signInPage(host.page, owner.username);
  await host.page.goto(`/rooms/${room.roomId}`);
  await host.page.getByRole('button', { name: 'Play', exact: true }).waitFor();

  // The TV remembers its account (signed in once, as a TV app is), and opens the room's link.
  const tv = await tvPerson();
  const page = tv.page;
  await signInPage(page, viewer.username);
  await page.goto(`/rooms/${room.roomId}?tv`);
  await page.getByLabel('Room password').waitFor();
  t.true(await page.evaluate<boolean>(`document.documentElement.hasAttribute('data-tv')`), 'the TV layout is on');
  await steer(page, `document.querySelector('input[type=password]')`, 'yx');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.locator('.player-controls').waitFor();
  await bed.call('PUT', `/api/rooms/${room.roomId}/members/${viewer.userId}/permissions`, { grant: ['set_current_media'], deny: [] }, owner.token);
  await page.getByRole('button', { name: 'Next', exact: true }).waitFor();
  t.is(await focusProblem(page), '', 'the room opens with its heading focused, ringed');

  // Play, from the player's controls: the host's video plays.
  await steer(page, `document.querySelector('.player-controls .player-toggle')`, 'yx');
  await press(page, 'Enter');
  await waitForPage(host.page, `(() => { const v = document.querySelector('video'); return !v.paused && v.currentTime > 0.2; })()`, STEP_MS);
  await waitForPage(page, `!document.querySelector('video').paused`, STEP_MS);

  // The playlist's tab, then the next item's Play: the host's page follows.
  await steer(page, `document.getElementById('tab-playlist')`, 'xy');
  t.is(await page.getAttribute('#tab-playlist', 'aria-selected'), 'true', 'the arrow onto the tab opened its panel');
  await steer(page, `document.querySelector('[data-media-id="${room.second}"] .playlist-actions button')`, 'yx');
  await press(page, 'Enter');
  await host.page.locator('.player-status').filter({ hasText: 'Second clock' }).waitFor();
  // Its Play button went with the change: the focus moved to the control nearest it, never to nowhere.
  await waitForPage(page, `${FOCUS_PROBLEM} === ''`, 2_000);

  // The chat's tab; a message the host sends shows in the log, on screen, without a pointer.
  await steer(page, `document.getElementById('tab-chat')`, 'yx');
  t.is(await page.getAttribute('#tab-chat', 'aria-selected'), 'true');
  await bed.call('POST', `/api/rooms/${room.roomId}/chat`, { text: 'Popcorn is ready' }, owner.token);
  await waitForPage(page, messageShown('Popcorn is ready'), STEP_MS);
  await press(page, 'ArrowDown');
  t.true(await page.evaluate<boolean>(`document.activeElement.matches('.chat-log')`), 'down from the tab is the chat log');
  t.true(await page.evaluate<boolean>(messageShown('Popcorn is ready')));

  // Back leaves the panel for its tab; then theatre mode, turned on with Enter, is left with Back.
  await press(page, 'Escape');
  t.is(await page.evaluate<string>(`document.activeElement.id`), 'tab-chat');
  await steer(page, `document.querySelector('.player-theatre')`, 'xy');
  await press(page, 'Enter');
  await page.locator('.room-layout.is-theatre').waitFor();
  await press(page, 'Backspace');
  await page.locator('.room-layout.is-theatre').waitFor({ state: 'detached' });
  t.is(await page.evaluate<string>(`location.pathname`), `/rooms/${room.roomId}`, 'Back stepped out of theatre mode, not out of the room');

  t.deepEqual(await accessibilityProblems(page), []);
  t.deepEqual([...tv.problems, ...host.problems], []);
});

test.serial('a guest joins from the share link on a TV with the keyboard alone: a name, the room password, then the chat', async (t) => {
  const owner = await bed.signUp('host');
  const room = await partyRoom(owner);
  await bed.call('POST', `/api/rooms/${room.roomId}/chat`, { text: 'Grab a seat' }, owner.token);

  const tv = await tvPerson();
  const page = tv.page;
  await page.goto(`/rooms/${room.roomId}?tv`);
  await page.getByLabel('Your name (as a guest)').waitFor();
  await steer(page, `document.querySelector('input[autocomplete=nickname]')`, 'yx');
  await page.keyboard.type('Sofa');
  await page.keyboard.press('Enter');
  await page.getByLabel('Room password').waitFor();
  await steer(page, `document.querySelector('input[type=password]')`, 'yx');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');

  await page.locator('.player-controls').waitFor();
  t.true(await page.evaluate<boolean>(`document.documentElement.hasAttribute('data-tv')`), 'the TV layout stayed on through the sign-in and the join');
  await page.locator('#panel-chat .chat-log').waitFor();
  await steer(page, `document.querySelector('#panel-chat .chat-log')`, 'xy');
  await waitForPage(page, messageShown('Grab a seat'), STEP_MS);
  await press(page, 'Escape');
  t.is(await page.evaluate<string>(`document.activeElement.id`), 'tab-chat', 'Back leaves the chat for its tab');
  t.deepEqual(tv.problems, []);
});
