/**
 * Reactions and danmaku in Chromium against the whole service, with two or three people in a
 * room: a reaction on a chat message shows as a chip with its count and who on the others'
 * pages, and taking it back removes it there; a reaction sent from the player's menu floats over
 * the video on every page; a danmaku comment scrolls over the others' players at once and, for a
 * viewer who comes later, when their playback reaches its media time. Checked with axe at both
 * widths. Screenshots go to test-artifacts/screenshots/reactions-* and danmaku-*.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Member } from '../../gateways/bed.js';
import { withDeadline } from '../../fixtures/deadline.js';
import { checkAtBothWidths, evaluateQuietly, FULLSCREEN, openRoomPage, screenshot, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';

const SETTLE_MS = 15_000;
let bed: WebBed;
let media: MediaServer;

test.before(async () => {
  const video = await makeTestVideo({ seconds: 20 });
  media = await serveMedia(video.dir);
  bed = await startWebBed('web_reactions', { autoplay: true });
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

/** A room of `owner` with `others` joined and the test video current (paused at 0). */
async function roomWith(owner: Member, others: Member[], settings: Record<string, unknown> = {}): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Reactions', ...settings }, owner.token);
  const roomId = created.body.room.id;
  for (const member of others) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Test clock', url: media.url('clock.webm') }, owner.token);
  if (added.status !== 201) throw new Error(`add: ${added.status} ${JSON.stringify(added.body)}`);
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: added.body.item.id }, owner.token);
  return roomId;
}

const openRoom = (member: Member, roomId: string): Promise<Person> =>
  openRoomPage(bed, member, roomId, { allowHosts: [media.host], until: FULLSCREEN, tab: 'Chat', timeoutMs: SETTLE_MS });

test('a reaction on a message and a burst over the video are seen by the others', async (t) => {
  const [alice, bob, carol] = await Promise.all([bed.signUp('alice'), bed.signUp('bob'), bed.signUp('carol')]);
  const roomId = await roomWith(alice, [bob, carol]);
  const people = await Promise.all([alice, bob, carol].map((member) => openRoom(member, roomId)));
  const [a, b, c] = people as [Person, Person, Person];

  const text = `what a scene ${randomUUID().slice(0, 6)}`;
  await a.page.getByLabel('Message', { exact: true }).fill(text);
  await a.page.getByRole('button', { name: 'Send' }).click();
  for (const person of [b, c]) await person.page.getByRole('list', { name: 'Messages' }).getByText(text).waitFor();

  // Bob and Carol laugh at it: everyone sees one chip, counted 2, naming them.
  for (const person of [b, c]) {
    await person.page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text }).locator('summary[aria-label^="React to the message from"]').click();
    await person.page.getByRole('group', { name: 'Reactions', exact: true }).getByRole('button', { name: 'Laugh' }).click();
  }
  for (const person of people) {
    const chip = person.page.locator('.reaction-chip[data-reaction="laugh"]');
    await chip.filter({ hasText: '2' }).waitFor({ timeout: SETTLE_MS });
    t.regex((await chip.getAttribute('title')) ?? '', new RegExp(`Laugh by .*(${bob.username}|you).*(${carol.username}|you)`));
  }
  t.is(await b.page.locator('.reaction-chip[data-reaction="laugh"]').getAttribute('aria-pressed'), 'true', "Bob's own is pressed");
  t.is(await a.page.locator('.reaction-chip[data-reaction="laugh"]').getAttribute('aria-pressed'), 'false');

  // Bob takes his back by pressing the chip.
  await b.page.locator('.reaction-chip[data-reaction="laugh"]').click();
  for (const person of people) await person.page.locator('.reaction-chip[data-reaction="laugh"]').filter({ hasText: '1' }).waitFor({ timeout: SETTLE_MS });

  // Carol sends a reaction over the video: it floats on all three players.
  await c.page.locator('summary[aria-label="Send a reaction"]').click();
  await c.page.getByRole('group', { name: 'Reactions over the video' }).getByRole('button', { name: 'Fire' }).click();
  for (const person of people) await person.page.locator('.reaction-burst .reaction-float[data-reaction="fire"]').first().waitFor({ timeout: SETTLE_MS });
  // The overlay takes no clicks from the controls beneath it.
  t.is(await evaluateQuietly(a.page, "getComputedStyle(document.querySelector('.reaction-burst')).pointerEvents"), 'none');

  // Open menus and a floating reaction at 360 px and at desktop width.
  await b.page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text }).locator('summary[aria-label^="React to the message from"]').click();
  t.deepEqual(await checkAtBothWidths(b.page, 'reactions-chat'), []);
  t.deepEqual([...a.problems, ...b.problems, ...c.problems], []);
});

