/**
 * Chat moderation in Chromium against the whole service, with two people in a room: the owner
 * turns on slow mode and a word filter in the room settings; the member's second quick message
 * is refused with the wait shown under the pace, and a filtered word reaches the owner starred
 * out. Checked with axe at both widths. Screenshots go to test-artifacts/screenshots/moderation-*.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Member } from '../../gateways/bed.js';
import { checkAtBothWidths, openRoomPage, startWebBed, type Person, type WebBed } from './browser.js';

const SETTLE_MS = 15_000;
let bed: WebBed;

test.before(async () => {
  bed = await startWebBed('web_moderation');
});
test.after.always(async () => {
  await bed?.close();
});

const openRoom = (member: Member, roomId: string): Promise<Person> =>
  openRoomPage(bed, member, roomId, { until: { role: 'tab', name: 'Chat' }, timeoutMs: SETTLE_MS });

test('slow mode refuses a quick second message with the wait shown; a filtered word is masked for the other person', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Moderated' }, alice.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, bob.token);
  const [a, b] = (await Promise.all([alice, bob].map((member) => openRoom(member, roomId)))) as [Person, Person];

  // Alice sets the pace and the list in the settings panel.
  await a.page.getByRole('tab', { name: 'Settings' }).click();
  await a.page.getByLabel('Slow mode').selectOption('60');
  await a.page.getByLabel('Filtered words').fill('heck\n笨蛋');
  await a.page.getByLabel('A message with a filtered word').selectOption('mask');
  t.deepEqual(await checkAtBothWidths(a.page, 'moderation-settings'), []);
  await a.page.getByRole('button', { name: 'Save settings' }).click();
  await a.page.getByText('Settings saved.').waitFor({ timeout: SETTLE_MS });

  // Bob sees the pace by the composer; his first message goes, starred where it must be.
  await b.page.getByRole('tab', { name: 'Chat' }).click();
  await b.page.getByText('Slow mode: one message every 60 s.').waitFor({ timeout: SETTLE_MS });
  const tag = randomUUID().slice(0, 6);
  await b.page.getByLabel('Message', { exact: true }).fill(`what the heck ${tag}, 你这个笨蛋`);
  await b.page.getByRole('button', { name: 'Send' }).click();
  await a.page.getByRole('tab', { name: 'Chat' }).click();
  await a.page.getByRole('list', { name: 'Messages' }).getByText(`what the **** ${tag}, 你这个＊＊`).waitFor({ timeout: SETTLE_MS });
  t.is(await a.page.getByRole('list', { name: 'Messages' }).getByText('heck').count(), 0);

  // His second, at once, is refused: the notice says why and the countdown runs.
  await b.page.getByLabel('Message', { exact: true }).fill(`second ${tag}`);
  await b.page.getByRole('button', { name: 'Send' }).click();
  await b.page.getByText(/slow mode: one message every 60 s in this room/i).waitFor({ timeout: SETTLE_MS });
  // Titled by what refused it (the room's slow mode), not as the service's rate limit.
  await b.page.getByRole('alert').getByText('Slow mode is on', { exact: true }).waitFor({ timeout: SETTLE_MS });
  t.is(await b.page.getByRole('alert').getByText('Too many attempts').count(), 0);
  const wait = b.page.locator('.slow-mode-wait');
  await wait.waitFor({ timeout: SETTLE_MS });
  t.regex((await wait.textContent()) ?? '', /You can send again in \d+ s\./);
  t.is(await a.page.getByRole('list', { name: 'Messages' }).getByText(`second ${tag}`).count(), 0, 'the refused message reached nobody');
  t.deepEqual(await checkAtBothWidths(b.page, 'moderation-slow-mode'), []);
  t.deepEqual([...a.problems, ...b.problems], []);
});
