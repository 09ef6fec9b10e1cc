/**
 * A refused join, in Chromium as the person who pressed Join: each refusal shows the server's
 * message in plain words with what to do next. A wrong room password (at the field too, with
 * the tries left), a room at the server's people-per-room limit, and a server that admits no
 * guests (a friend with the link is offered Sign in instead). Screenshots of each state.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { checkAtBothWidths, signInPage, startWebBed, type WebBed } from './browser.js';

const OPEN_MS = 15_000;

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_join_errors');
});
test.after.always(async () => {
  await bed?.close();
});

async function roomOf(password?: string): Promise<string> {
  const owner = await bed.signUp('host');
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Movie night', ...(password ? { password } : {}) }, owner.token);
  if (created.status !== 201 && created.status !== 200) throw new Error(`room create answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body.room.id;
}

/** A new account, signed in in a fresh browser, on the room's page. */
async function visitorAt(roomId: string): Promise<{ page: Page; problems: string[] }> {
  const person = await bed.person();
  person.page.setDefaultTimeout(OPEN_MS);
  const { username } = await bed.signUp('friend');
  await signInPage(person.page, username);
  await person.page.goto(`/rooms/${roomId}`);
  await person.page.getByRole('button', { name: 'Join room' }).waitFor();
  return person;
}

test.serial('a wrong room password says so at the field, with the tries left and what to do; the right one lets the person in', async (t) => {
  const roomId = await roomOf('popcorn 42');
  const { page, problems } = await visitorAt(roomId);

  await page.getByLabel('Room password').fill('popcorn 24');
  await page.getByRole('button', { name: 'Join room' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  t.is(await alert.locator('.notice-title').textContent(), 'Wrong password');
  t.regex((await alert.textContent()) ?? '', /Wrong room password \(9 more tries before joining this room with a password pauses for 15 minutes\)/);
  t.regex((await alert.textContent()) ?? '', /Check the password with the person who shared the link, then try again\./);
  await page.getByText('this is not the room\'s password').waitFor();
  t.deepEqual(await checkAtBothWidths(page, 'join-wrong-password'), []);

  await page.getByLabel('Room password').fill('popcorn 42');
  await page.getByRole('button', { name: 'Join room' }).click();
  await page.getByRole('tab', { name: 'Chat' }).waitFor();
  t.deepEqual(problems, []);
});

test.serial('a room at the server\'s people-per-room limit says it is full and when to try again', async (t) => {
  const roomId = await roomOf();
  await bed.set('server', { maxMembersPerRoom: 1 }); // the owner alone fills it
  try {
    const { page, problems } = await visitorAt(roomId);
    await page.getByRole('button', { name: 'Join room' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    t.is(await alert.locator('.notice-title').textContent(), 'This room is full');
    t.regex((await alert.textContent()) ?? '', /This room is full: it has room for 1 person/);
    t.regex((await alert.textContent()) ?? '', /Try again later, once someone leaves\./);
    t.true(await page.getByRole('button', { name: 'Join room' }).isVisible(), 'Join stays there to try again');
    t.deepEqual(await checkAtBothWidths(page, 'join-room-full'), []);
    t.deepEqual(problems, []);
  } finally {
    await bed.set('server', { maxMembersPerRoom: 100 });
  }
});

test.serial('with guests turned off, a friend with the link is told a guest cannot join and is offered Sign in', async (t) => {
  const roomId = await roomOf();
  await bed.set('user', { enableGuest: false });
  try {
    const friend = await bed.person();
    const page = friend.page;
    page.setDefaultTimeout(OPEN_MS);
    await page.goto(`/rooms/${roomId}`);
    await page.getByText('This server does not admit guests: sign in, or create an account, to join.').waitFor();
    const signIn = page.locator('#main').getByRole('link', { name: 'Sign in', exact: true });
    t.true(await signIn.isVisible());
    t.is(await page.getByRole('button', { name: 'Continue as guest' }).count(), 0);
    t.deepEqual(await checkAtBothWidths(page, 'join-guests-off'), []);

    // Sign in leads back to this room.
    t.is(new URL((await signIn.getAttribute('href')) ?? '', bed.origin).searchParams.get('next'), `/rooms/${roomId}`);
    t.deepEqual(friend.problems, []);
  } finally {
    await bed.set('user', { enableGuest: true });
  }
});
