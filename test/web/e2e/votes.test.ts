/**
 * Vote-skip in Chromium against the whole service (docs/2026-11-26-votes-and-polls.md): three
 * people in a room; the owner turns vote-skip on at 50 % in the settings panel, every page shows
 * "0 of 2 to skip", one vote is seen by all, and the second moves all three pages to the next
 * item, where the count starts again.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, FULLSCREEN, openRoomPage, startWebBed, type Person, type WebBed } from './browser.js';
import { makeTestVideo, serveMedia, type MediaServer } from './media.js';
import type { Member } from '../../gateways/bed.js';

const STEP_MS = 20_000;

let bed: WebBed;
let media: MediaServer;
let file: string;
test.before(async () => {
  const clip = await makeTestVideo({ seconds: 10, size: '320x180' });
  file = clip.file;
  media = await serveMedia(clip.dir);
  bed = await startWebBed('web_votes');
});
test.after.always(async () => {
  await Promise.allSettled([bed?.close(), media?.close()]);
});

const openRoom = (member: Member, roomId: string): Promise<Person> =>
  openRoomPage(bed, member, roomId, { allowHosts: [media.host], until: FULLSCREEN, timeoutMs: STEP_MS });

const count = (page: Page, text: string) => page.getByTestId('vote-skip-count').filter({ hasText: text }).waitFor({ timeout: STEP_MS });
const showing = (page: Page, title: string) => page.locator(`video[aria-label="Video: ${title}"]`).waitFor({ state: 'attached', timeout: STEP_MS });

test.serial('two of three people vote to skip: every page sees the count, and the room moves on for all', async (t) => {
  const [alice, bob, carol] = await Promise.all([bed.signUp('alice'), bed.signUp('bob'), bed.signUp('carol')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Votes' }, alice.token);
  const roomId = created.body.room.id;
  for (const member of [bob, carol]) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  for (const title of ['Clip A', 'Clip B']) await bed.call('POST', `/api/rooms/${roomId}/playlist`, { title, url: media.url(file) }, alice.token);

  const people = [await openRoom(alice, roomId), await openRoom(bob, roomId), await openRoom(carol, roomId)];
  const [a, b, c] = people.map((person) => person.page) as [Page, Page, Page];
  t.is(await b.getByTestId('vote-skip-count').count(), 0, 'no vote-skip while the room has it off');

  await a.getByRole('tab', { name: 'Settings' }).click();
  await a.getByLabel('Vote to skip', { exact: true }).selectOption({ label: 'When 50 % of the people here vote' });
  await a.getByRole('button', { name: 'Save settings' }).click();
  await a.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor({ timeout: STEP_MS });
  await Promise.all([a, b, c].map((page) => count(page, '0 of 2 to skip')));

  await b.getByRole('button', { name: 'Vote to skip' }).click();
  await Promise.all([a, b, c].map((page) => count(page, '1 of 2 to skip')));
  await b.getByRole('button', { name: 'Take back my skip vote' }).waitFor({ timeout: STEP_MS });
  t.deepEqual(await checkAtBothWidths(b, 'room-vote-skip'), []);

  await c.getByRole('button', { name: 'Vote to skip' }).click();
  await Promise.all([a, b, c].map((page) => showing(page, 'Clip B')));
  await Promise.all([a, b, c].map((page) => count(page, '0 of 2 to skip')));
  t.deepEqual(people.flatMap((person) => person.problems), []);
});

test.serial('a poll: the owner asks, two others answer, everyone sees the counts move, and it closes for all', async (t) => {
  const [alice, bob, carol] = await Promise.all([bed.signUp('alice'), bed.signUp('bob'), bed.signUp('carol')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Poll night' }, alice.token);
  const roomId = created.body.room.id;
  for (const member of [bob, carol]) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  await bed.call('POST', `/api/rooms/${roomId}/playlist`, { title: 'Clip A', url: media.url(file) }, alice.token);

  const people = [await openRoom(alice, roomId), await openRoom(bob, roomId), await openRoom(carol, roomId)];
  const [a, b, c] = people.map((person) => person.page) as [Page, Page, Page];
  for (const page of [a, b, c]) await page.getByRole('tab', { name: 'Polls' }).click();
  t.is(await b.getByRole('button', { name: 'Open the poll' }).count(), 0, 'members do not open polls by default');

  await a.getByRole('textbox', { name: 'Question' }).fill('Film or series?');
  await a.getByLabel('Answers, one a line (2 to 10)').fill('Film\nSeries');
  await a.getByRole('button', { name: 'Open the poll' }).click();
  const poll = (page: Page) => page.getByRole('article', { name: 'Film or series?' });
  const counts = (page: Page, film: string, series: string) =>
    Promise.all([
      poll(page).getByTestId('poll-count').nth(0).filter({ hasText: film }).waitFor({ timeout: STEP_MS }),
      poll(page).getByTestId('poll-count').nth(1).filter({ hasText: series }).waitFor({ timeout: STEP_MS }),
    ]);
  await Promise.all([a, b, c].map((page) => counts(page, '0 (0 %)', '0 (0 %)')));

  await poll(b).getByRole('button', { name: 'Film' }).click();
  await Promise.all([a, b, c].map((page) => counts(page, '1 (100 %)', '0 (0 %)')));
  await poll(c).getByRole('button', { name: 'Series' }).click();
  await Promise.all([a, b, c].map((page) => counts(page, '1 (50 %)', '1 (50 %)')));
  // Bob changes his mind: his vote moves, it is not counted twice.
  await poll(b).getByRole('button', { name: 'Series' }).click();
  await Promise.all([a, b, c].map((page) => counts(page, '0 (0 %)', '2 (100 %)')));
  t.is(await poll(b).getByRole('button', { name: 'Series' }).getAttribute('aria-pressed'), 'true');
  t.deepEqual(await checkAtBothWidths(c, 'room-poll'), []);

  await poll(a).getByRole('button', { name: 'Close the poll' }).click();
  await Promise.all([b, c].map((page) => poll(page).getByText('Closed ·').waitFor({ timeout: STEP_MS })));
  t.is(await poll(c).getByRole('button', { name: 'Film' }).count(), 0, 'a closed poll takes no votes');
  t.deepEqual(people.flatMap((person) => person.problems), []);
});

test.serial('a voted queue: two people up-vote the last item, and a skip plays it next on every page', async (t) => {
  const [alice, bob, carol] = await Promise.all([bed.signUp('alice'), bed.signUp('bob'), bed.signUp('carol')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Queue vote', voteSkipPercent: 33 }, alice.token);
  const roomId = created.body.room.id;
  for (const member of [bob, carol]) await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  for (const title of ['Clip A', 'Clip B', 'Clip C']) await bed.call('POST', `/api/rooms/${roomId}/playlist`, { title, url: media.url(file) }, alice.token);

  const people = [await openRoom(alice, roomId), await openRoom(bob, roomId), await openRoom(carol, roomId)];
  const [a, b, c] = people.map((person) => person.page) as [Page, Page, Page];
  await a.getByRole('tab', { name: 'Settings' }).click();
  await a.getByLabel('When an item ends').selectOption({ label: 'Play the most up-voted' });
  await a.getByRole('button', { name: 'Save settings' }).click();
  await a.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor({ timeout: STEP_MS });
  for (const page of [a, b, c]) await page.getByRole('tab', { name: 'Playlist' }).click();

  const upvote = (page: Page, title: string, votes: string) => page.getByRole('button', { name: `Up-vote ${title} (${votes})` });
  await upvote(b, 'Clip C', '0 votes').click();
  await upvote(c, 'Clip C', '1 vote').click();
  await Promise.all([a, b, c].map((page) => upvote(page, 'Clip C', '2 votes').waitFor({ timeout: STEP_MS })));
  t.is(await upvote(c, 'Clip C', '2 votes').getAttribute('aria-pressed'), 'true');
  t.deepEqual(await checkAtBothWidths(a, 'room-voted-queue'), []);

  // One vote skips at 33 % of three: the room plays C, the most up-voted, not B.
  await b.getByRole('button', { name: 'Vote to skip' }).click();
  await Promise.all([a, b, c].map((page) => showing(page, 'Clip C')));
  // C's votes are spent: back in the list later, it starts from nothing.
  await Promise.all([a, b, c].map((page) => upvote(page, 'Clip A', '0 votes').waitFor({ timeout: STEP_MS })));
  t.is(await upvote(a, 'Clip C', '2 votes').count(), 0);
  t.deepEqual(people.flatMap((person) => person.problems), []);
});
