/**
 * Custom room emotes in Chromium against the whole service (docs/2026-11-26-room-emotes.md):
 * the owner uploads an emote in the room settings; a member picks it from the composer's
 * picker and sends it; both see the picture in the chat, and an unknown :name: stays text.
 * Screenshots: test-artifacts/screenshots/emotes-*.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { checkAtBothWidths, openRoomPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import type { Member } from '../../gateways/bed.js';

const STEP_MS = 20_000;

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_emotes');
});
test.after.always(async () => {
  await bed?.close();
});

const openRoom = (member: Member, roomId: string): Promise<Person> =>
  openRoomPage(bed, member, roomId, { until: { role: 'tab', name: 'Chat' }, timeoutMs: STEP_MS });

/** Whether a chat message shows a loaded picture with that alt text. */
const pictureInChat = (alt: string) =>
  `[...document.querySelectorAll('.chat-message img.emote')].some((img) => img.alt === ${JSON.stringify(alt)} && img.complete && img.naturalWidth > 0)`;

test('an emote uploaded in the settings is picked from the composer by a member, and both see the picture in the chat', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Emotes' }, alice.token);
  const roomId = created.body.room.id;
  t.is((await bed.call('POST', `/api/rooms/${roomId}/join`, {}, bob.token)).status, 200);
  const people = [await openRoom(alice, roomId), await openRoom(bob, roomId)];
  const [a, b] = people.map((person) => person.page) as [Page, Page];
  const picker = (page: Page) => page.locator('.emote-picker summary');
  t.is(await picker(b).count(), 0, 'no picker while the room has none');

  await a.getByRole('tab', { name: 'Settings' }).click();
  await a.getByLabel('Emote name').fill('wave');
  const picture = await sharp({ create: { width: 200, height: 200, channels: 4, background: '#2a8' } })
    .png()
    .toBuffer();
  await a.getByLabel('Picture', { exact: true }).setInputFiles({ name: 'wave.png', mimeType: 'image/png', buffer: picture });
  await a.getByRole('button', { name: 'Upload the emote' }).click();
  await a.getByRole('status').filter({ hasText: ':wave: saved.' }).waitFor({ timeout: STEP_MS });
  await a.getByRole('list', { name: "This room's emotes" }).getByRole('button', { name: 'Remove :wave:' }).waitFor();
  t.deepEqual(await checkAtBothWidths(a, 'emotes-settings'), []);

  // Bob's page learns of it when a message names it, or when it reads the list: here the owner's message.
  await a.getByRole('tab', { name: 'Chat' }).click();
  await a.getByLabel('Message', { exact: true }).fill('hello :wave: and :nosuch:');
  await a.getByRole('button', { name: 'Send' }).click();
  await b.getByRole('tab', { name: 'Chat' }).click();
  await waitForPage(b, pictureInChat(':wave:'));
  t.truthy(await b.getByRole('list', { name: 'Messages' }).getByText(':nosuch:').count(), 'an unknown name stays text');

  await picker(b).click();
  await b.getByRole('button', { name: 'Insert :wave:' }).click();
  t.regex(await b.getByLabel('Message', { exact: true }).inputValue(), /:wave: $/);
  await b.getByRole('button', { name: 'Send' }).click();
  await waitForPage(a, `document.querySelectorAll('.chat-message img.emote[alt=":wave:"]').length === 2`);
  t.deepEqual(await checkAtBothWidths(b, 'emotes-chat'), []);
  t.deepEqual(people.flatMap((person) => person.problems), []);
});
