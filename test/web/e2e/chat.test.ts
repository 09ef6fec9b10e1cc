/**
 * Chat replies, edits, mentions and links in Chromium against the whole service, with three
 * people in a room: a reply is seen by the others with its quote, and the quote leads to the
 * original; an edit is seen with "(edited)"; a mention chosen from the composer's list reaches
 * the mentioned person's bell and highlights the message for them; an http(s) address is a link
 * that opens apart from the room, a javascript: "link" stays text. Checked with axe at both
 * widths; screenshots go to test-artifacts/screenshots/chat-*.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Member } from '../../gateways/bed.js';
import { checkAtBothWidths, openRoomPage, startWebBed, type Person, type WebBed } from './browser.js';

const SETTLE_MS = 15_000;
let bed: WebBed;

test.before(async () => {
  bed = await startWebBed('web_chat');
});
test.after.always(async () => {
  await bed?.close();
});

async function roomWith(owner: Member, others: Member[]): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Chat night' }, owner.token);
  const roomId = created.body.room.id;
  for (const member of others) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  return roomId;
}

const openRoom = (member: Member, roomId: string): Promise<Person> => openRoomPage(bed, member, roomId, { tab: 'Chat', timeoutMs: SETTLE_MS });

const messageOf = (person: Person, text: string) => person.page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text });

test('a reply with its quote, an edit, a mention that notifies and highlights, and links made safely', async (t) => {
  const [alice, bob, carol] = await Promise.all([bed.signUp('alice'), bed.signUp('bob'), bed.signUp('carol')]);
  const roomId = await roomWith(alice, [bob, carol]);
  const people = await Promise.all([alice, bob, carol].map((member) => openRoom(member, roomId)));
  const [a, b, c] = people as [Person, Person, Person];
  const tag = randomUUID().slice(0, 6);

  const question = `which film tonight ${tag}?`;
  await a.page.getByLabel('Message', { exact: true }).fill(question);
  await a.page.getByRole('button', { name: 'Send' }).click();
  await messageOf(b, question).waitFor({ timeout: SETTLE_MS });

  // Bob replies: the composer quotes what he answers, the others see the quote above his reply.
  await messageOf(b, question).getByRole('button', { name: `Reply to ${alice.username}` }).click();
  t.regex((await b.page.getByTestId('replying-to').textContent()) ?? '', new RegExp(`Replying to ${alice.username}: ${question.replace('?', '\\?')}`));
  const answer = `the bunny one ${tag}`;
  await b.page.getByLabel('Message', { exact: true }).fill(answer);
  await b.page.getByRole('button', { name: 'Send' }).click();
  await b.page.getByTestId('replying-to').waitFor({ state: 'detached' });
  for (const person of [a, c]) {
    const quote = messageOf(person, answer).locator('.chat-quote');
    await quote.waitFor({ timeout: SETTLE_MS });
    t.regex((await quote.textContent()) ?? '', new RegExp(`${alice.username}: ${question.replace('?', '\\?')}`));
  }
  // The quote leads to the original.
  await messageOf(c, answer).locator('.chat-quote').click();
  const focused = await c.page.evaluate('document.activeElement?.textContent ?? ""');
  t.true(String(focused).includes(question), 'the original has the focus');

  // Bob edits his reply in place (Enter saves): the others see the new text, marked edited.
  const edited = `the bunny one, surely ${tag}`;
  await messageOf(b, answer).getByRole('button', { name: 'Edit my message' }).click();
  await b.page.getByLabel('Edit message').fill(edited);
  await b.page.getByLabel('Edit message').press('Enter');
  for (const person of [a, c]) {
    const message = messageOf(person, edited);
    await message.waitFor({ timeout: SETTLE_MS });
    t.is((await message.locator('.chat-edited').textContent())?.trim(), '(edited)');
  }
  t.is(await messageOf(a, edited).getByRole('button', { name: 'Edit my message' }).count(), 0, 'only the author may edit');

  // Carol mentions Alice, chosen from the list the composer offers after "@".
  const input = c.page.getByLabel('Message', { exact: true });
  await input.click();
  await input.pressSequentially(`@${alice.username.slice(0, 7)}`);
  const option = c.page.getByRole('listbox', { name: 'Members to mention' }).getByRole('option', { name: alice.username });
  await option.waitFor({ timeout: SETTLE_MS });
  await input.press('Enter');
  t.is(await input.inputValue(), `@${alice.username} `);
  const links = `look https://example.com/wiki/Heat_(1995_film). and javascript:alert(1) ${tag}`;
  await input.pressSequentially(links);
  await c.page.getByRole('button', { name: 'Send' }).click();

  // Alice: the bell counts it, the message is highlighted with her name as a chip.
  const mention = messageOf(a, links);
  await mention.waitFor({ timeout: SETTLE_MS });
  t.true(((await mention.getAttribute('class')) ?? '').includes('is-mentioned'));
  t.is(await mention.locator('.mention-chip.is-me').textContent(), `@${alice.username}`);
  await a.page.getByTestId('bell-count').filter({ hasText: '1' }).waitFor({ timeout: SETTLE_MS });
  t.false(((await messageOf(b, links).getAttribute('class')) ?? '').includes('is-mentioned'), 'only for the one mentioned');

  // The address is a link that opens apart; the javascript: one is text.
  const link = mention.locator('a.chat-link');
  t.is(await link.count(), 1);
  t.is(await link.getAttribute('href'), 'https://example.com/wiki/Heat_(1995_film)');
  t.is(await link.getAttribute('target'), '_blank');
  t.is(await link.getAttribute('rel'), 'noopener noreferrer nofollow ugc');
  t.is(await a.page.locator('a[href^="javascript:" i]').count(), 0);
  t.true(((await mention.textContent()) ?? '').includes('javascript:alert(1)'));

  t.deepEqual(await checkAtBothWidths(a.page, 'chat-mention'), []);
  await a.page.getByRole('button', { name: /^Notifications/ }).click();
  const note = a.page.locator('#bell-list li').filter({ hasText: 'mentioned you in' });
  await note.waitFor({ timeout: SETTLE_MS });
  t.regex((await note.textContent()) ?? '', new RegExp(`${carol.username} mentioned you in Chat night`));
  await a.page.getByTestId('bell-count').waitFor({ state: 'detached' });
  t.deepEqual(await checkAtBothWidths(a.page, 'chat-bell'), []);
  await messageOf(c, edited).getByRole('button', { name: `Reply to ${bob.username}` }).click();
  t.deepEqual(await checkAtBothWidths(c.page, 'chat-reply'), []);
  t.deepEqual([...a.problems, ...b.problems, ...c.problems], []);
});
