/**
 * A member's own permissions in Chromium against the whole service
 * (docs/2026-11-26-member-permissions.md): three people in a room; the owner takes writing in
 * the chat from one member in the member list. That member's composer goes at once, the other
 * member still writes, and everyone who sees the list sees the badge. Back to the role, the
 * composer returns. Screenshots: test-artifacts/screenshots/member-permissions-*.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, openRoomPage, startWebBed, type Person, type WebBed } from './browser.js';
import type { Member } from '../../gateways/bed.js';

const STEP_MS = 20_000;

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_member_permissions');
});
test.after.always(async () => {
  await bed?.close();
});

const openRoom = (member: Member, roomId: string): Promise<Person> =>
  openRoomPage(bed, member, roomId, { until: { role: 'tab', name: 'Members' }, timeoutMs: STEP_MS });

const composer = (page: Page) => page.getByLabel('Message', { exact: true });

test('the owner takes writing in the chat from one member: their composer goes, the other writes on, and everyone sees the badge', async (t) => {
  const [alice, bob, carol] = await Promise.all([bed.signUp('alice'), bed.signUp('bob'), bed.signUp('carol')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Moderated' }, alice.token);
  const roomId = created.body.room.id;
  for (const member of [bob, carol]) t.is((await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token)).status, 200);

  const people = [await openRoom(alice, roomId), await openRoom(bob, roomId), await openRoom(carol, roomId)];
  const [a, b, c] = people.map((person) => person.page) as [Page, Page, Page];
  for (const page of [b, c]) await page.getByRole('tab', { name: 'Chat' }).click();
  await composer(b).waitFor({ timeout: STEP_MS });

  await a.getByRole('tab', { name: 'Members' }).click();
  const bobRow = a.locator('.member', { hasText: bob.username });
  await bobRow.locator('summary', { hasText: 'Permissions' }).click();
  await bobRow.getByLabel('Write in the chat').selectOption({ label: 'Not allowed' });
  // Allowed is offered only where the room accepts it: administration stays with admins.
  t.true(await bobRow.getByLabel('Change the room’s settings').locator('option[value="grant"]').isDisabled());
  await bobRow.getByRole('button', { name: `Save permissions of ${bob.username}` }).click();

  await b.getByText('You cannot send messages in this room.').waitFor({ timeout: STEP_MS });
  t.is(await composer(b).count(), 0);
  await composer(c).fill('still talking');
  await c.getByRole('button', { name: 'Send' }).click();
  await b.getByRole('list', { name: 'Messages' }).getByText('still talking').waitFor({ timeout: STEP_MS });

  await c.getByRole('tab', { name: 'Members' }).click();
  const badge = c.locator('.member', { hasText: bob.username }).locator('.badge-own-permissions');
  await badge.waitFor({ timeout: STEP_MS });
  t.regex((await badge.getAttribute('title')) ?? '', /− Write in the chat/);
  t.deepEqual(await checkAtBothWidths(a, 'member-permissions-owner'), []);

  await bobRow.getByRole('button', { name: 'Back to the role' }).click();
  await composer(b).waitFor({ timeout: STEP_MS });
  await badge.waitFor({ state: 'detached', timeout: STEP_MS });
  t.deepEqual(people.flatMap((person) => person.problems), []);
});
