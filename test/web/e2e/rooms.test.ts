/**
 * Rooms in the browser: the directory and its search, creating a room under a password policy,
 * the share link and joining with the password, and two people in one room: chat (send, pin,
 * delete), the playlist (add, reorder by keyboard, remove) and a kick that ends the kicked
 * person's room at once. Axe and screenshots of the directory, create-room and the room.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, signInPage, startWebBed, type Person, type WebBed } from './browser.js';

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_rooms');
});
test.after.always(async () => {
  await bed?.close();
});

const DEADLINE_MS = 15_000;

/** Polls `check` until it holds (or fails after the deadline): for what arrives over the socket. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + DEADLINE_MS;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A new account, signed in in this browser (the sign-in pages are tested in auth.test.ts). */
async function signIn(person: Person, prefix: string): Promise<string> {
  const { username } = await bed.signUp(prefix);
  await signInPage(person.page, username);
  await person.page.reload();
  await person.page.getByRole('link', { name: username }).waitFor();
  return username;
}

async function createRoom(page: Page, name: string, password?: string): Promise<string> {
  await page.goto('/rooms/new');
  await page.getByLabel('Room name').fill(name);
  if (password !== undefined) await page.getByLabel(/^Room password/).fill(password);
  await page.getByRole('button', { name: 'Create room' }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByRole('tab', { name: 'Chat' }).waitFor();
  return page.getByLabel('Join link').inputValue();
}

async function joinByLink(page: Page, link: string, password?: string): Promise<void> {
  await page.goto(link);
  if (password !== undefined) await page.getByLabel('Room password').fill(password);
  await page.getByRole('button', { name: 'Join room' }).click();
  await page.getByRole('tab', { name: 'Chat' }).waitFor();
}

/** An owner and a second member in one new room, both on the room page. */
async function twoInARoom(label: string) {
  const owner = await bed.person();
  const guest = await bed.person();
  const ownerName = await signIn(owner, 'owner');
  const memberName = await signIn(guest, 'member');
  const link = await createRoom(owner.page, `${label} ${randomUUID().slice(0, 6)}`);
  await joinByLink(guest.page, link);
  return { owner, member: guest, ownerName, memberName, link };
}

test.serial('directory, search, create a room with the required password, share link, a second person joins with the password', async (t) => {
  await bed.set('room', { passwordPolicy: 'required' });
  try {
    const alice = await bed.person();
    const bob = await bed.person();
    await signIn(alice, 'alice');
    await signIn(bob, 'bob');

    await alice.page.goto('/rooms');
    await alice.page.getByRole('link', { name: 'Create room' }).click();
    await alice.page.getByRole('heading', { level: 1, name: 'Create a room' }).waitFor();
    const passwordField = alice.page.getByLabel('Room password');
    await passwordField.waitFor();
    t.is(await passwordField.getAttribute('required'), '', 'the policy makes the password required');
    t.deepEqual(await checkAtBothWidths(alice.page, 'rooms-create'), []);

    const word = `zephyr${randomUUID().slice(0, 6)}`;
    const name = `Film club ${word}`;
    const link = await createRoom(alice.page, name, 'open sesame');
    t.regex(link, /\/rooms\/[^/]+$/);
    await alice.page.getByRole('button', { name: 'Copy link' }).click();
    await alice.page.getByText(/Link copied|link is copied|select the link and copy it/).waitFor();

    // Bob finds it by the start of a word of its name, and a search without a match says so.
    await bob.page.goto('/rooms');
    await bob.page.getByLabel('Search rooms by name').fill(word.slice(0, 9));
    await bob.page.getByRole('button', { name: 'Search' }).click();
    const card = bob.page.getByRole('listitem').filter({ has: bob.page.getByRole('link', { name }) });
    await card.waitFor();
    t.true(await card.getByText('Password', { exact: true }).isVisible());
    t.true(await card.getByText('1 member', { exact: true }).isVisible());
    t.deepEqual(await checkAtBothWidths(bob.page, 'rooms-directory'), []);
    await bob.page.getByLabel('Search rooms by name').fill(`nomatch${randomUUID().slice(0, 6)}`);
    await bob.page.getByRole('button', { name: 'Search' }).click();
    await bob.page.getByText(/No public room matches/).waitFor();

    // Through the link: a wrong password is refused with a message, the right one lets Bob in.
    await bob.page.goto(link);
    await bob.page.getByLabel('Room password').fill('wrong');
    await bob.page.getByRole('button', { name: 'Join room' }).click();
    await bob.page.getByRole('alert').waitFor();
    await joinByLink(bob.page, link, 'open sesame');
    t.true(await bob.page.getByRole('heading', { level: 1, name }).isVisible());

    // Alice's "My rooms" lists the room she owns.
    await alice.page.goto('/');
    await alice.page.getByRole('region', { name: 'My rooms' }).getByRole('link', { name }).waitFor();
    t.deepEqual([...alice.problems, ...bob.problems], []);
  } finally {
    await bed.set('room', { passwordPolicy: 'optional' });
  }
});

test.serial('chat: a message reaches the other member, pinned shows on both, deleted goes from both', async (t) => {
  const { owner, member, ownerName } = await twoInARoom('Chat room');
  const text = `hello ${randomUUID().slice(0, 8)}`;
  for (const person of [owner, member]) await person.page.getByRole('tab', { name: 'Chat' }).click();
  await owner.page.getByLabel('Message', { exact: true }).fill(text);
  await owner.page.getByRole('button', { name: 'Send' }).click();
  await member.page.getByRole('list', { name: 'Messages' }).getByText(text).waitFor();

  await owner.page.getByRole('button', { name: `Pin message from ${ownerName}` }).click();
  for (const person of [owner, member]) await person.page.getByRole('region', { name: 'Pinned' }).getByText(text).waitFor();

  await owner.page.getByRole('button', { name: `Delete message from ${ownerName}` }).click();
  for (const person of [owner, member]) await person.page.getByRole('tabpanel', { name: 'Chat' }).getByText(text).first().waitFor({ state: 'detached' });
  t.deepEqual([...owner.problems, ...member.problems], []);
});

test.serial('playlist: add by URL with a title, reorder by keyboard (seen by the other member), remove', async (t) => {
  const { owner, member } = await twoInARoom('Playlist room');
  const add = async (title: string) => {
    await owner.page.getByLabel('Media URL').fill(`https://media.invalid/${encodeURIComponent(title)}.mp4`);
    await owner.page.getByLabel('Title', { exact: true }).fill(title);
    await owner.page.getByRole('button', { name: 'Add to playlist' }).click();
    await member.page.locator('.playlist-item').filter({ hasText: title }).waitFor();
  };
  await add('First clip');
  await add('Second clip');
  const order = (page: Page) => page.locator('.playlist-title > span:first-child').allTextContents();
  t.deepEqual(await order(member.page), ['First clip', 'Second clip']);

  await owner.page.getByRole('listitem', { name: /^Second clip, position 2 of 2/ }).focus();
  await owner.page.keyboard.press('Alt+ArrowUp');
  await owner.page.getByText('Moved “Second clip” to position 1 of 2.').waitFor({ state: 'attached' });
  await until(async () => (await order(member.page))[0] === 'Second clip', 'the new order at the other member');
  t.deepEqual(await order(member.page), ['Second clip', 'First clip']);
  t.deepEqual(await checkAtBothWidths(owner.page, 'room-member'), []);

  await owner.page.getByRole('button', { name: 'Remove First clip' }).click();
  await until(async () => (await order(member.page)).length === 1, 'the removal at the other member');
  t.deepEqual(await order(member.page), ['Second clip']);
  // The first item added is cued in the players, which then ask its (made-up) host for it: that
  // request is the media the person chose, not the page reaching out on its own.
  const chosenMedia = (problem: string) => problem.startsWith('request outside the service: https://media.invalid/');
  t.deepEqual([...owner.problems, ...member.problems].filter((problem) => !chosenMedia(problem)), []);
});

test.serial('kick: the kicked member sees at once that they were removed, with no room left; reopening shows the visitor view', async (t) => {
  const { owner, member, memberName, link } = await twoInARoom('Kick room');
  await owner.page.getByRole('tab', { name: 'Members' }).click();
  await owner.page.getByRole('button', { name: `Kick ${memberName}` }).click();
  await member.page.getByRole('heading', { level: 1, name: 'You were removed from this room' }).waitFor();
  t.is(await member.page.getByRole('tab').count(), 0, 'no room panels left');
  t.is(await member.page.getByRole('button', { name: 'Send' }).count(), 0);

  await member.page.goto(link);
  await member.page.getByRole('button', { name: 'Join room' }).waitFor();
  t.deepEqual([...owner.problems, ...member.problems], []);
});
