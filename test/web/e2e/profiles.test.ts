/**
 * Profiles in Chromium against the whole service (docs/2026-11-26-profiles-and-accounts.md):
 * one person uploads an avatar on the account page, and a second person in the same room sees
 * it in the member list and beside chat messages, while someone without one shows initials. A
 * photo larger than the server decodes is scaled down by the page first; a picture the server
 * refuses is named on the page. Closing the account from the account page
 * ends its sessions. A starred room leads the home page. Screenshots: test-artifacts/screenshots/profiles-*.
 */
import test from 'ava';
import sharp from 'sharp';
import { BED_PASSWORD } from '../../gateways/bed.js';
import { checkAtBothWidths, screenshot, signInPage, startWebBed, waitForPage, type WebBed } from './browser.js';

let bed: WebBed;
test.before(async () => {
  bed = await startWebBed('web_profiles');
});
test.after.always(async () => {
  await bed?.close();
});

/** Whether the member list item or chat line naming `name` shows a loaded avatar picture of `side` pixels. */
const pictureBeside = (selector: string, name: string, side: number) =>
  `[...document.querySelectorAll(${JSON.stringify(selector)})].some((item) => item.textContent.includes(${JSON.stringify(name)}) && item.querySelector('.avatar img')?.complete && item.querySelector('.avatar img').naturalWidth === ${side})`;

test('an avatar uploaded on the account page shows in the member list and chat of a second person, who stars the room', async (t) => {
  const alice = await bed.signUp('alice');
  const bob = await bed.signUp('bob');
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Faces' }, alice.token);
  const roomId = created.body.room.id;
  t.is((await bed.call('POST', `/api/rooms/${roomId}/join`, {}, bob.token)).status, 200);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/chat`, { text: 'hello from alice' }, alice.token)).status, 201);

  const first = await bed.person();
  await signInPage(first.page, alice.username);
  await first.page.goto('/account');
  const section = first.page.getByRole('region', { name: 'Avatar' });
  await section.getByLabel('Upload a picture').waitFor();

  // A file that is not a picture: refused by the server, the reason shown beside the field.
  await section.getByLabel('Upload a picture').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await section.getByRole('alert').filter({ hasText: 'The picture is not a picture' }).waitFor();

  // A phone-sized photo, over the 2048 px the server decodes: the page scales it down first.
  const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#d2541e' } })
    .jpeg()
    .toBuffer();
  await section.getByLabel('Upload a picture').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
  await section.getByText('Avatar saved.').waitFor();
  await waitForPage(first.page, `document.querySelector('.avatar-editor .avatar img')?.naturalWidth === 256`);
  await waitForPage(first.page, `document.querySelector('.account-link .avatar img')?.naturalWidth === 64`);
  t.deepEqual(await checkAtBothWidths(first.page, 'profiles-account'), []);

  const second = await bed.person();
  await signInPage(second.page, bob.username);
  await second.page.goto(`/rooms/${roomId}`);
  await second.page.getByRole('tab', { name: 'Members' }).click();
  await waitForPage(second.page, pictureBeside('.member', alice.username, 64));
  // Bob has none: his initials, and no picture.
  const bobItem = second.page.locator('.member', { hasText: bob.username });
  await waitForPage(second.page, `[...document.querySelectorAll('.member')].some((item) => item.textContent.includes(${JSON.stringify(bob.username)}) && !item.querySelector('.avatar img'))`);
  t.is(await bobItem.locator('.avatar-initials').innerText(), bob.username[0]!.toUpperCase());
  await screenshot(second.page, 'profiles-members');

  await second.page.getByRole('tab', { name: 'Chat' }).click();
  await waitForPage(second.page, pictureBeside('.chat-message', 'hello from alice', 64));
  t.deepEqual(await checkAtBothWidths(second.page, 'profiles-room'), []);

  // Bob stars the room; the home page lists it under his favourites, before his own rooms.
  const star = second.page.getByRole('button', { name: 'Favourite' });
  await star.click();
  await second.page.locator('button[aria-pressed="true"]', { hasText: 'Favourite' }).waitFor();
  await second.page.goto('/');
  const favourites = second.page.getByRole('region', { name: 'Favourite rooms' });
  await favourites.getByRole('link', { name: 'Faces' }).waitFor();
  const headings = await second.page.locator('main h2').allInnerTexts();
  t.true(headings.indexOf('Favourite rooms') < headings.indexOf('My rooms'), headings.join(', '));
  t.deepEqual(await checkAtBothWidths(second.page, 'profiles-home-favourites'), []);

  // Failed loads (the refused upload's 400, Bob's missing avatar's 404) are filtered by the bed.
  t.deepEqual([...first.problems, ...second.problems], []);
});

test('closing the account from the account page signs the person out everywhere and frees nothing to sign in with', async (t) => {
  const leaving = await bed.signUp('leaving');
  const person = await bed.person();
  await signInPage(person.page, leaving.username);
  await person.page.goto('/account');
  const section = person.page.getByRole('region', { name: 'Close the account' });
  await section.getByLabel('Type your username to confirm').fill(`${leaving.username}x`);
  // Signed in a moment ago: the recent sign-in is the proof (an Argon2id account could type its password instead).
  await section.getByRole('button', { name: 'Close my account' }).click();
  await section.getByText('must be your username').waitFor();
  t.is((await bed.call('GET', '/api/me', undefined, leaving.token)).status, 200, 'a slip closes nothing');

  await section.getByLabel('Type your username to confirm').fill(leaving.username);
  await section.getByRole('button', { name: 'Close my account' }).click();
  await person.page.getByRole('status').filter({ hasText: 'Your account is closed' }).waitFor();
  await person.page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
  // The other session (the API's) ended too, and a reload finds no session to restore.
  t.is((await bed.call('GET', '/api/me', undefined, leaving.token)).status, 401);
  await person.page.reload();
  await person.page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
  const again = await bed.call('POST', '/api/auth/password/login', { username: leaving.username, password: BED_PASSWORD }, undefined, { 'x-svc-client': 'native' });
  t.is(again.status, 401);
  await screenshot(person.page, 'profiles-closed');
  t.deepEqual(person.problems, []);
});