async function playback(roomId: string, owner: Member, action: 'play' | 'pause' | 'seek', body: Record<string, unknown> = {}): Promise<void> {
  const answer = await bed.call('POST', `/api/rooms/${roomId}/playback/${action}`, body, owner.token);
  if (answer.status !== 200) throw new Error(`${action}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

test('a danmaku comment is seen live, and by a later viewer when playback reaches its media time', async (t) => {
  const [alice, bob, carol] = await Promise.all([bed.signUp('alice'), bed.signUp('bob'), bed.signUp('carol')]);
  const roomId = await roomWith(alice, [bob, carol], { danmaku: true });
  const [a, b] = (await Promise.all([alice, bob].map((member) => openRoom(member, roomId)))) as [Person, Person];
  await playback(roomId, alice, 'play');
  await waitForPage(b.page, "document.querySelector('video').currentTime > 2", SETTLE_MS);

  const text = `look at that ${randomUUID().slice(0, 6)}`;
  await b.page.getByLabel('Danmaku comment').fill(text);
  await b.page.getByRole('button', { name: 'Send comment' }).click();
  const live = a.page.locator('.danmaku-layer .danmaku-comment', { hasText: text });
  await live.waitFor({ timeout: SETTLE_MS });
  await screenshot(a.page, 'danmaku-live');
  const position = Number(await live.getAttribute('data-position'));
  t.true(position > 1.5, `pinned at ${position} s, where Bob's player was`);

  // Carol comes later; the room goes back to a few seconds before the comment.
  const c = await openRoom(carol, roomId);
  const from = Math.max(0, position - 3);
  await playback(roomId, alice, 'seek', { position: from });
  await waitForPage(c.page, `(() => { const v = document.querySelector('video'); return v.currentTime >= ${from} && v.currentTime < ${position} - 0.5; })()`, SETTLE_MS);
  // The media time is read in the page as the comment is drawn: read afterwards from here, it
  // would include the round trips of a busy machine.
  const watch = `(() => {
    const layer = document.querySelector('.danmaku-layer');
    const shown = () => [...layer.querySelectorAll('.danmaku-comment')].some((el) => el.textContent.includes(${JSON.stringify(text)}));
    if (shown()) return false;
    window.svcTestShownAt = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (!shown()) return;
        observer.disconnect();
        resolve(document.querySelector('video').currentTime);
      });
      observer.observe(layer, { childList: true, subtree: true });
    });
    return true;
  })()`;
  t.true(await evaluateQuietly(c.page, watch), 'not shown before its time');
  const shownAt = (await withDeadline(evaluateQuietly(c.page, 'window.svcTestShownAt'), SETTLE_MS, 'the comment shown to Carol')) as number;
  await screenshot(c.page, 'danmaku-later');
  t.true(shownAt >= position - 0.1 && shownAt < position + 1.5, `shown at ${shownAt} s for a comment at ${position} s`);

  // Per viewer: Carol hides danmaku on this device; the layer takes no clicks.
  await c.page.getByText('Danmaku settings').click();
  await c.page.getByLabel('Show danmaku').uncheck();
  t.is(await evaluateQuietly(c.page, "getComputedStyle(document.querySelector('.danmaku-layer')).visibility"), 'hidden');
  t.is(await evaluateQuietly(c.page, "JSON.parse(localStorage.getItem('svc.danmaku')).show"), false);
  t.is(await evaluateQuietly(a.page, "getComputedStyle(document.querySelector('.danmaku-layer')).pointerEvents"), 'none');
  t.deepEqual(await checkAtBothWidths(c.page, 'danmaku-settings'), []);
  t.deepEqual([...a.problems, ...b.problems, ...c.problems], []);
});
