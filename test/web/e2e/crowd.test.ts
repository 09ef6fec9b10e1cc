/**
 * A stadium room in Chromium (docs/2026-11-30-crowds.md): a room stored with 260 members is a
 * crowd, so its owner's members panel shows the headcount, names the hosts, and reads everyone
 * else a page at a time, by name or online only; its chat offers any member to mention, found by
 * name on the server. Checked with axe at both widths; screenshots go
 * to test-artifacts/screenshots/crowd-*.
 */
import test from 'ava';
import { DEFAULT_ROOM_OPTIONS, insertRoom } from '../../../actors/room/room-rows.js';
import { createPool } from '../../../postgres/pool.js';
import { uid } from '../../actors/room/fixtures.js';
import type { Member } from '../../gateways/bed.js';
import { checkAtBothWidths, openRoomPage, startWebBed, type WebBed } from './browser.js';

const SETTLE_MS = 15_000;
const FANS = 260;
let bed: WebBed;

test.before(async () => {
  bed = await startWebBed('web_crowd');
});
test.after.always(async () => {
  await bed?.close();
});

/** A room of `owner` stored with `fans` members (`Fan 00000`...) before anything opens it: joining them one by one would take minutes. */
async function stadium(owner: Member, fans: number): Promise<string> {
  const pool = createPool({ url: bed.databaseUrl, max: 1 });
  try {
    const roomId = uid('stadium');
    const now = Date.now();
    await insertRoom(
      pool,
      { id: roomId, name: 'Stadium', ownerId: owner.userId, passwordHash: null, visibility: 'public', status: 'active', options: DEFAULT_ROOM_OPTIONS, createdAt: now, updatedAt: now },
      { userId: owner.userId, name: owner.username, role: 'admin', status: 'active', guest: false, joinedAt: now },
      { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: now, version: 0, versionReserved: 1000 },
    );
    await pool.query(
      `INSERT INTO room_members (room_id, user_id, name, role, status, guest, joined_at)
       SELECT $1, 'fan-' || lpad(n::text, 5, '0'), 'Fan ' || lpad(n::text, 5, '0'), 'member', 'active', false, now() FROM generate_series(0, $2 - 1) AS n`,
      [roomId, fans],
    );
    return roomId;
  } finally {
    await pool.end();
  }
}

test('a stadium room: the owner sees the headcount and the hosts, and finds anyone by name a page at a time', async (t) => {
  const owner = await bed.signUp('owner');
  const roomId = await stadium(owner, FANS);
  const person = await openRoomPage(bed, owner, roomId, { until: { role: 'tab', name: 'Chat' }, timeoutMs: SETTLE_MS });
  const { page } = person;
  await page.getByRole('tab', { name: 'Members' }).click();
  await page.getByText(`${FANS + 1} members · 1 online`).waitFor({ timeout: SETTLE_MS });

  // The owner is named among the hosts; nobody else is.
  const hosts = page.getByRole('region', { name: 'Hosts' }).getByRole('listitem');
  await hosts.first().waitFor({ timeout: SETTLE_MS });
  t.is(await hosts.count(), 1);
  t.regex((await hosts.first().textContent()) ?? '', /owner/);

  // Everyone, a page at a time.
  const everyone = page.getByRole('region', { name: 'Everyone' });
  const rows = everyone.getByRole('listitem');
  await everyone.getByText(`50 of ${FANS + 1} members`).waitFor({ timeout: SETTLE_MS });
  t.is(await rows.count(), 50);
  await everyone.getByRole('button', { name: 'Show more' }).click();
  await everyone.getByText(`100 of ${FANS + 1} members`).waitFor({ timeout: SETTLE_MS });
  t.is(await rows.count(), 100);
  t.deepEqual(await checkAtBothWidths(page, 'crowd-members'), []);

  // By name, in any case; then only those online (the owner alone).
  await everyone.getByLabel('Search by name').fill('fan 00042');
  await everyone.getByText('1 of 1 member').waitFor({ timeout: SETTLE_MS });
  t.is((await rows.first().textContent())?.includes('Fan 00042'), true);
  await everyone.getByLabel('Search by name').fill('');
  await everyone.getByLabel('Online only').check();
  // The search's answer said "1 of 1 member" too: wait for its row to go first.
  await rows.filter({ hasText: 'Fan 00042' }).waitFor({ state: 'detached', timeout: SETTLE_MS });
  await rows.filter({ hasText: owner.username }).waitFor({ timeout: SETTLE_MS });
  await everyone.getByText('1 of 1 member').waitFor({ timeout: SETTLE_MS });
  t.is(await rows.count(), 1);
  t.deepEqual(person.problems, []);
});

test('in a stadium room the chat offers anyone to mention, found by name on the server, and the mention reaches them', async (t) => {
  const owner = await bed.signUp('owner');
  const roomId = await stadium(owner, FANS);
  const person = await openRoomPage(bed, owner, roomId, { until: { role: 'tab', name: 'Chat' }, timeoutMs: SETTLE_MS });
  const { page } = person;
  await page.getByRole('tab', { name: 'Chat' }).click();
  const input = page.getByRole('combobox', { name: 'Message' });
  const offered = page.getByRole('listbox', { name: 'Members to mention' }).getByRole('option');

  // None of the fans is named in the room's view: these come from the server's search.
  await input.pressSequentially('Kick-off, @fan 0004');
  await offered.nth(5).waitFor({ timeout: SETTLE_MS });
  t.deepEqual(await offered.allTextContents(), ['Fan 00040', 'Fan 00041', 'Fan 00042', 'Fan 00043', 'Fan 00044', 'Fan 00045']);
  await input.pressSequentially('2');
  await offered.filter({ hasText: 'Fan 00043' }).waitFor({ state: 'detached', timeout: SETTLE_MS });
  t.deepEqual(await offered.allTextContents(), ['Fan 00042']);
  await input.press('Enter');
  t.is(await input.inputValue(), 'Kick-off, @Fan 00042 ');
  await input.pressSequentially('is here');
  await input.press('Enter');
  await page.locator('.chat-message').filter({ hasText: 'Kick-off' }).waitFor({ timeout: SETTLE_MS });

  // The room resolved the mention to the fan it names.
  const chat = await bed.call<{ messages: Array<{ text: string; mentions: string[] }> }>('GET', `/api/rooms/${roomId}/chat`, undefined, owner.token);
  t.deepEqual(
    chat.body.messages.map(({ text, mentions }) => ({ text, mentions })),
    [{ text: 'Kick-off, @Fan 00042 is here', mentions: ['fan-00042'] }],
  );
  t.deepEqual(person.problems, []);
});
