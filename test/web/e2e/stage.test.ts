/**
 * The stage in Chromium against the whole service and the run's LiveKit node
 * (docs/2026-11-29-call-and-stage-client.md): a member shares their screen (Chromium's fake
 * capture, granted without a picker) and three pages show it in the video's place, playing, one
 * of them a member without use_webrtc (the stage is everyone's, the call is not); a second share is refused in the server's words; a moderator stops the share and the stage goes
 * on every page. A member without share_screen has no Share button, and the endpoint refuses
 * them when forced. Screenshots: test-artifacts/screenshots/room-stage-*.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, startWebBed, waitForPage, type WebBed } from './browser.js';
import { framesAdvance, openRoom, roomWith } from './call-helpers.js';

const STAGE_MS = 30_000;
let bed: WebBed;

test.before(async () => {
  bed = await startWebBed('web_stage', { fakeMedia: true, sfu: true });
});
test.after.always(async () => {
  await bed?.close();
});

const stageOf = (page: Page) => page.getByRole('region', { name: 'Stage' });
const shareButton = (page: Page) => page.getByRole('button', { name: 'Share your screen' });

test.serial('a share is seen playing by three pages (one without use_webrtc), a second one is refused in words, and a moderator stops it on every page', async (t) => {
  const [alice, bob, carol] = await Promise.all([bed.signUp('alice'), bed.signUp('bob'), bed.signUp('carol')]);
  const roomId = await roomWith(bed, 'Show and tell', alice, [bob, carol]);
  // Carol may not talk: the call is not hers, the stage is.
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/members/${carol.userId}/permissions`, { grant: [], deny: ['use_webrtc'] }, alice.token)).status, 200);
  const [a, b, c] = [await openRoom(bed, alice, roomId), await openRoom(bed, bob, roomId), await openRoom(bed, carol, roomId)];

  await shareButton(b.page).click();
  await stageOf(b.page).getByText('You are sharing your screen').waitFor({ timeout: STAGE_MS });
  for (const page of [a.page, c.page]) await stageOf(page).getByText(`${bob.username} is sharing their screen`).waitFor({ timeout: STAGE_MS });
  // The screen plays on every page, the sharer's own included: a picture, and frames that keep coming.
  for (const page of [a.page, b.page, c.page]) await framesAdvance(page, '.stage-video', STAGE_MS);
  // The stage took the video's place.
  t.false(await a.page.locator('.player').isVisible());
  // Alice and Carol watch; Bob, who shares, is not counted.
  await stageOf(a.page).getByText('2 watching').waitFor({ timeout: STAGE_MS });
  t.is(await c.page.getByRole('tab', { name: 'Voice' }).count(), 0, 'no call for Carol');

  // One share at a time: Carol's is refused, and the page says why in the server's words.
  await shareButton(c.page).click();
  const refusal = c.page.getByRole('alert');
  await refusal.waitFor({ timeout: STAGE_MS });
  t.regex(await refusal.innerText(), /\w+/);
  t.is(await stageOf(c.page).locator('figure').count(), 1);

  t.deepEqual(await checkAtBothWidths(a.page, 'room-stage'), []);

  // Alice (the owner: a moderator) stops Bob's share; the stage goes on every page and the video is back.
  const answers: string[] = [];
  a.page.on('response', (response) => {
    if (response.url().includes('/stage')) void response.text().then((body) => answers.push(`${response.request().method()} ${response.url()} ${response.status()} ${body}`));
  });
  await stageOf(a.page).getByRole('button', { name: `Stop ${bob.username}’s share` }).click();
  for (const [i, page] of [a.page, b.page, c.page].entries()) {
    await stageOf(page)
      .waitFor({ state: 'detached', timeout: STAGE_MS })
      .catch(async (error: unknown) => {
        const texts = await Promise.all([a.page, b.page, c.page].map((p) => p.evaluate(`[document.querySelector('.stage')?.innerText, [...document.querySelectorAll('[role=alert],[role=status]')].map((e) => e.innerText).join(' | ')]`)));
        throw new Error(`page ${i}: ${String(error)}\n${JSON.stringify(texts)}\n${answers.join('; ')}\n${[...a.problems, ...b.problems, ...c.problems].join('\n')}`);
      });
  }
  await a.page.locator('.player').waitFor({ state: 'visible' });
  await b.page.getByText(`${alice.username} stopped your share.`).waitFor();
  // Bob's capture ended with it: the browser no longer sends his screen.
  await waitForPage(b.page, `!document.querySelector('.stage-video')`, STAGE_MS);
  await shareButton(b.page).waitFor();
  t.deepEqual([...a.problems, ...b.problems, ...c.problems], []);
});

test.serial('a member without share_screen sees no Share button, and the endpoint refuses them', async (t) => {
  const [alice, dave] = await Promise.all([bed.signUp('alice'), bed.signUp('dave')]);
  const roomId = await roomWith(bed, 'No sharing', alice, [dave]);
  const denied = await bed.call('PUT', `/api/rooms/${roomId}/members/${dave.userId}/permissions`, { grant: [], deny: ['share_screen'] }, alice.token);
  t.is(denied.status, 200);
  const d = await openRoom(bed, dave, roomId);
  const a = await openRoom(bed, alice, roomId);
  // Alice, who may share, has the button once the page knows the room has an SFU; Dave never does.
  await shareButton(a.page).waitFor({ timeout: STAGE_MS });
  await d.page.getByRole('tab', { name: 'Voice' }).click();
  await d.page.getByRole('button', { name: 'Join call' }).waitFor({ timeout: STAGE_MS });
  t.is(await shareButton(d.page).count(), 0);
  const forced = await bed.call<{ code: string }>('POST', `/api/rooms/${roomId}/stage`, {}, dave.token);
  t.is(forced.status, 403);
  t.is(forced.body.code, 'forbidden');
  t.deepEqual([...a.problems, ...d.problems], []);
});
